/**
 * A typed number stored in a format (any of the twelve of src/catalog/formats.ts): rounded to
 * nearest, ties to the even pattern, by the one rounding routine (rounding.ts `roundToFormat` on
 * the exact rational), an overflow settled by nvidia-rules.ts `overflowResult`; and the shortest
 * decimal that reads back to a pattern.
 *
 * What a format cannot hold is refused with the reason, never stored as something else. Typing
 * a value is not converting one: no .satfinite or cvt rule is in effect, so a value keeps its
 * meaning or is refused.
 *   - Past MAX_NORM: a format with infinity stores the infinity of its sign (IEEE 754 §7.4 under
 *     round to nearest, as `overflowResult` gives it: 70000 in f16 is +inf); a format without
 *     infinity (e4m3, e3m2, e2m3, e2m1, ue8m0, ue4m3) refuses it (`beyond-range`: 500 in e4m3,
 *     whose largest value is 448) — ue8m0's NaN for an overflow (decision cvt-ue8m0) is what cvt
 *     gives, not what a typed number means. Rounding decides first: 464 in e4m3 is a tie that
 *     goes to 448.
 *   - `inf` where there is no infinity: refused (`no-infinity`); `nan` where there is no NaN
 *     (e3m2, e2m3, e2m1): refused (`no-nan`); `snan` where the one NaN is quiet (e4m3, ue8m0,
 *     ue4m3): refused (`no-signaling-nan`).
 *   - A negative value in an unsigned format (ue8m0, ue4m3), -0 included: refused (`unsigned`);
 *     `-nan` is the NaN (a NaN's sign is no value).
 *   - ue8m0 has no zero: 0 is refused (`no-zero`), and so is a value that rounds below its least
 *     value 2^-127 (`below-least`); from half of 2^-127 up, a value rounds to it (at half, a tie
 *     between the even pattern 0x00 and the zero ue8m0 lacks).
 * `nan` is the format's canonical NaN with the sign typed; `snan` the IEEE signaling NaN with
 * the lowest payload (0x7c01 in f16).
 */
import { bitLength, exactValueOfDyadic } from './exact.ts';
import {
  exactValueOfBits,
  formatHex,
  isNegative,
  isZeroBits,
  toDouble,
  valueOfBits,
  withSign,
  type Format,
  type FormatName,
} from './format.ts';
import {
  quoteText,
  readNumberText,
  textError,
  type TextError,
  type TextErrorCode,
  type TypedNumber,
} from './number-text.ts';
import { overflowResult } from './nvidia-rules.ts';
import { rationalMagnitude, roundToFormat } from './rounding.ts';
import type { RoundStep } from './steps.ts';
import type { ExactValue } from './value.ts';

/** A signed exact rational num / den, den > 0. */
export interface Fraction {
  readonly num: bigint;
  readonly den: bigint;
}

/** What a typed number became in a format: data for the page and the CLI to put in words. */
export interface StoredValue {
  /** The text as typed, trimmed. */
  readonly text: string;
  readonly format: FormatName;
  /** The stored pattern, of the format's value width (`formatHex` writes it). */
  readonly bits: bigint;
  /** The number the text names. */
  readonly typed: TypedNumber;
  /** The stored value is the typed number: nothing was rounded. */
  readonly exact: boolean;
  /**
   * How: `exact`; `rounded` to a nonzero finite neighbour; `overflow`, past MAX_NORM to the
   * infinity; `underflow`, a nonzero number rounded to a zero.
   */
  readonly outcome: 'exact' | 'rounded' | 'overflow' | 'underflow';
  /**
   * The rounding routine's step, where it ran (a finite nonzero number within reach): the
   * neighbours, the reason (`tie-to-even`, `overflow-threshold`, …) and the cut.
   */
  readonly rounding?: RoundStep;
  /** The stored value minus the typed one, where both are finite and they differ. */
  readonly error?: Fraction;
}

export type StoredValueResult =
  | { readonly ok: true; readonly value: StoredValue }
  | { readonly ok: false; readonly error: TextError };

/** A number text stored in a format (readNumberText, then storeNumber). */
export function readValueText(text: string, f: Format): StoredValueResult {
  const read = readNumberText(text);
  return read.ok ? storeNumber(read.number, f, text.trim()) : read;
}

/** The typed number `typed` (written `text`) stored in `f` by the rules above. */
export function storeNumber(typed: TypedNumber, f: Format, text: string): StoredValueResult {
  return store(typed, f, text, true);
}

