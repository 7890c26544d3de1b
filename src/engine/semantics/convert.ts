/**
 * cvt between floating-point formats — PTX ISA 9.7.9.21.
 *
 *   if (inst type is .f16x2 or .bf16x2)            { d[31:16] = convert(a);  d[15:0] = convert(b); }
 *   else if (dst is .e5m2x2, .e4m3x2 or .ue8m0x2)   { d[15:8]  = convert(a);  d[7:0]  = convert(b); }
 *   else if (dst is .e2m1x2)                        { d[7:4]   = convert(a);  d[3:0]  = convert(b); }
 *   else if (dst is .e2m3x2 or .e3m2x2)             { d[15:14] = 0; d[13:8] = convert(a);
 *                                                     d[7:6]   = 0; d[5:0]  = convert(b); }
 *   else if (dst is .e2m1x4)                        { d[15:12] = convert(a); … d[3:0] = convert(f); }
 *   else if (dst is .e4m3x4 or .e5m2x4)             { d[31:24] = convert(a); … d[7:0] = convert(f); }
 *   else if (dst is .e2m3x4 or .e3m2x4)             { d[31:30] = 0; d[29:24] = convert(a); … }
 *   else                                            { d = convert(a); }
 *
 * (The form's elements hold that layout; packed sources are read the same way, the upper bits of
 * a first.) convert(x), per element, after the pipeline's .ftz on an .f32 input:
 *
 *   x is NaN                 → NaN: the canonical NaN, or x's sign and payload, by source,
 *                              destination and modifiers as measured (decision cvt-nan,
 *                              nvidia-rules cvtNaNKind); +MAX_NORM under .satfinite where
 *                              the destination has no NaN
 *   x is ±inf                → ±inf (ue8m0: NaN; e4m3 and the 6-/4-bit formats have none and
 *                              always take .satfinite)
 *   x is ±0                  → ±0 (ue8m0 has no zero: 2^-127)
 *   ue8m0 and x < 0          → |x| (it has no sign)
 *   otherwise                → the exact value x, which the pipeline rounds once to the
 *                              destination in the form's mode (.rn .rz .rm .rp .rna .rs, or to
 *                              an integer with .rni .rzi .rmi .rpi); past MAX_NORM: ±inf or
 *                              ±MAX_NORM by the rounding direction (ue8m0: NaN)
 *
 * then the pipeline's .ftz on an .f32 result, .satfinite, .sat and .relu, in that order
 * (decision cvt-modifier-order).
 */
import { isZero } from '../exact.ts';
import { bitsView, valueOfBits, withSign } from '../format.ts';
import {
  cvtFactsOf,
  cvtNaNKind,
  cvtNaNResult,
  leastValueForZero,
  overflowResult,
} from '../nvidia-rules.ts';
import type { Value } from '../value.ts';
import type { ElementContext, Input, Outcome } from './context.ts';

const RULES = {
  nan: 'NaN input: NaN in the destination format',
  inf: 'an infinite input is infinite in the destination format',
  zero: 'a zero converts to a zero of the same sign',
  exact: 'convert(a): the exact value of the source',
  overflow: 'IEEE 754 §7.4: overflow gives ∞ or the largest finite value, by rounding direction',
  unsigned: 'ue8m0: an 8-bit unsigned format, 2^(e-127), no zero; NaN 0xff',
} as const;

export function convert(ctx: ElementContext, inputs: readonly Input[]): Outcome {
  const { dest } = ctx;
  const source = inputs[0]!;
  let v: Value = valueOfBits(source.bits, source.format);

  // ue8m0 has no sign: a negative value converts as its magnitude (decision cvt-ue8m0).
  if (!dest.signed && v.kind !== 'nan' && (v.kind === 'inf' ? v.negative : v.x.negative)) {
    v =
      v.kind === 'inf'
        ? { kind: 'inf', negative: false }
        : { kind: 'finite', x: { ...v.x, negative: false } };
    ctx.record({ kind: 'unsigned', what: 'drop-sign', result: null }, RULES.unsigned, 'cvt-ue8m0');
  }

  if (v.kind === 'nan') {
    const bits =
      dest.canonicalNaN === null
        ? null
        : cvtNaNResult(
            source.bits,
            source.format,
            dest,
            cvtNaNKind(cvtFactsOf(ctx.form, ctx.element)),
          );
    ctx.record(
      { kind: 'special', case: 'nan-operand', result: bits === null ? null : bitsView(bits, dest) },
      RULES.nan,
      'cvt-nan',
    );
    return { kind: 'value', value: bits === null ? { nan: true } : { bits } };
  }

  if (v.kind === 'inf') {
    if (dest.infBits !== null) {
      const bits = withSign(dest.infBits, v.negative, dest);
      ctx.record({ kind: 'special', case: 'infinity', result: bitsView(bits, dest) }, RULES.inf);
      return { kind: 'value', value: { bits } };
    }
    if (ctx.has('satfinite')) {
      ctx.record({ kind: 'special', case: 'infinity', result: null }, RULES.inf);
      return { kind: 'value', value: { beyond: true, negative: v.negative, infinite: true } };
    }
    // ue8m0 (the one destination without infinity that may go without .satfinite): NaN.
    const { bits, to } = overflowResult(dest, v.negative, true);
    ctx.record(
      { kind: 'overflow', mode: ctx.form.rounding ?? 'rn', to, result: bitsView(bits, dest) },
      RULES.overflow,
      'cvt-ue8m0',
    );
    return { kind: 'value', value: { bits } };
  }

  if (isZero(v.x)) {
    if (!dest.hasZero) {
      const bits = leastValueForZero(dest);
      ctx.record(
        { kind: 'unsigned', what: 'least-value', result: bitsView(bits, dest) },
        RULES.unsigned,
        'cvt-ue8m0',
      );
      return { kind: 'value', value: { bits } };
    }
    const bits = withSign(0n, v.x.negative, dest);
    ctx.record({ kind: 'special', case: 'zero', result: bitsView(bits, dest) }, RULES.zero);
    return { kind: 'value', value: { bits } };
  }

  return { kind: 'exact', x: v.x, expression: `convert(${source.name})`, rule: RULES.exact };
}
