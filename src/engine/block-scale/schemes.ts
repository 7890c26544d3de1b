/**
 * The block-scaled formats as data (issue 26; PTX ISA 5.2.3 for the formats, 9.7.14.3 for the
 * block-scaled mma that consumes them): OCP's MX formats — 32 elements sharing one UE8M0 scale —
 * and NVIDIA's NVFP4 — 16 E2M1 elements sharing one UE4M3 scale, under one f32 scale per tensor.
 *
 *   scheme       element  block  scale  max_elem  emax_elem  scale rules
 *   mxfp8-e4m3   e4m3     32     ue8m0  448       8          ocp rp rz
 *   mxfp8-e5m2   e5m2     32     ue8m0  57344     15         ocp rp rz
 *   mxfp6-e3m2   e3m2     32     ue8m0  28        4          ocp rp rz
 *   mxfp6-e2m3   e2m3     32     ue8m0  7.5       2          ocp rp rz
 *   mxfp4        e2m1     32     ue8m0  6         2          ocp rp rz
 *   nvfp4        e2m1     16     ue4m3  6         2          nvfp4
 *
 * max_elem and emax_elem are read from the element format's own description (format.ts: its
 * largest finite value and that value's exponent), not written twice.
 */
import { FORMATS, toDouble } from '../format.ts';

export const BLOCK_SCHEMES = [
  'mxfp8-e4m3',
  'mxfp8-e5m2',
  'mxfp6-e3m2',
  'mxfp6-e2m3',
  'mxfp4',
  'nvfp4',
] as const;
export type BlockScheme = (typeof BLOCK_SCHEMES)[number];

export const SCALE_RULES = ['ocp', 'rp', 'rz', 'nvfp4'] as const;
export type ScaleRule = (typeof SCALE_RULES)[number];

/** The MX rules: OCP's floor rule, and the scale rounded up or down from amax / max_elem. */
export const MX_SCALE_RULES = ['ocp', 'rp', 'rz'] as const satisfies readonly ScaleRule[];

export type BlockElementFormat = 'e4m3' | 'e5m2' | 'e3m2' | 'e2m3' | 'e2m1';

/** The element conversions: to nearest even, or stochastic with the user's random bits. */
export const ELEMENT_ROUNDINGS = ['rn', 'rs'] as const;
export type ElementRounding = (typeof ELEMENT_ROUNDINGS)[number];

export interface SchemeInfo {
  readonly scheme: BlockScheme;
  readonly element: BlockElementFormat;
  readonly blockSize: 32 | 16;
  /** The shared scale's format: UE8M0 for MX, UE4M3 (an e4m3 with its sign bit 0) for NVFP4. */
  readonly scaleFormat: 'ue8m0' | 'ue4m3';
  readonly rules: readonly ScaleRule[];
  /** max_elem: the element format's largest finite value, as binary32 bits (448: 0x43E00000). */
  readonly maxElemBits: number;
  readonly maxElem: number;
  /** emax_elem: the exponent of max_elem (448 = 1.75 × 2^8: 8). */
  readonly emaxElem: number;
  /** Bits per element of the element format (e2m1: 4; e3m2 and e2m3: 6). */
  readonly elementBits: number;
}

const f32Bits = (x: number): number => {
  const view = new DataView(new ArrayBuffer(4));
  view.setFloat32(0, x);
  return view.getUint32(0);
};

function scheme(
  name: BlockScheme,
  element: BlockElementFormat,
  blockSize: 32 | 16,
  scaleFormat: 'ue8m0' | 'ue4m3',
  rules: readonly ScaleRule[],
): SchemeInfo {
  const f = FORMATS[element];
  // Every value of these formats is a double and a binary32 value: the conversion is exact.
  const maxElem = toDouble(f.maxBits, f);
  return {
    scheme: name,
    element,
    blockSize,
    scaleFormat,
    rules,
    maxElemBits: f32Bits(maxElem),
    maxElem,
    emaxElem: f.emax,
    elementBits: f.width,
  };
}

export const SCHEMES: { readonly [S in BlockScheme]: SchemeInfo } = {
  'mxfp8-e4m3': scheme('mxfp8-e4m3', 'e4m3', 32, 'ue8m0', MX_SCALE_RULES),
  'mxfp8-e5m2': scheme('mxfp8-e5m2', 'e5m2', 32, 'ue8m0', MX_SCALE_RULES),
  'mxfp6-e3m2': scheme('mxfp6-e3m2', 'e3m2', 32, 'ue8m0', MX_SCALE_RULES),
  'mxfp6-e2m3': scheme('mxfp6-e2m3', 'e2m3', 32, 'ue8m0', MX_SCALE_RULES),
  mxfp4: scheme('mxfp4', 'e2m1', 32, 'ue8m0', MX_SCALE_RULES),
  nvfp4: scheme('nvfp4', 'e2m1', 16, 'ue4m3', ['nvfp4']),
};

export function isBlockScheme(name: string): name is BlockScheme {
  return (BLOCK_SCHEMES as readonly string[]).includes(name);
}

export function isScaleRule(name: string): name is ScaleRule {
  return (SCALE_RULES as readonly string[]).includes(name);
}

/** The catalog cvt form that converts a block's elements. */
export function elementCvtForm(element: BlockElementFormat, rounding: ElementRounding): string {
  return rounding === 'rn'
    ? `cvt.rn.satfinite.${element}x2.f32`
    : `cvt.rs.satfinite.${element}x4.f32`;
}

/** Elements per element cvt: two for the .rn x2 forms, four for the .rs x4 forms. */
export function elementsPerCvt(rounding: ElementRounding): 2 | 4 {
  return rounding === 'rn' ? 2 : 4;
}

/** Storage bits per value: the element's bits plus its share of the block's 8-bit scale. */
export function bitsPerValue(info: SchemeInfo): number {
  return info.elementBits + 8 / info.blockSize;
}
