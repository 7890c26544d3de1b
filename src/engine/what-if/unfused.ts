/**
 * The unfused variant of an fma: the PTX sequence that rounds the product first, then adds.
 *
 *   half:   mul{.rnd}{.ftz}.T t, a, b;     add{.rnd}{.ftz}{.sat}.T d, t, c;
 *   mixed:  cvt.f32.T ta, a;  cvt.f32.T tb, b;  mul{.rnd}.f32 t, ta, tb;  add{.rnd}{.sat}.f32 d, t, c;
 *
 * The half sequence is two catalog forms, evaluated as the engine evaluates any form. The mixed
 * one is single-precision arithmetic, which the catalog does not hold; it is the same rules
 * (exactResult: IEEE special values, one rounding) in binary32, the conversions exact. Where no
 * such sequence exists — .relu and .oob belong to the fma itself, and PTX has no bf16 mul/add
 * rounding other than .rn — the variant is refused with the reason.
 */
import { findForm, isMixed, laneFormat, type Form } from '../../catalog/forms.ts';
import { evaluate, resolveForm, type EvalInput } from '../evaluate.ts';
import { FORMATS } from '../formats.ts';
import { has } from '../lane.ts';
import type { EngineOptions } from '../options.ts';
import { exactResult, multiplyValues, type ExactOutcome } from '../ops/arithmetic.ts';
import { saturate } from '../specialize.ts';
import type { EvalResult } from '../trace.ts';
import { valueOf } from '../values.ts';

export type UnfusedPlan =
  | {
      readonly ok: true;
      /** The PTX lines the variant stands for. */
      readonly lines: readonly string[];
      /** Half forms: the mul and add forms of the catalog. */
      readonly mul?: Form;
      readonly add?: Form;
    }
  | { readonly ok: false; readonly reason: string };

/** What an fma form's unfused sequence is, or why it has none. */
export function unfusedPlan(formOrText: Form | string): UnfusedPlan {
  const form = resolveForm(formOrText);
  if (form.opcode !== 'fma')
    return { ok: false, reason: `${form.text} is not an fma: only an fma has an unfused variant` };
  if (has(form, 'oob'))
    return {
      ok: false,
      reason: `${form.text}: .oob has no unfused variant (the OOB-NaN test belongs to the fma; mul and add have no .oob)`,
    };
  if (has(form, 'relu'))
    return {
      ok: false,
      reason: `${form.text}: .relu has no unfused variant (PTX has no mul or add with .relu for .${laneFormat(form.type)})`,
    };
  const rnd = `.${form.rounding ?? 'rn'}`;
  const sat = has(form, 'sat') ? '.sat' : '';
  if (isMixed(form.type)) {
    const t = laneFormat(form.type);
    return {
      ok: true,
      lines: [
        `cvt.f32.${t} ta, a;`,
        `cvt.f32.${t} tb, b;`,
        `mul${rnd}.f32 t, ta, tb;`,
        `add${rnd}${sat}.f32 d, t, c;`,
      ],
    };
  }
  const ftz = has(form, 'ftz') ? '.ftz' : '';
  const mulText = `mul${rnd}${ftz}.${form.type}`;
  const addText = `add${rnd}${ftz}${sat}.${form.type}`;
  const mul = findForm(mulText);
  const add = findForm(addText);
  if (!mul || !add)
    return {
      ok: false,
      reason: `${form.text} has no unfused variant: PTX has no ${!mul ? mulText : addText}`,
    };
  return { ok: true, lines: [`${mulText} t, a, b;`, `${addText} d, t, c;`], mul, add };
}

export interface UnfusedEvaluation {
  readonly lines: readonly string[];
  /** The destination register (the same width and format as the fma's). */
  readonly d: number;
  /** The rounded product t, as its register holds it (f32 for the mixed forms). */
  readonly product: { readonly bits: number; readonly format: 'f16' | 'bf16' | 'f32' };
  /** Half forms: the traced evaluations of the two instructions, to show on demand. */
  readonly traces?: { readonly mul: EvalResult; readonly add: EvalResult };
  /** Mixed forms: how the IEEE rules decided the binary32 product and sum. */
  readonly outcomes?: { readonly product: ExactOutcome; readonly sum: ExactOutcome };
}

/** The unfused sequence on the fma's operands, or the reason there is none. */
export function evaluateUnfused(
  formOrText: Form | string,
  input: EvalInput,
  options?: Partial<EngineOptions>,
): UnfusedEvaluation | { readonly ok: false; readonly reason: string } {
  const form = resolveForm(formOrText);
  const plan = unfusedPlan(form);
  if (!plan.ok) return plan;
  if (plan.mul && plan.add) {
    const mul = evaluate(plan.mul, { a: input.a, b: input.b ?? 0 }, options);
    const add = evaluate(plan.add, { a: mul.d, b: input.c ?? 0 }, options);
    return {
      lines: plan.lines,
      d: add.d,
      product: { bits: mul.d, format: laneFormat(form.type) },
      traces: { mul, add },
    };
  }
  // Mixed: a and b convert exactly to f32; the product rounds once, the sum once more.
  const src = FORMATS[laneFormat(form.type)];
  const f32 = FORMATS.f32;
  const mode = form.rounding ?? 'rn';
  const a = valueOf(input.a, src);
  const b = valueOf(input.b ?? 0, src);
  const product = exactResult(f32, mode, multiplyValues(a, b), null, [a, b]);
  const tv = valueOf(product.bits, f32);
  const cv = valueOf(input.c ?? 0, f32);
  const sum = exactResult(f32, mode, tv, cv, [tv, cv]);
  const d = has(form, 'sat') ? saturate(sum.bits, f32) : sum.bits;
  return {
    lines: plan.lines,
    d,
    product: { bits: product.bits, format: 'f32' },
    outcomes: { product, sum },
  };
}
