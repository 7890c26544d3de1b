/**
 * Values of bit patterns as sentences name them, in the one number style (numbers.ts): a value,
 * a value with its pattern ("0.0999755859375 (f16 0x2e66)"), a NaN by its pattern.
 */
import { bitsView, FORMATS, type BitsView } from '../engine/format.ts';
import type { FormatName } from '../catalog/formats.ts';
import { exactText } from './numbers.ts';

/** The value a pattern holds: its decimal, ±inf, or NaN with its pattern ("NaN 0x7fff"). */
export function valueText(view: BitsView): string {
  return view.value.kind === 'nan' ? `NaN ${view.bits}` : exactText(view.value);
}

/** The value and where it sits: "0.0999755859375 (f16 0x2e66)". */
export function valueWithBits(view: BitsView): string {
  return `${view.value.kind === 'nan' ? 'NaN' : exactText(view.value)} (${view.format} ${view.bits})`;
}

/** The view of a hex pattern of a format (a trace's neighbours, the allowed set's ends). */
export function viewOf(bits: string, format: FormatName): BitsView {
  return bitsView(BigInt(bits), FORMATS[format]);
}

/** "a" or "an" before a format's name, as it is read aloud ("an f16", "a bf16", "an e4m3"). */
export function article(format: string): string {
  return /^[aefhilmnorsx]/.test(format) ? 'an' : 'a';
}