/** `described`: with the stored value's error (shortestDecimal needs only the pattern). */
function store(typed: TypedNumber, f: Format, text: string, described: boolean): StoredValueResult {
  const refuse = (code: TextErrorCode, message: string): StoredValueResult => ({
    ok: false,
    error: textError(code, message),
  });
  const stored = (
    bits: bigint,
    outcome: StoredValue['outcome'],
    extra: Pick<StoredValue, 'rounding' | 'error'> = {},
  ): StoredValueResult => ({
    ok: true,
    value: { text, format: f.name, bits, typed, exact: outcome === 'exact', outcome, ...extra },
  });
  const { negative } = typed;
  if (negative && !f.signed && typed.kind !== 'nan' && typed.kind !== 'snan')
    return refuse(
      'unsigned',
      `${f.name} is unsigned: it has no negative values (its least value is ${leastText(f)})`,
    );

  switch (typed.kind) {
    case 'nan':
      if (f.canonicalNaN === null) return refuse('no-nan', `${f.name} has no NaN`);
      return stored(withSign(f.canonicalNaN, negative, f), 'exact');
    case 'snan':
      if (f.infBits === null)
        return refuse(
          f.canonicalNaN === null ? 'no-nan' : 'no-signaling-nan',
          f.canonicalNaN === null
            ? `${f.name} has no NaN`
            : `${f.name} has no signaling NaN: its one NaN (${formatHex(f.canonicalNaN, f)}) is quiet`,
        );
      return stored(withSign(f.infBits + 1n, negative, f), 'exact');
    case 'inf':
      if (f.infBits === null)
        return refuse(
          'no-infinity',
          `${f.name} has no infinity; its largest finite value is ${largestText(f)}`,
        );
      return stored(withSign(f.infBits, negative, f), 'exact');
    case 'beyond':
      // Far past every format: round to nearest goes away from zero.
      return overflow(f, negative, true, text, refuse, (bits) => stored(bits, 'overflow'));
    case 'below':
      if (!f.hasZero) return refuse('below-least', belowLeastMessage(text, f));
      return stored(withSign(0n, negative, f), 'underflow');
  }
  const { num, den } = typed;
  if (num === 0n) {
    if (!f.hasZero)
      return refuse(
        'no-zero',
        `${f.name} has no zero; its least value is ${leastText(f)} (${formatHex(0n, f)})`,
      );
    return stored(withSign(0n, negative, f), 'exact');
  }
  const r = roundToFormat(
    rationalMagnitude(negative, num, den, () => lazyExactValue(negative, num, den)),
    f,
    'rn',
  );
  if (r.overflow)
    return overflow(f, negative, r.awayFromZero, text, refuse, (bits) =>
      stored(bits, 'overflow', { rounding: r.step }),
    );
  if (r.bits === null) return refuse('below-least', belowLeastMessage(text, f));
  if (!r.inexact) return stored(r.bits, 'exact', { rounding: r.step });
  const zero = isZeroBits(r.bits, f);
  return stored(r.bits, zero ? 'underflow' : 'rounded', {
    rounding: r.step,
    ...(described ? { error: errorOf(r.bits, f, negative, num, den) } : {}),
  });
}

/**
 * Past MAX_NORM: what overflowResult gives (round to nearest goes away from zero: the infinity of
 * the value's sign), or refused where the format has no infinity.
 */
function overflow(
  f: Format,
  negative: boolean,
  awayFromZero: boolean,
  text: string,
  refuse: (code: TextErrorCode, message: string) => StoredValueResult,
  keep: (bits: bigint) => StoredValueResult,
): StoredValueResult {
  if (f.infBits === null)
    return refuse(
      'beyond-range',
      `${quoteText(text)} is past ${f.name}'s largest finite value ${negative && f.signed ? '-' : ''}${largestText(f)}, and ${f.name} has no infinity`,
    );
  return keep(overflowResult(f, negative, awayFromZero).bits);
}

function belowLeastMessage(text: string, f: Format): string {
  return `${quoteText(text)} rounds below ${f.name}'s least value ${leastText(f)} (${f.name} has no zero)`;
}

/** A format's largest finite value: every digit where that is short, else the shortest decimal. */
export function largestText(f: Format): string {
  const exact = exactValueOfBits(f.maxBits, f).decimal;
  return exact.length <= 12 ? exact : shortestDecimal(f.maxBits, f);
}

/** The least positive value, as a power of two where the format has no subnormals (ue8m0). */
function leastText(f: Format): string {
  return f.hasSubnormals ? shortestDecimal(1n, f) : `2^${f.emin}`;
}

/** stored − typed, exactly: m·2^e − (±num/den). */
function errorOf(bits: bigint, f: Format, negative: boolean, num: bigint, den: bigint): Fraction {
  const v = valueOfBits(bits, f);
  if (v.kind !== 'finite') throw new Error('errorOf: a finite pattern was expected');
  const { mant, exp } = v.x;
  const storedNum = (v.x.negative ? -mant : mant) * (exp >= 0 ? 1n << BigInt(exp) : 1n);
  const storedDen = exp < 0 ? 1n << BigInt(-exp) : 1n;
  const typedNum = negative ? -num : num;
  return reduce(storedNum * den - typedNum * storedDen, storedDen * den);
}

/** How many times 2 divides n (n ≠ 0): the trailing zero bits. */
function twosIn(n: bigint): number {
  const m = n < 0n ? -n : n;
  return bitLength(m & -m) - 1;
}

/** How many times 5 divides n (n ≠ 0), counted up to `cap`. */
function fivesIn(n: bigint, cap = Infinity): number {
  let k = 0;
  for (let m = n < 0n ? -n : n; k < cap && m % 5n === 0n; m /= 5n) k++;
  return k;
}

