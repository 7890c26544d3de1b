/**
 * What `ptxf quantize` and a batch `quantize` line read: block values and tensorAmax by the one
 * operand rule (engine/operand-text.ts: `0x…`/`0b…` are binary32 bits, anything else a value
 * rounded to binary32 to nearest even), rbits as bits only, and the scale rule a scheme takes
 * when none is named (ocp, OCP MX v1.0's rule, for MX; nvfp4 for NVFP4).
 */
import { isBlockScheme, SCHEMES } from '../engine/block-scale/index.ts';
import { describeStored, parseOperandText, quoteText } from '../engine/operand-text.ts';

const F32_SHAPE = { format: 'f32', lanes: 1, bits: 32 } as const;

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
  const r = parseOperandText(text, F32_SHAPE);
  if (!r.ok) return { ok: false, message: `${name}: ${r.message}` };
  if (!r.value || r.value.exact) return { ok: true, bits: r.bits >>> 0 };
  return {
    ok: true,
    bits: r.bits >>> 0,
    stored: `${name} = ${r.value.text}: ${describeStored(r.bits, F32_SHAPE, r.value)}`,
  };
}

/** An rbits word: bits only (`0x…`/`0b…`), at most 32 of them. */
export function readRbits(name: string, text: string): ReadBits {
  const trimmed = text.trim();
  if (!/^0[xb]/i.test(trimmed))
    return {
      ok: false,
      message: `${name}: ${quoteText(trimmed)} is not a bit pattern; rbits take bits (0x80ff7f01)`,
    };
  const r = parseOperandText(trimmed, F32_SHAPE);
  return r.ok ? { ok: true, bits: r.bits >>> 0 } : { ok: false, message: `${name}: ${r.message}` };
}

/** The rule a scheme is quantized by when none is named; undefined for an unknown scheme. */
export function defaultScaleRule(scheme: string): string | undefined {
  if (!isBlockScheme(scheme)) return undefined;
  return SCHEMES[scheme].rules[0];
}
