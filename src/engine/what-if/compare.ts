/**
 * What-if: an instruction (A) beside a variant (B) on the same operand values. B is another
 * catalog form, its operands carried over by value (carry.ts), or the unfused sequence of an fma
 * (unfused.ts). Both results come with their summaries, their reference values, the bits that
 * differ and the difference in ulps of each destination format.
 */
import { findForm, isMixed, laneFormat, type Form } from '../../catalog/forms.ts';
import { parseInstruction } from '../../catalog/parse.ts';
import { readableDecimal } from '../decimal-text.ts';
import { add, exactValueOfDyadic, ilog2, isZero, negate } from '../exact.ts';
import { evaluate, resolveForm, type EvalInput } from '../evaluate.ts';
import { FORMATS, classify, type FloatFormat, dyadicOf, exactValueOfBits } from '../formats.ts';
import type { SourceName } from '../lane.ts';
import { resolveOptions, type EngineOptions } from '../options.ts';
import type { EvalResult } from '../trace.ts';
import { carryOperands, type Carried } from './carry.ts';
import { lanesOf } from './describe.ts';
import { errorOf, referenceValues, type LaneReference } from './reference.ts';
import { outcomeSentence, summaryOf } from './summary.ts';
import { evaluateUnfused, unfusedPlan, type UnfusedEvaluation } from './unfused.ts';

export type Variant = { readonly kind: 'form'; readonly form: Form } | { readonly kind: 'unfused' };

/** `unfused`, or an instruction as typed (any spelling the parser reads), else the reason. */
export function parseVariant(text: string): Variant | { readonly error: string } {
  const t = text.trim();
  if (t === 'unfused') return { kind: 'unfused' };
  if (/^cvt(\.|$)/.test(t))
    return {
      error: `${t} is a cvt; an arithmetic instruction compares with another arithmetic form or unfused`,
    };
  const parsed = parseInstruction(t);
  if (!parsed.ok) return { error: `${t}: ${parsed.error.message}` };
  return { kind: 'form', form: parsed.form };
}

/** How a variant is written back: `unfused`, or the form's canonical text. */
export function variantText(variant: Variant): string {
  return variant.kind === 'unfused' ? 'unfused' : variant.form.text;
}

/** One side of a comparison. */
export interface Side {
  readonly label: string;
  readonly d: number;
  readonly dFormat: 'f16' | 'bf16' | 'f32';
  readonly dBits: 16 | 32;
  readonly summary: string;
  readonly reference: readonly LaneReference[];
  /** The traced evaluation (A, or B as a form). */
  readonly result?: EvalResult;
}

export type VariantSide =
  | (Side & { readonly kind: 'form'; readonly form: Form; readonly carried: Carried })
  | (Side & { readonly kind: 'unfused'; readonly unfused: UnfusedEvaluation; readonly why: string })
  | { readonly kind: 'refused'; readonly reason: string };

export interface LaneDifference {
  readonly lane: number;
  /** B − A in ulps of A's format at A's result, and of B's format at B's result (null: a NaN or ∞). */
  readonly ulpsOfA: number | null;
  readonly ulpsOfB: number | null;
  /**
   * B's result minus A's exact value (the real result of the operation on the operands as A
   * holds them), in ulps of B's format at B's result: how far B lands from the answer A
   * approximates, its carried operands' rounding included. Null where B computes another
   * operation (another opcode) or either is not finite.
   */
  readonly bAgainstExactA: LaneReference['error'];
}

export interface Comparison {
  readonly a: Side & { readonly form: Form };
  readonly b: VariantSide;
  /** A's register XOR B's, where both are registers of the same format; else null. */
  readonly differingBits: number | null;
  readonly lanes: readonly LaneDifference[];
  readonly same: boolean;
}

function sideOf(label: string, result: EvalResult): Side {
  return {
    label,
    d: result.d,
    dFormat: result.dFormat,
    dBits: result.dBits,
    summary: summaryOf(result),
    reference: referenceValues(result),
    result,
  };
}

/** (b − a) in ulps of format f at x (both values finite), else null. */
function ulpsBetween(
  a: number,
  fa: FloatFormat,
  b: number,
  fb: FloatFormat,
  at: number,
  f: FloatFormat,
): number | null {
  const finite = (bits: number, g: FloatFormat) => {
    const c = classify(bits, g);
    return c !== 'qnan' && c !== 'snan' && c !== 'infinity';
  };
  if (!finite(a, fa) || !finite(b, fb) || !finite(at, f)) return null;
  const diff = add(dyadicOf(b, fb), negate(dyadicOf(a, fa)));
  if (isZero(diff)) return 0;
  const x = dyadicOf(at, f);
  const quantum = (isZero(x) ? f.emin : Math.max(ilog2(x), f.emin)) - f.manBits;
  return (diff.negative ? -1 : 1) * Number(diff.mant) * 2 ** (diff.exp - quantum);
}

