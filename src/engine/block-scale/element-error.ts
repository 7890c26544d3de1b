/**
 * What a quantized block loses: each element's decoded value against its input (absolute,
 * relative, in ulps of the element format; decision block-error-ulps) and the block's summary
 * (largest error, root mean square, the elements saturated, flushed to zero or NaN). Errors are
 * exact dyadic rationals; the ratios (relative error, ulps, RMS) are figures for people and
 * are given as the nearest doubles.
 */
import { doubleOfDyadic } from '../double.ts';
import {
  add,
  bitLength,
  exactValueOfDyadic,
  ilog2,
  isZero,
  multiply,
  negate,
  type Dyadic,
} from '../exact.ts';
import { FORMATS, type FormatName } from '../format.ts';
import type { ExactValue } from '../value.ts';

export interface ElementError {
  /** decoded − input, exact. */
  readonly absolute: ExactValue;
  /** The same, as the nearest double. */
  readonly absoluteNumber: number;
  /** |decoded − input| / |input|; null for a zero input. */
  readonly relative: number | null;
  /** (decoded − input) in ulps of the element format at the stored element, times the factor. */
  readonly ulps: number | null;
}

export interface BlockErrorSummary {
  /** The largest |decoded − input| over the block, and the first element that has it. */
  readonly maxAbsolute: {
    readonly value: ExactValue;
    readonly number: number;
    readonly index: number;
  };
  /** sqrt(mean((decoded − input)²)) over the block's elements. */
  readonly rms: number;
  /** The largest relative error; null when every input is zero. */
  readonly maxRelative: number | null;
  /** The largest |error| in ulps; null when no element has one. */
  readonly maxUlps: number | null;
  /** Elements that .satfinite clamped to ±MAX_NORM. */
  readonly saturated: readonly number[];
  /** Elements whose nonzero input was stored as zero. */
  readonly flushedToZero: readonly number[];
  /** Elements stored as NaN (their errors are left out of the figures above). */
  readonly nan: readonly number[];
}

/** The nearest double to a / b (b nonzero): 64 quotient bits, then BigInt → Number. */
export function quotientNumber(a: Dyadic, b: Dyadic): number {
  if (isZero(a)) return 0;
  const k = 64 - (bitLength(a.mant) - bitLength(b.mant));
  const q = k >= 0 ? (a.mant << BigInt(k)) / b.mant : a.mant / (b.mant << BigInt(-k));
  const e = a.exp - b.exp - k;
  // Two steps, so that neither power of two leaves the double range on its own.
  const half = Math.trunc(e / 2);
  const magnitude = Number(q) * 2 ** half * 2 ** (e - half);
  return a.negative !== b.negative ? -magnitude : magnitude;
}

const abs = (x: Dyadic): Dyadic => ({ ...x, negative: false });

/** -1, 0, 1 as |x| <, =, > |y|. */
function compareMagnitude(x: Dyadic, y: Dyadic): -1 | 0 | 1 {
  const d = add(abs(x), negate(abs(y)));
  return isZero(d) ? 0 : d.negative ? -1 : 1;
}

/** One ulp of the element format at a finite value: 2^(max(e, emin) − manBits). */
function ulpOf(x: Dyadic, format: FormatName): Dyadic {
  const f = FORMATS[format];
  const e = isZero(x) ? f.emin : Math.max(ilog2(x), f.emin);
  return { negative: false, mant: 1n, exp: e - f.manBits };
}

/** The error of one element: decoded = stored × factor against the input. */
export function elementError(
  input: Dyadic,
  stored: Dyadic,
  factor: Dyadic,
  format: FormatName,
): { decoded: Dyadic; error: ElementError; difference: Dyadic } {
  const decoded = multiply(stored, factor);
  const raw = add(decoded, negate(input));
  // An exact zero error is +0, whatever the signs of the zeros it came from.
  const difference = isZero(raw) ? { negative: false, mant: 0n, exp: 0 } : raw;
  const unit = multiply(ulpOf(stored, format), factor);
  return {
    decoded,
    difference,
    error: {
      absolute: exactValueOfDyadic(difference),
      absoluteNumber: doubleOfDyadic(difference),
      relative: isZero(input) ? null : Math.abs(quotientNumber(difference, input)),
      ulps: isZero(unit) ? null : quotientNumber(difference, unit),
    },
  };
}

export interface SummaryInput {
  readonly input: Dyadic;
  /** decoded − input; null for an element stored as NaN. */
  readonly difference: Dyadic | null;
  readonly error: ElementError | null;
  readonly saturated: boolean;
  readonly flushedToZero: boolean;
}

export function summarize(elements: readonly SummaryInput[]): BlockErrorSummary {
  let maxIndex = -1;
  let max: Dyadic = { negative: false, mant: 0n, exp: 0 };
  let sumOfSquares: Dyadic = { negative: false, mant: 0n, exp: 0 };
  let counted = 0;
  let maxRelative: number | null = null;
  let maxUlps: number | null = null;
  const nan: number[] = [];
  elements.forEach((e, i) => {
    if (e.difference === null || e.error === null) {
      nan.push(i);
      return;
    }
    counted++;
    if (maxIndex < 0 || compareMagnitude(e.difference, max) > 0) {
      max = abs(e.difference);
      maxIndex = i;
    }
    sumOfSquares = add(sumOfSquares, multiply(e.difference, e.difference));
    if (e.error.relative !== null) maxRelative = Math.max(maxRelative ?? 0, e.error.relative);
    if (e.error.ulps !== null) maxUlps = Math.max(maxUlps ?? 0, Math.abs(e.error.ulps));
  });
  return {
    maxAbsolute: {
      value: exactValueOfDyadic(max),
      number: doubleOfDyadic(max),
      index: Math.max(maxIndex, 0),
    },
    rms: counted === 0 ? 0 : Math.sqrt(doubleOfDyadic(sumOfSquares) / counted),
    maxRelative,
    maxUlps,
    saturated: elements.flatMap((e, i) => (e.saturated ? [i] : [])),
    flushedToZero: elements.flatMap((e, i) => (e.flushedToZero ? [i] : [])),
    nan,
  };
}