/** b for a power of five 5^b, from its bit length (checked: a one-off is corrected). */
function log5(power: bigint): number {
  const estimate = Math.round((bitLength(power) - 1) / Math.log2(5));
  for (const b of [estimate, estimate - 1, estimate + 1])
    if (b >= 0 && 5n ** BigInt(b) === power) return b;
  throw new Error(`log5: ${power} is not a power of five`);
}

/**
 * num / den in lowest terms, for den = 2^a·5^b — every denominator here is one: a decimal text's
 * 10^k, a hex float's 2^k, a pattern's 2^k — so only twos and fives can be shared.
 */
function reduce(num: bigint, den: bigint): Fraction {
  if (num === 0n) return { num, den: 1n };
  const twos = Math.min(twosIn(num), twosIn(den));
  const fives = fivesIn(den, fivesIn(num));
  const common = (1n << BigInt(twos)) * 5n ** BigInt(fives);
  return { num: num / common, den: den / common };
}

/**
 * The typed number as a rounding step shows it: every digit of its decimal expansion (a decimal
 * or hex float text always terminates); where it is a dyadic rational, its binary scientific
 * form and m × 2^e; else the reduced fraction for both (1/10 has no finite binary form).
 */
export function exactValueOfTyped(negative: boolean, num: bigint, den: bigint): ExactValue {
  const { num: n, den: d } = reduce(num, den);
  const twos = twosIn(d);
  if (d === 1n << BigInt(twos)) return exactValueOfDyadic({ negative, mant: n, exp: -twos });
  const sign = negative ? '-' : '';
  const fraction = `${sign}${n}/${d}`;
  return {
    kind: 'finite',
    negative,
    decimal: sign + terminatingDecimal(n, twos, log5(d >> BigInt(twos))),
    binary: fraction,
    rational: fraction,
  };
}

/**
 * exactValueOfTyped, worked out when first read: the rounding routine asks every value for its
 * description, and a typed number's runs to hundreds of digits (1e-300) that are read only where
 * a step is shown — not by shortestDecimal's trials. Plain enumerable properties to a reader,
 * JSON and structured cloning alike.
 */
function lazyExactValue(negative: boolean, num: bigint, den: bigint): ExactValue {
  let value: ExactValue | undefined;
  const full = () => (value ??= exactValueOfTyped(negative, num, den));
  return {
    kind: 'finite',
    negative,
    get decimal() {
      return full().decimal;
    },
    get binary() {
      return full().binary;
    },
    get rational() {
      return full().rational;
    },
  };
}

/** n / (2^a·5^b) written out: n·2^(k−a)·5^(k−b) over 10^k, k = max(a, b). */
function terminatingDecimal(n: bigint, a: number, b: number): string {
  const k = Math.max(a, b);
  const digits = (n * (1n << BigInt(k - a)) * 5n ** BigInt(k - b)).toString().padStart(k + 1, '0');
  const int = digits.slice(0, digits.length - k);
  let end = digits.length;
  while (end > int.length && digits[end - 1] === '0') end--;
  return end > int.length ? `${int}.${digits.slice(int.length, end)}` : int;
}

/**
 * The shortest decimal that reads back (readValueText) to the same pattern, in the notation
 * `toPrecision` chooses, without a trailing `.0` or an exponent's `+`: `0.1` for f32's
 * 0x3dcccccd, `4.5e2` for e4m3's 448 (450 reads back as 448). `NaN`, `inf`, `-inf`, `-0` by name.
 * Every value of every format is a double, so the digits come from the double; at most 17.
 */
export function shortestDecimal(bits: bigint, f: Format): string {
  if (bits < 0n || bits >> BigInt(f.width) !== 0n)
    throw new RangeError(`${bits} is not a pattern of ${f.name} (${f.width} bits)`);
  const v = toDouble(bits, f);
  if (Number.isNaN(v)) return 'NaN';
  if (!Number.isFinite(v)) return v > 0 ? 'inf' : '-inf';
  if (v === 0) return isNegative(bits, f) ? '-0' : '0';
  for (let digits = 1; digits <= 17; digits++) {
    const candidate = normalizeDecimal(v.toPrecision(digits));
    const read = readNumberText(candidate);
    const back = read.ok && store(read.number, f, candidate, false);
    if (back && back.ok && back.value.bits === bits) return candidate;
  }
  // Unreachable: 17 significant digits name the double, which is the pattern's value exactly.
  throw new Error(`shortestDecimal: 17 digits of ${v} do not read back to ${formatHex(bits, f)}`);
}

function normalizeDecimal(s: string): string {
  // toPrecision gives "1.0e+5" or "0.00012"; drop a trailing ".0" and the '+' of exponents.
  const [mant, exp] = s.split('e');
  const m = mant!.includes('.') ? mant!.replace(/0+$/, '').replace(/\.$/, '') : mant!;
  return exp ? `${m}e${exp.replace('+', '')}` : m;
}