/**
 * The registers as A reads them: a lane marked OOB-NaN holds the OOB-NaN pattern (what the
 * engine reads a mark as), so the variant is given the same values.
 */
function markedRegisters(form: Form, input: EvalInput, options?: Partial<EngineOptions>) {
  if (!input.oob) return input;
  const pattern = resolveOptions(options).oobNanBits;
  const registers: { a: number; b?: number; c?: number } = { a: input.a, b: input.b, c: input.c };
  for (const op of form.operands.slice(1)) {
    const name = op.name as SourceName;
    const mark = input.oob[name];
    if (!mark) continue;
    const lanes = mark === true ? [true, true] : mark;
    let register = registers[name] ?? 0;
    for (let lane = 0; lane < op.lanes; lane++) {
      if (!lanes[lane]) continue;
      const shift = 2 ** (16 * lane);
      register += (pattern - (Math.floor(register / shift) % 65536)) * shift;
    }
    registers[name] = register;
  }
  return registers;
}

export function compareWith(
  formOrText: Form | string,
  given: EvalInput,
  variant: Variant,
  options?: Partial<EngineOptions>,
): Comparison {
  const form = resolveForm(formOrText);
  const resultA = evaluate(form, given, options);
  // B (and the unfused sequence) read A's registers with any OOB-NaN mark spelled out in bits.
  const input = markedRegisters(form, given, options);
  const a = { ...sideOf(form.text, resultA), form };
  let b: VariantSide;
  if (variant.kind === 'unfused') {
    const unfused = evaluateUnfused(form, input, options);
    if ('ok' in unfused) b = { kind: 'refused', reason: unfused.reason };
    else {
      const dFormat = resultA.dFormat;
      b = {
        kind: 'unfused',
        label: 'unfused',
        unfused,
        d: unfused.d,
        dFormat,
        dBits: resultA.dBits,
        summary: unfusedSummary(unfused),
        // The sequence computes the fma's a × b + c: its reference is the fma's exact value.
        reference: a.reference.map((r, i) => ({
          ...r,
          error: errorOf(lanesOf(unfused.d, resultA.dBits, dFormat)[i]!, FORMATS[dFormat], r.exact),
        })),
        ...(unfused.traces ? { result: unfused.traces.add } : {}),
        why: unfusedWhy(form, input, resultA, unfused),
      };
    }
  } else {
    const carried = carryOperands(form, variant.form, input);
    const resultB = evaluate(variant.form, carried.input, options);
    b = { kind: 'form', form: variant.form, carried, ...sideOf(variant.form.text, resultB) };
  }
  if (b.kind === 'refused') return { a, b, differingBits: null, lanes: [], same: false };
  const fa = FORMATS[a.dFormat];
  const fb = FORMATS[b.dFormat];
  const lanesA = lanesOf(a.d, a.dBits, a.dFormat);
  const lanesB = lanesOf(b.d, b.dBits, b.dFormat);
  const sameOperation = b.kind === 'unfused' || b.form.opcode === form.opcode;
  const lanes = lanesA.map((x, i) => {
    const y = lanesB[Math.min(i, lanesB.length - 1)]!;
    const exactA = a.reference[i]?.exact;
    return {
      lane: i,
      ulpsOfA: ulpsBetween(x, fa, y, fb, x, fa),
      ulpsOfB: ulpsBetween(x, fa, y, fb, y, fb),
      bAgainstExactA: sameOperation && exactA ? errorOf(y, fb, exactA) : null,
    };
  });
  const sameShape = a.dFormat === b.dFormat && a.dBits === b.dBits;
  return {
    a,
    b,
    differingBits: sameShape ? (a.d ^ b.d) >>> 0 : null,
    lanes,
    same: sameShape && a.d === b.d,
  };
}

/**
 * What the sequence did, in words: its product t, then its sum d (read off the two traces, or
 * off the binary32 steps' outcomes), and a clamp by .sat.
 */
function unfusedSummary(unfused: UnfusedEvaluation): string {
  if (unfused.traces)
    return `t: ${summaryOf(unfused.traces.mul)}; d: ${summaryOf(unfused.traces.add)}`;
  const f32 = FORMATS.f32;
  const { product, sum } = unfused.outcomes!;
  const sat =
    unfused.d !== sum.bits ? `; .sat clamps it to ${exactValueOfBits(unfused.d, f32).decimal}` : '';
  return `t: ${outcomeSentence(product, f32, 'product')}; d: ${outcomeSentence(sum, f32, 'sum')}${sat}`;
}

/**
 * Why the unfused sequence gives another result than the fma, in words: the product's own
 * rounding (and what it lost), a cancellation that the rounded product could not survive, or an
 * intermediate overflow. Empty where the results agree.
 */
