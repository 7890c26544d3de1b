/**
 * One style for numbers people read, in every sentence of src/present (and the page and the CLI
 * through it):
 *
 *   - the exact decimal where it has at most 17 significant digits (every value of every format
 *     up to .f64 is told apart by 17), else its first 17 digits, cut, and "…": 0.0999755859375,
 *     0.10000000149011612…
 *   - plain positional digits for ordinary magnitudes, 0.0001 ≤ |x| < 10^9 (1000, 448, 65504,
 *     -0.0001220703125), scientific only further from 1: 5.9604644775390625e-8, 3.4028234663852886e38
 *   - the sign as the operand fields read it back: "-" (ASCII), "+" only where a difference or an
 *     error says its direction, and on zeros, whose sign matters here: "+0", "-0"; "+inf",
 *     "-inf", "NaN"
 *   - bit patterns in lower-case hex of the format's width, as the trace writes them (0x3c00)
 *   - ulps: whole numbers whole, others to 4 significant digits (+0.25 ulp, -1024 ulps)
 */
import type { ExactValue } from '../engine/value.ts';

/** Most significant digits written. */
const DIGITS = 17;
/** Decimal exponents (of the leading digit) written positionally: 10^-4 … 10^8. */
const POSITIONAL = { from: -4, below: 9 } as const;

/** A decimal as sign, significant digits (no leading or trailing zeros) and leading exponent. */
interface Decimal {
  readonly negative: boolean;
  readonly digits: string;
  readonly exponent: number;
}

function styled({ negative, digits, exponent }: Decimal): string {
  const sign = negative ? '-' : '';
  if (digits === '') return negative ? '-0' : '+0';
  const kept = digits.slice(0, DIGITS);
  const cut = digits.length > DIGITS ? '…' : '';
  if (exponent < POSITIONAL.from || exponent >= POSITIONAL.below)
    return `${sign}${kept[0]}${kept.length > 1 ? `.${kept.slice(1)}` : ''}${cut}e${exponent}`;
  if (exponent < 0) return `${sign}0.${'0'.repeat(-exponent - 1)}${kept}${cut}`;
  const whole = kept.slice(0, exponent + 1).padEnd(exponent + 1, '0');
  const fraction = kept.slice(exponent + 1);
  return `${sign}${whole}${fraction ? `.${fraction}` : ''}${cut}`;
}

/** A plain decimal ("-0.00125", "65504", "1e-7", "1.5e+30") as sign, digits and exponent. */
function parseDecimal(text: string): Decimal {
  const m = /^([+-]?)(\d*)(?:\.(\d*))?(?:e([+-]?\d+))?$/i.exec(text);
  if (!m) throw new Error(`not a decimal: ${text}`);
  const intPart = m[2] ?? '';
  const all = intPart + (m[3] ?? '');
  const leading = all.length - all.replace(/^0+/, '').length;
  const digits = all.slice(leading).replace(/0+$/, '');
  return {
    negative: m[1] === '-',
    digits,
    exponent: intPart.length - 1 - leading + Number(m[4] ?? '0'),
  };
}

/** A decimal written any way ("6.55e4", "0.000125") in the same style: "65500", "0.000125". */
export function decimalText(text: string): string {
  return styled(parseDecimal(text));
}

/** An exact value as people read it (see the top). */
export function exactText(value: ExactValue): string {
  if (value.kind === 'nan') return 'NaN';
  if (value.kind === 'inf') return value.negative ? '-inf' : '+inf';
  return styled(parseDecimal(value.decimal));
}

/** The same, with "+" before a positive value: a difference or an error. */
export function signedText(value: ExactValue): string {
  const text = exactText(value);
  return /^[-+]|^0$|^NaN$/.test(text) ? text : `+${text}`;
}

/** A double (a ratio, a count) in the same style, every digit JavaScript gives; zero is 0. */
export function doubleText(x: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (!Number.isFinite(x)) return x > 0 ? '+inf' : '-inf';
  if (x === 0) return '0';
  return styled(parseDecimal(String(x)));
}

/** "-1024 ulps", "+0.25 ulp", "+1 ulp", "0 ulp": whole numbers whole, else 4 significant digits. */
export function ulpsText(ulps: number): string {
  const rounded = Number.isInteger(ulps) ? ulps : Number(ulps.toPrecision(4));
  const unit = Math.abs(rounded) > 1 ? 'ulps' : 'ulp';
  const text = doubleText(Math.abs(rounded));
  const sign = rounded < 0 ? '-' : rounded > 0 ? '+' : '';
  return `${sign}${text} ${unit}`;
}
