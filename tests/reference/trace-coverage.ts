/**
 * What a set of expected traces exercised: each trace is reduced to the situations its steps
 * show (a tie under .rz, an overflow to MAX_NORM, a tiny result that rounds to the smallest
 * normal, an exact zero under .rm, a sticky-only cut, a flush under either tininess reading,
 * .rs with and without a carry, ue8m0's missing sign and zero, .satfinite of each case, padding
 * read beside a 6-bit value, two elements that went different ways, each decision named, ...),
 * so a test can require every corner group to have been reached, not merely generated.
 */
import { findForm } from '../../src/catalog/all-forms.ts';
import { REF_CVT_FORMATS, type RefCvtFormatName } from './cvt-formats.ts';
import type { ExpectedResult } from './trace-expect.ts';

interface View {
  readonly format: RefCvtFormatName;
  readonly bits: string;
}

/** The result is ± the smallest normal value of its format. */
function isSmallestNormal(view: View): boolean {
  const fmt = REF_CVT_FORMATS[view.format];
  const sign = fmt.signed ? 1n << BigInt(fmt.totalBits - 1) : 0n;
  const magnitude = BigInt(view.bits) & ~sign;
  return magnitude === (fmt.specials === 'ue8m0' ? 0n : 1n << BigInt(fmt.fractionBits));
}

export function situationsOf(result: ExpectedResult): string[] {
  const out = new Set<string>(result.decisions.map((d) => `decision ${d}`));
  const formMode = findForm(result.form)?.rounding ?? 'rn';
  /** The situations of a list of steps (an element's, or a tensor core's fused step's). */
  const visit = (steps: readonly ExpectedResult['elements'][number]['steps'][number][]) => {
    // Whether the last rounding kept bits: an overflow then went past MAX_NORM by a little.
    let withinRange = false;
    let mode: string = formMode;
    for (const step of steps) {
      const s = step as Record<string, unknown>;
      if (Array.isArray(s.steps)) visit(s.steps as typeof steps);
      switch (step.kind) {
        case 'inputs':
          for (const read of s.operands as { padding: string | null }[])
            if (read.padding !== null)
              out.add(`padding ${BigInt(read.padding) === 0n ? 'zero' : 'nonzero'}`);
          break;
        case 'round': {
          mode = String(s.mode);
          out.add(`round ${mode} ${String(s.reason)}`);
          if (s.fractionBits !== undefined)
            out.add(`round ${mode} to ${String(s.fractionBits)} fraction bits`);
          const cut = s.cut as { guard: number; round: number; sticky: number } | undefined;
          withinRange = cut !== undefined;
          if (!cut) out.add(`round ${mode} beyond the exponent range`);
          else if (cut.guard === 0 && cut.round === 0 && cut.sticky === 1)
            out.add(`round ${mode} sticky only`);
          else if (cut.guard === 1 && cut.round === 0 && cut.sticky === 0)
            out.add(`round ${mode} halfway`);
          if (s.subnormal) out.add(`round ${mode} to a subnormal`);
          if (s.result === null) out.add(`round ${mode} to no value of the format`);
          const random = s.random as { discardedCount: number; bits: string } | undefined;
          if (random && random.discardedCount > random.bits.length)
            out.add('round rs with more bits discarded than random bits');
          break;
        }
        case 'overflow':
          out.add(`overflow ${String(s.mode)} to ${String(s.to)}`);
          out.add(`overflow by ${withinRange ? 'a little' : 'a lot'}`);
          break;
        case 'tininess':
          out.add(
            `tiny (after rounding: ${s.tinyAfterRounding ? 'tiny' : 'not tiny'}, ${s.inexact ? 'inexact' : 'exact'})${isSmallestNormal(s.result as View) ? ' to the smallest normal' : ''}`,
          );
          break;
        case 'special': {
          const r = s.result as View | null;
          out.add(
            `special ${String(s.case)}${s.case === 'exact-zero' ? ` ${mode} ${r!.bits.startsWith('0x8') ? '-0' : '+0'}` : ''}${r === null ? ' the format lacks' : ''}`,
          );
          break;
        }
        case 'flush-result': {
          const before = (s.before as View).bits;
          const after = (s.after as View).bits;
          out.add(
            `flush result ${String(s.tininess ?? 'approx')} ${before === after ? 'kept' : 'flushed'}`,
          );
          break;
        }
        case 'unsigned':
          out.add(`unsigned ${String(s.what)}`);
          break;
        case 'satfinite':
          out.add(`satfinite ${String(s.case)}`);
          break;
        case 'flush-input':
        case 'convert':
        case 'saturate':
        case 'relu':
        case 'xorsign':
        case 'abs-inputs':
          out.add(step.kind);
          break;
        case 'oob-check':
          out.add(
            `oob ${s.forcesZero ? 'zero' : (s.oobOperands as string[]).length ? 'c only' : 'none'}`,
          );
          break;
        case 'approx': {
          const allowed = s.allowed as { count: number; overflows: boolean; emptyBecause?: string };
          out.add(
            `approx ${String(s.fn)} ${allowed.count === 0 ? `empty: ${allowed.emptyBecause}` : allowed.overflows ? 'with the infinity' : 'values allowed'}`,
          );
          break;
        }
        case 'minmax':
          out.add(
            `minmax ${String(s.branch)}${s.comparison ? ` ${(s.comparison as { order: string }).order}${(s.comparison as { signedZeros: boolean }).signedZeros ? ' signed zeros' : ''}` : ''}`,
          );
          break;
        case 'tensor-model':
          out.add(`model ${String(s.architecture)}`);
          break;
        case 'fused':
          out.add(s.parts === 2 ? 'fused in two halves' : 'fused in one step');
          break;
        case 'fma':
          out.add('fma link');
          break;
        case 'sequence-add':
          out.add('sequence addition');
          break;
        case 'terms': {
          const terms = s.terms as { zero: boolean; significandBits: string }[];
          if (terms.some((t) => t.zero)) out.add('terms with a zero');
          if (terms.some((t) => !t.zero && t.significandBits.startsWith('0.')))
            out.add('terms with a significand below 1');
          break;
        }
        case 'align': {
          const terms = s.terms as { cutBits: { bits: string }; kept: { rational: string } }[];
          if (terms.some((t) => t.cutBits.bits !== '')) out.add('align bits cut');
          if (terms.some((t) => t.kept.rational === '0' && t.cutBits.bits !== ''))
            out.add('align a term cut away');
          break;
        }
        case 'sum': {
          const n = s.normalisation as { shift: number } | null;
          out.add(
            n === null
              ? 'sum zero'
              : n.shift > 0
                ? 'sum carries'
                : n.shift < 0
                  ? 'sum cancels'
                  : 'sum at E',
          );
          if ((s.lost as { rational: string }).rational !== '0') out.add('sum lost bits');
          break;
        }
      }
    }
  };
  for (const element of result.elements) visit(element.steps);
  if (result.elements.length >= 2) {
    const kinds = new Set(result.elements.map((e) => e.steps.map((s) => s.kind).join(',')));
    if (kinds.size > 1) out.add('elements took different steps');
  }
  return [...out];
}