function unfusedWhy(
  form: Form,
  input: EvalInput,
  fused: EvalResult,
  unfused: UnfusedEvaluation,
): string {
  if (fused.d === unfused.d) return '';
  const pf = FORMATS[unfused.product.format];
  const lanes = lanesOf(
    unfused.product.bits,
    pf.width === 32 ? 32 : fused.dBits,
    unfused.product.format,
  );
  const src = FORMATS[laneFormat(form.type)];
  const reasons = lanes.map((t, i) => {
    const regA = input.a;
    const regB = input.b ?? 0;
    const laneOf = (r: number) => (lanes.length === 2 ? Math.floor(r / 2 ** (16 * i)) % 65536 : r);
    // A lane where both agree needs no reason (the other lane of an x2 register may differ).
    if (laneOf(fused.d) === laneOf(unfused.d)) return '';
    const cls = classify(t, pf);
    if (cls === 'qnan' || cls === 'snan') return '';
    if (cls === 'infinity')
      return 'the product overflows on its own (t = ∞), though a × b + c fits';
    const x = dyadicOf(laneOf(regA), src);
    const y = dyadicOf(laneOf(regB), src);
    const exactProduct = {
      negative: x.negative !== y.negative,
      mant: x.mant * y.mant,
      exp: x.exp + y.exp,
    };
    const tv = dyadicOf(t, pf);
    const lost = add(tv, negate(exactProduct));
    if (isZero(lost)) return '';
    const fusedLane = lanesOf(fused.d, fused.dBits, fused.dFormat)[i]!;
    const fv = dyadicOf(fusedLane, FORMATS[fused.dFormat]);
    const cancellation =
      !isZero(fv) && !isZero(tv) && ilog2(tv) - ilog2(fv) >= FORMATS[fused.dFormat].manBits / 2;
    const error = readableDecimal(exactValueOfDyadic(lost).decimal).text.replace(/^-/, '−');
    const lostText = `mul rounds a × b to ${isMixed(form.type) ? 'f32' : pf.name} (t − a × b = ${error.startsWith('−') ? error : `+${error}`})`;
    return cancellation
      ? `${lostText}; c cancels most of the product, so that rounding error is a large part of what is left`
      : `${lostText}, and the add rounds a second time`;
  });
  const text = reasons.filter((r) => r !== '');
  if (text.length === 0)
    return 'the two roundings of the sequence land on another value than the one rounding of the fma';
  return lanes.length === 2
    ? reasons
        .map((r, i) => (r ? `lane ${i}: ${r}` : ''))
        .filter(Boolean)
        .join('; ')
    : text[0]!;
}

export interface QuickVariant {
  readonly label: string;
  /** An instruction text, or 'unfused'. */
  readonly variant: string;
}

/**
 * One-click variants of a form: each other rounding mode, .ftz on/off, f16 ↔ bf16, the mixed
 * form of the same op, and the unfused sequence of an fma — the ones that exist.
 */
export function quickVariants(formOrText: Form | string): QuickVariant[] {
  const form = resolveForm(formOrText);
  const out: QuickVariant[] = [];
  const mods = form.modifiers.filter((m) => !['rn', 'rz', 'rm', 'rp'].includes(m));
  const text = (rounding: string | null, modifiers: readonly string[], type: string) =>
    [form.opcode, ...(rounding ? [rounding] : []), ...modifiers, type].join('.');
  const push = (label: string, candidate: string) => {
    const found = findForm(candidate);
    if (found && found.text !== form.text && !out.some((v) => v.variant === found.text))
      out.push({ label, variant: found.text });
  };
  for (const mode of ['rn', 'rz', 'rm', 'rp']) {
    if (mode === form.rounding) continue;
    push(`.${mode}`, text(mode, mods, form.type));
  }
  if (form.modifiers.includes('ftz'))
    push(
      'without .ftz',
      text(
        form.rounding,
        mods.filter((m) => m !== 'ftz'),
        form.type,
      ),
    );
  else push('.ftz', text(form.rounding, ['ftz', ...mods], form.type));
  const swapped = form.type.includes('bf16')
    ? form.type.replace('bf16', 'f16')
    : form.type.replace('f16', 'bf16');
  push(`.${swapped}`, text(form.rounding, mods, swapped));
  if (!isMixed(form.type) && !form.type.endsWith('x2'))
    push(
      `.f32.${form.type}`,
      text(
        form.rounding ?? 'rn',
        mods.filter((m) => m !== 'ftz'),
        `f32.${form.type}`,
      ),
    );
  if (isMixed(form.type))
    push(`.${form.type.slice(4)}`, text(form.rounding, mods, form.type.slice(4)));
  if (unfusedPlan(form).ok) out.push({ label: 'unfused (mul, then add)', variant: 'unfused' });
  return out;
}
