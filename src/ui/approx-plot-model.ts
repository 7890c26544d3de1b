import type { FormatName } from '../catalog/formats.ts';
import { powerOfTwoText } from '../engine/class-words.ts';
import { FORMATS, hexOf, nextUp, toDouble, type Format } from '../engine/format.ts';

/**
 * Pure helpers behind the error plot: the x axis puts every finite input in value order (from
 * −max finite through −0, +0 to +max finite), one slot per representable value. Spacing is then
 * logarithmic in the way the format itself is, so tanh's busy region near 0 and ex2's whole
 * range get room, and each pixel column holds a run of neighbouring inputs.
 */
export interface ValueOrder {
  /** Number of finite inputs (both zeros included). */
  readonly count: number;
  bitsAt(rank: number): number;
  /** Rank of a finite input, or null for infinities and NaNs. */
  rankOf(bits: number): number | null;
}

export function finiteValueOrder(f: Format): ValueOrder {
  const maxMagnitude = Number(f.maxBits); // the largest finite magnitude's pattern
  const signMask = Number(f.signMask);
  const negatives = maxMagnitude + 1; // −max … −0
  return {
    count: 2 * negatives,
    bitsAt: (rank) =>
      rank < negatives ? (signMask | (maxMagnitude - rank)) >>> 0 : rank - negatives,
    rankOf: (bits) => {
      const magnitude = bits & (signMask - 1);
      if (magnitude > maxMagnitude) return null;
      return bits & signMask ? maxMagnitude - magnitude : negatives + magnitude;
    },
  };
}

/** The ranks (value-order positions) of the inputs that pixel column `c` of `width` shows. */
export function columnRanks(c: number, width: number, view: RankRange): RankRange {
  const span = view.to - view.from;
  const from = view.from + Math.floor((c * span) / width);
  return { from, to: Math.max(from + 1, view.from + Math.floor(((c + 1) * span) / width)) };
}

/** One pixel column of the plot: its inputs' largest error ratio and which input had it. */
export interface Column {
  readonly worst: number;
  readonly worstInput: number;
  /** No input of the column is scored, and some are unscored (a tiny exact value). */
  readonly unscored: boolean;
}

/**
 * Worst error ratio per column; NaN for a column with no plotted input (all results or exact
 * values non-finite). `ratio` is indexed by input bits.
 */
export function columnsOf(
  ratio: ArrayLike<number>,
  order: ValueOrder,
  width: number,
  view: RankRange = { from: 0, to: order.count },
  unscored?: ArrayLike<number>,
): Column[] {
  const columns: Column[] = [];
  for (let c = 0; c < width; c++) {
    const { from, to } = columnRanks(c, width, view);
    let worst = NaN;
    let worstInput = order.bitsAt(from);
    let anyUnscored = false;
    for (let r = from; r < to; r++) {
      const bits = order.bitsAt(r);
      const v = ratio[bits]!;
      if (!(v <= worst) && !Number.isNaN(v)) {
        worst = v;
        worstInput = bits;
      }
      if (unscored?.[bits]) anyUnscored = true;
    }
    columns.push({ worst, worstInput, unscored: Number.isNaN(worst) && anyUnscored });
  }
  return columns;
}

const LOG_FLOOR = -6; // ratios below 2^-6 of the bound sit on the bottom edge
const VISIBLE_RATIO = 2 ** LOG_FLOOR;

/** A stretch of the value order: ranks `from` (inclusive) to `to` (exclusive). */
export interface RankRange {
  readonly from: number;
  readonly to: number;
}

/**
 * The stretch of inputs whose error shows on the plot (at least 2^-6 of the bound: tanh is exact
 * once it saturates to ±1 and nearly exact near 0, ex2 overflows or underflows outside it), with
 * a margin, so the plot can zoom to where the news is.
 */
export function visibleErrorRange(ratio: ArrayLike<number>, order: ValueOrder): RankRange {
  let first = -1;
  let last = -1;
  for (let r = 0; r < order.count; r++) {
    if (ratio[order.bitsAt(r)]! >= VISIBLE_RATIO) {
      if (first < 0) first = r;
      last = r;
    }
  }
  if (first < 0) return { from: 0, to: order.count };
  const margin = Math.ceil((last - first + 1) * 0.04);
  return { from: Math.max(0, first - margin), to: Math.min(order.count, last + 1 + margin) };
}

export interface SweepSummary {
  /** Inputs whose model result and exact value are both finite and that are scored. */
  readonly plotted: number;
  readonly withinBound: number;
  /** Ratio 1 means an error exactly at the bound; it counts as within. */
  readonly overBound: number;
  /** Inputs whose exact value is below the smallest normal, where a relative bound is not scored. */
  readonly unscored: number;
}

export function summarize(ratio: ArrayLike<number>, unscored?: ArrayLike<number>): SweepSummary {
  let plotted = 0;
  let withinBound = 0;
  let notScored = 0;
  for (let i = 0; i < ratio.length; i++) {
    if (unscored?.[i]) notScored++;
    const v = ratio[i]!;
    if (Number.isNaN(v)) continue;
    plotted++;
    if (v <= 1) withinBound++;
  }
  return { plotted, withinBound, overBound: plotted - withinBound, unscored: notScored };
}

/**
 * The y axis: linear in units of the bound while every error is near it, otherwise log2 so
 * outliers hundreds of times the bound do not flatten the rest.
 */
