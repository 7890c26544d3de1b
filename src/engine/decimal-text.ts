/**
 * Exact decimals can be long (an f32 subnormal has over a hundred significant digits, a product
 * of two more than two hundred): a readable form for display, with the exact text kept for
 * those who ask for it (the UI expands it, `ptxf eval --all-digits` prints it).
 */

/** Decimals up to this many characters are shown as they are. */
const SHORT_ENOUGH = 24;
/** Significant digits a shortened decimal keeps. */
const SHOWN_DIGITS = 17;

export interface ReadableDecimal {
  /** The decimal itself, or its first significant digits, "…" and the power of ten. */
  readonly text: string;
  /** Whether `text` leaves digits out. */
  readonly shortened: boolean;
  /** Significant digits of the exact decimal. */
  readonly digits: number;
}

/**
 * A readable form of an exact decimal ("-0.000061035156250", "65536"): itself when short, else
 * its first 17 significant digits, cut (not rounded) and followed by "…": positional where
 * toPrecision would be ("-0.99999997019767405…"), else in e-notation ("1.4012984643248170…e-45").
 */
export function readableDecimal(decimal: string): ReadableDecimal {
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(decimal);
  if (!match) return { text: decimal, shortened: false, digits: 0 };
  const [, sign, intPart, fracPart = ''] = match;
  const all = (intPart! + fracPart).replace(/^0+/, '');
  const significant = all.replace(/0+$/, '');
  const digits = significant.length;
  if (decimal.length <= SHORT_ENOUGH || digits <= SHOWN_DIGITS)
    return { text: decimal, shortened: false, digits };
  // Decimal exponent of the leading significant digit.
  const leadingZeros = (intPart! + fracPart).length - all.length;
  const exponent = intPart!.length - 1 - leadingZeros;
  const kept = significant.slice(0, SHOWN_DIGITS);
  let text: string;
  if (exponent < -6 || exponent >= SHOWN_DIGITS) {
    text = `${sign}${kept[0]}.${kept.slice(1)}…e${exponent < 0 ? '-' : '+'}${Math.abs(exponent)}`;
  } else if (exponent >= 0) {
    const fraction = kept.slice(exponent + 1);
    text = `${sign}${kept.slice(0, exponent + 1)}${fraction ? `.${fraction}` : ''}…`;
  } else {
    text = `${sign}0.${'0'.repeat(-exponent - 1)}${kept}…`;
  }
  return { text, shortened: true, digits };
}
