/**
 * What both reference models (slowfloat.ts, the results; trace-model.ts, the trace) read: the
 * value an operand's bits denote, the engine options they follow, and which operands a caller
 * marks as holding OOB-NaN.
 */
import type { Rational } from './rational.ts';
import { classOf, decode, isNegative, type RefFormat } from './ref-formats.ts';

/** A value as IEEE 754 arithmetic sees it: NaN, a signed infinity, or a signed exact number. */
export type Value =
  | { readonly kind: 'nan' }
  | { readonly kind: 'inf'; readonly negative: boolean }
  | { readonly kind: 'finite'; readonly q: Rational; readonly negative: boolean };

export function valueOf(bits: number, fmt: RefFormat): Value {
  const c = classOf(bits, fmt);
  if (c === 'qnan' || c === 'snan') return { kind: 'nan' };
  if (c === 'inf') return { kind: 'inf', negative: isNegative(bits, fmt) };
  return { kind: 'finite', q: decode(bits, fmt), negative: isNegative(bits, fmt) };
}

export interface ModelOptions {
  /**
   * When .ftz calls a result tiny: after rounding (IEEE 754 §7.5: rounded to the format's
   * precision with an unbounded exponent, it is below the smallest normal; the default) or
   * before (the exact value is).
   */
  readonly ftzTininess: 'after-rounding' | 'before-rounding';
  /** The 16-bit OOB-NaN pattern: .oob tests a and b for it (either sign); a marked lane holds it. */
  readonly oobNanBits: number;
  /** A matrix form's GPU target; absent: the engine's default (sm_90, decision mma-default-target). */
  readonly target?: string;
}

export const DEFAULT_MODEL_OPTIONS: ModelOptions = {
  ftzTininess: 'after-rounding',
  oobNanBits: 0x7ff7,
};

/** Operands (or single lanes of them) marked as holding OOB-NaN. */
export type OobMarks = Partial<Record<'a' | 'b' | 'c', boolean | readonly [boolean, boolean]>>;

export function isOobMarked(oob: OobMarks | undefined, name: 'a' | 'b' | 'c', lane: number) {
  const mark = oob?.[name];
  if (mark === undefined) return false;
  return typeof mark === 'boolean' ? mark : mark[lane] === true;
}

/**
 * Registers with the marked lanes holding `pattern`: what a mark means, written into the bits
 * (lane i of a packed register is bits 16i+15…16i; a one-lane register takes lane 0's mark).
 */
export function withOobMarks(
  registers: { readonly a: number; readonly b: number; readonly c: number },
  oob: OobMarks | undefined,
  pattern: number,
  packed: boolean,
): { a: number; b: number; c: number } {
  const out = { ...registers };
  for (const name of ['a', 'b', 'c'] as const) {
    if (!packed) {
      if (isOobMarked(oob, name, 0)) out[name] = pattern;
      continue;
    }
    for (const lane of [0, 1]) {
      if (!isOobMarked(oob, name, lane)) continue;
      const low = out[name] % 0x10000;
      const high = Math.floor(out[name] / 0x10000);
      out[name] = lane === 0 ? high * 0x10000 + pattern : pattern * 0x10000 + low;
    }
  }
  return out;
}
