/**
 * What `ptxf quantize` and a batch `quantize` line read: block values and tensorAmax by the one
 * operand rule (engine/register-text.ts: `0x…`/`0b…` are binary32 bits, anything else a value
 * rounded to binary32 to nearest even), rbits as bits only, and the scale rule a scheme takes
 * when none is named (ocp, OCP MX v1.0's rule, for MX; nvfp4 for NVFP4).
 */
import { readPrefixedBits } from '../engine/bits-text.ts';
import { isBlockScheme, SCHEMES } from '../engine/block-scale/index.ts';
import { FORMATS, formatHex } from '../engine/format.ts';
import { quoteText } from '../engine/number-text.ts';
import { readElementText } from '../engine/register-text.ts';
import { storedValueText } from '../present/stored-text.ts';

export type ReadBits =
  | {
      readonly ok: true;
      readonly bits: number;
      /** What a value text became, where it was not exactly a binary32 value. */
      readonly stored?: string;
    }
  | { readonly ok: false; readonly message: string };

/** One binary32 operand: `name` says which in messages ("value 3", "tensorAmax"). */
export function readF32(name: string, text: string): ReadBits {
  const r = readElementText(text, FORMATS.f32);
  if (!r.ok) return { ok: false, message: `${name}: ${r.error.message}` };
  const bits = Number(r.bits);
  if (r.written === 'bits' || r.value.exact) return { ok: true, bits };
  const stored = storedValueText(r.value, formatHex(r.bits, FORMATS.f32));
  return { ok: true, bits, stored: `${name} = ${r.value.text}: ${stored}` };
}

/** An rbits word: bits only (`0x…`/`0b…`), at most 32 of them. */
export function readRbits(name: string, text: string): ReadBits {
  const r = readPrefixedBits(text, 32, 'register');
  if (r === null)
    return {
      ok: false,
      message: `${name}: ${quoteText(text.trim())} is not a bit pattern; rbits take bits (0x80ff7f01)`,
    };
  return r.ok
    ? { ok: true, bits: Number(r.bits) }
    : { ok: false, message: `${name}: ${r.error.message}` };
}

/** The rule a scheme is quantized by when none is named; undefined for an unknown scheme. */
export function defaultScaleRule(scheme: string): string | undefined {
  if (!isBlockScheme(scheme)) return undefined;
  return SCHEMES[scheme].rules[0];
}
