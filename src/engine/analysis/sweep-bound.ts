/**
 * A bound of a cvt sweep's range as a person types it, by the playground's one rule for operand
 * text: `0x…` and `0b…` are the bits of the swept source format (.f32 or .f64), anything else is
 * a value (`-504`, `1e-3`, the hex float `0x1.8p-3`) read as the nearest .f64, which is what a
 * range's evenly spaced values are computed in. A bound is finite: NaN and the infinities are
 * refused, each with its own reason, as is text that is not a number at all (with what to type
 * instead: a fraction or a decimal comma is named).
 */
import { parseCvtElementText } from '../cvt-operand-text.ts';
import { registerHex } from '../cvt-registers.ts';
import { decodeElement, elementWidth } from '../element-format.ts';
import { parseElementValue } from '../element-text.ts';

export type SweepBound =
  | {
      readonly ok: true;
      readonly value: number;
      /** The source format's bits, when the bound was written as bits (`0x00000001`). */
      readonly bits: string | null;
    }
  | { readonly ok: false; readonly message: string };

export function parseSweepBound(text: string, source: 'f32' | 'f64'): SweepBound {
  const compact = text.trim().replace(/[\s_]/g, '');
  // 0x or 0b with digits is a bit pattern; a hex float (0x1.8p-3) is a value.
  const asBits = /^0[xb]/i.test(compact) && !/^0x[0-9a-f]*[.p]/i.test(compact);
  const width = elementWidth(source);
  const read = asBits ? parseCvtElementText(text, source, width) : parseElementValue(text, 'f64');
  if (!read.ok) return read;
  const v = decodeElement(read.bits, asBits ? source : 'f64');
  if (v.kind === 'nan')
    return { ok: false, message: 'NaN is not a bound; a bound is a finite number' };
  if (v.kind === 'inf')
    return {
      ok: false,
      message: `${v.negative ? '-' : '+'}inf is not a bound; a bound is a finite number`,
    };
  const magnitude = Number(v.x.mant) * 2 ** v.x.exp;
  return {
    ok: true,
    value: v.x.negative ? -magnitude : magnitude,
    bits: asBits ? registerHex(read.bits, width) : null,
  };
}
