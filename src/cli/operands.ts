/**
 * Operand text for the CLI (`ptxf eval` arguments and `ptxf batch` fields), read by the one rule
 * the whole project uses (engine/operand-text.ts): `0x…`/`0b…` are register bits, anything else
 * is a value rounded to the operand's format by round-to-nearest-even, in every lane of a packed
 * register. A bare `3c00` is neither, and is told to take the 0x prefix; a pattern wider than the
 * register is reported, never truncated.
 */
import type { Operand } from '../catalog/index.ts';
import { describeStored, hexBits, parseOperandText } from '../engine/operand-text.ts';

export type OperandParse =
  | {
      readonly ok: true;
      readonly bits: number;
      /** What a value became ("stored 0x3e00 = 1.5"); absent when the text was bits. */
      readonly stored?: string;
    }
  | { readonly ok: false; readonly message: string };

/** Longest operand text quoted back in an error message. */
const QUOTE_LIMIT = 40;

export function quote(text: string): string {
  const shown = text.length > QUOTE_LIMIT ? `${text.slice(0, QUOTE_LIMIT)}…` : text;
  return JSON.stringify(shown);
}

/** Parse operand `name`'s text for its register (format, lanes, width). */
export function parseOperand(
  name: string,
  text: string,
  shape: Pick<Operand, 'format' | 'lanes' | 'bits'>,
): OperandParse {
  const r = parseOperandText(text, shape);
  if (!r.ok) return { ok: false, message: `operand ${name}: ${r.message}` };
  return r.value
    ? {
        ok: true,
        bits: r.bits,
        stored: `${name} = ${r.value.text}: ${describeStored(r.bits, shape, r.value)}`,
      }
    : { ok: true, bits: r.bits };
}

/** `0x` followed by the bits zero-padded to the register width, lower case. */
export const formatBits = hexBits;
