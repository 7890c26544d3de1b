/**
 * What a set of expected traces exercised: each trace is reduced to the situations its steps
 * show (a tie under .rz, an overflow to the largest finite value, a tiny result that rounds to
 * the smallest normal, an exact zero under .rm, a sticky-only cut, a flush under either
 * tininess reading, two lanes that went different ways, ...), so a test can require every
 * corner group to have been reached, not merely generated.
 */
import { findForm } from '../../src/catalog/forms.ts';
import type { ExpectedResult } from './trace-model.ts';

export function situationsOf(result: ExpectedResult): string[] {
  const out = new Set<string>();
  const mode = findForm(result.form)?.rounding ?? 'rn';
  for (const lane of result.lanes) {
    // Whether the last rounding kept bits: an overflow then went past max by a little.
    let withinRange = false;
    for (const step of lane.steps) {
      const s = step as Record<string, unknown>;
      switch (step.kind) {
        case 'round': {
          out.add(`round ${mode} ${String(s.reason)}`);
          const cut = s.cut as { guard: number; round: number; sticky: number } | undefined;
          withinRange = cut !== undefined;
          if (!cut) out.add(`round ${mode} beyond the exponent range`);
          else if (cut.guard === 0 && cut.round === 0 && cut.sticky === 1)
            out.add(`round ${mode} sticky only`);
          else if (cut.guard === 1 && cut.round === 0 && cut.sticky === 0)
            out.add(`round ${mode} halfway`);
          break;
        }
        case 'overflow':
          out.add(`overflow ${String(s.mode)} to ${String(s.to)}`);
          out.add(`overflow by ${withinRange ? 'a little' : 'a lot'}`);
          break;
        case 'tininess': {
          const minNormal =
            s.result === (result.dFormat === 'f16' ? 0x0400 : 0x0080) ||
            s.result === (result.dFormat === 'f16' ? 0x8400 : 0x8080) ||
            (result.dFormat === 'f32' && (s.result as number) % 0x80000000 === 0x00800000);
          out.add(
            `tiny (after rounding: ${s.tinyAfterRounding ? 'tiny' : 'not tiny'}, ${s.inexact ? 'inexact' : 'exact'})${minNormal ? ' to the smallest normal' : ''}`,
          );
          break;
        }
        case 'special':
          out.add(
            `special ${String(s.case)}${s.case === 'exact-zero' ? ` ${mode} ${(s.result as number) === 0 ? '+0' : '-0'}` : ''}`,
          );
          break;
        case 'flush-result':
          out.add(
            `flush result ${String(s.tininess ?? 'approx')} ${s.before === s.after ? 'kept' : 'flushed'}`,
          );
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
      }
    }
  }
  if (result.lanes.length === 2) {
    const kinds = result.lanes.map((l) => l.steps.map((s) => s.kind).join(','));
    if (kinds[0] !== kinds[1]) out.add('x2 lanes took different steps');
  }
  return [...out];
}
