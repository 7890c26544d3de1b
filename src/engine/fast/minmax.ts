/**
 * The fast path of min and max: semantics/minmax.ts minMaxRule, line by line, on patterns held as
 * numbers (after the pipeline's .ftz on the inputs, nvidia-rules flushSubnormal on numbers):
 *
 *   if (.xorsign) { xorsign = getSignBit(a) ^ getSignBit(b); if (.abs) { a = |a|; b = |b|; } }
 *   if (isNaN(a) && isNaN(b))              d = NaN;
 *   if (.NaN && (isNaN(a) || isNaN(b)))    d = NaN;
 *   else if (isNaN(a))                     d = b;
 *   else if (isNaN(b))                     d = a;
 *   else                                   d = (a < b) ? a : b;      // max: (a > b)
 *   if (.xorsign && !isNaN(d)) setSignBit(d, xorsign);
 *
 * a < b compares the values (numeric-format.ts valueTable, format.ts toDouble on numbers), -0.0
 * below +0.0, as minMaxRule's lessThan does. minmax.test.ts checks minMaxWord
 * against minMaxRule on every pair of a set of patterns that holds every class of each format
 * with both signs, every order between them and equal values; tests/fast-vs-pipeline.test.ts
 * checks every min/max form against the pipeline.
 */
import type { Form } from '../../catalog/instruction.ts';
import type { EngineOptions } from '../options.ts';
import { isNaNWord, NUMERIC_FORMATS, valueTable, type NumericFormat } from './numeric-format.ts';
import { canonicalNaN, flushSubnormal } from './numeric-rules.ts';
import type { OperationPath } from './path.ts';

/** The modifiers min and max read, as 0 or 1 (the JIT tests a small integer). */
export interface MinMaxWordFlags {
  readonly min: 0 | 1;
  readonly nan: 0 | 1;
  readonly xorsign: 0 | 1;
}

/** a < b on non-NaN patterns of f, -0.0 < +0.0. */
function less(a: number, b: number, values: Float64Array, f: NumericFormat): boolean {
  const x = values[a]!;
  const y = values[b]!;
  if (x === 0 && y === 0) return a >= f.signMask && b < f.signMask;
  return x < y;
}

/** minMaxRule's result for patterns a and b of a 16-bit format (values: its valueTable). */
export function minMaxWord(
  flags: MinMaxWordFlags,
  aIn: number,
  bIn: number,
  f: NumericFormat,
  values: Float64Array,
): number {
  let a = aIn;
  let b = bIn;
  let sign = 0;
  if (flags.xorsign !== 0) {
    sign = a >= f.signMask !== b >= f.signMask ? 1 : 0;
    if (a >= f.signMask) a -= f.signMask;
    if (b >= f.signMask) b -= f.signMask;
  }
  const aNaN = isNaNWord(a, f);
  const bNaN = isNaNWord(b, f);
  let chosen: number;
  if (aNaN && bNaN) chosen = canonicalNaN(f);
  else if (flags.nan !== 0 && (aNaN || bNaN)) chosen = canonicalNaN(f);
  else if (aNaN) chosen = b;
  else if (bNaN) chosen = a;
  else if (flags.min !== 0) chosen = less(a, b, values, f) ? a : b;
  else chosen = less(b, a, values, f) ? a : b;
  if (flags.xorsign === 0 || isNaNWord(chosen, f)) return chosen;
  const magnitude = chosen >= f.signMask ? chosen - f.signMask : chosen;
  return sign === 1 ? magnitude + f.signMask : magnitude;
}

/** min and max of one form. */
export function minMaxPath(form: Form, _options: EngineOptions): OperationPath {
  const f = NUMERIC_FORMATS[form.elements[0]!.dest.format as 'f16' | 'bf16'];
  const values = valueTable(f);
  const flags: MinMaxWordFlags = {
    min: form.operation === 'min' ? 1 : 0,
    nan: form.modifiers.includes('NaN') ? 1 : 0,
    xorsign: form.modifiers.includes('xorsign.abs') ? 1 : 0,
  };
  const ftz = form.modifiers.includes('ftz');
  const element = ftz
    ? (a: number, b: number) =>
        minMaxWord(flags, flushSubnormal(a, f), flushSubnormal(b, f), f, values)
    : (a: number, b: number) => minMaxWord(flags, a, b, f, values);
  if (form.elements.length === 1)
    return {
      words: (a, b) => element(a & 0xffff, b & 0xffff),
      batch: (registers, out, count) => {
        const a = registers.a!;
        const b = registers.b!;
        for (let i = 0; i < count; i++) out[i] = element(a[i]! & 0xffff, b[i]! & 0xffff);
      },
    };
  const words = (a: number, b: number) =>
    (element(a & 0xffff, b & 0xffff) | (element(a >>> 16, b >>> 16) << 16)) >>> 0;
  return {
    words,
    batch: (registers, out, count) => {
      const a = registers.a!;
      const b = registers.b!;
      for (let i = 0; i < count; i++) out[i] = words(a[i]!, b[i]!);
    },
  };
}