export interface YScale {
  readonly kind: 'linear' | 'log2';
  readonly min: number;
  readonly max: number;
  /** Position 0 (bottom) … 1 (top) of a ratio. */
  position(ratio: number): number;
  readonly ticks: readonly number[];
}

export function yScaleFor(worst: number): YScale {
  if (!(worst > 1.5)) {
    const max = 1.25;
    return {
      kind: 'linear',
      min: 0,
      max,
      position: (r) => Math.min(1, Math.max(0, r / max)),
      ticks: [0, 0.25, 0.5, 0.75, 1],
    };
  }
  const top = Math.ceil(Math.log2(worst)) + 0.5;
  const span = top - LOG_FLOOR;
  const step = Math.max(1, Math.ceil(span / 8));
  const ticks: number[] = [];
  for (let e = LOG_FLOOR; e <= top; e += step) ticks.push(2 ** e);
  if (!ticks.includes(1)) ticks.push(1);
  return {
    kind: 'log2',
    min: 2 ** LOG_FLOOR,
    max: 2 ** top,
    position: (r) => (r <= 0 ? 0 : Math.min(1, Math.max(0, (Math.log2(r) - LOG_FLOOR) / span))),
    ticks: ticks.sort((a, b) => a - b),
  };
}

/**
 * Inputs worth labelling on the x axis, most important first (lower priority number): zero and
 * ±1, ±largest finite, ±smallest normal, then ±powers of two (every 4th before every 2nd before
 * the rest). The plot drops labels that would overlap, so coarse ones survive when zoomed out.
 */
export function xTicks(format: FormatName): { bits: number; label: string; priority: number }[] {
  const f = FORMATS[format];
  const maxBits = Number(f.maxBits);
  const signMask = Number(f.signMask);
  const ticks: { bits: number; priority: number }[] = [
    { bits: 0, priority: 0 },
    { bits: maxBits, priority: 1 },
    { bits: 1 << f.manBits, priority: 2 },
  ];
  for (let k = f.emin; k <= f.emax; k++) {
    const bits = (k + f.bias) << f.manBits;
    ticks.push({ bits, priority: k === 0 ? 0 : k % 4 === 0 ? 3 : k % 2 === 0 ? 4 : 5 });
  }
  return ticks
    .flatMap((t) => (t.bits === 0 ? [t] : [t, { ...t, bits: (t.bits | signMask) >>> 0 }]))
    .map((t) => ({ ...t, label: tickLabel(toDouble(BigInt(t.bits), f), t.bits === maxBits) }))
    .sort((a, b) => a.priority - b.priority);
}

/** Powers of two far from 1 read best as 2ᵏ (2⁻⁸, not 0.0039063); the largest finite stays decimal. */
function tickLabel(v: number, isMax: boolean): string {
  const k = Math.log2(Math.abs(v));
  if (isMax || v === 0 || !Number.isInteger(k) || Math.abs(k) < 5) return shortNumber(v);
  return (v < 0 ? '−' : '') + powerOfTwoLabel(k);
}

/** "2⁻³" for 2^-3: canvas text has no <sup>. */
export function powerOfTwoLabel(exponent: number): string {
  return powerOfTwoText(exponent);
}

/** A compact axis label: "0", "−1", "6.1e−5", "65504", "3.4e38". */
export function shortNumber(v: number): string {
  if (v === 0) return '0';
  const abs = Math.abs(v);
  const text =
    abs >= 1e-3 && abs < 1e5
      ? String(Number(abs.toPrecision(5)))
      : abs.toExponential(1).replace('e+', 'e');
  return (v < 0 ? '−' : '') + text.replace('-', '−');
}

/** The allowed set of an approx step: `count` patterns from `lowest` (hex) up in value order. */
export function valuesBetween(lowest: string, count: number, format: FormatName): string[] {
  if (count <= 0) return [];
  const f = FORMATS[format];
  const values = [lowest];
  for (let bits = BigInt(lowest); values.length < count;) {
    bits = nextUp(bits, f);
    values.push(hexOf(bits, f.width));
  }
  return values;
}

/**
 * Whether a result (hex) is in an approx step's allowed set: an interval of the value order from
 * `lowest` to `highest` (none when `count` is 0); a NaN never is.
 */
export function inAllowedSet(
  bits: string,
  allowed: { readonly lowest: string; readonly highest: string; readonly count: number },
  format: FormatName,
): boolean {
  const f = FORMATS[format];
  const v = (hex: string) => toDouble(BigInt(hex), f);
  return allowed.count > 0 && v(allowed.lowest) <= v(bits) && v(bits) <= v(allowed.highest);
}

/**
 * Where the plot's column cursor goes on a key (arrows: one column, with Shift ten; Home and End:
 * the ends), clamped to [0, last]; null when the key does not move it. No cursor yet counts as 0.
 */
export function cursorAfterKey(
  key: string,
  shift: boolean,
  at: number | null,
  last: number,
): number | null {
  const now = at ?? 0;
  const step = shift ? 10 : 1;
  const moves: Record<string, number> = {
    ArrowLeft: now - step,
    ArrowRight: now + step,
    Home: 0,
    End: last,
  };
  const to = moves[key];
  return to === undefined ? null : Math.max(0, Math.min(last, to));
}

/** The inputs whose plotted error exceeds the bound, in value order. */
export function inputsOverBound(ratio: ArrayLike<number>, order: ValueOrder): number[] {
  const over: number[] = [];
  for (let r = 0; r < order.count; r++) {
    const bits = order.bitsAt(r);
    if (ratio[bits]! > 1) over.push(bits);
  }
  return over;
}
