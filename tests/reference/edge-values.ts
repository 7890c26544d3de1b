/**
 * Bit patterns where floating-point implementations go wrong: signed zeros, the subnormal and
 * normal boundaries, ±1 and its neighbours, max finite, infinities, quiet and signalling NaNs,
 * and values that put sums and products exactly on rounding boundaries.
 */
import type { RefFormatName } from './ref-formats.ts';

type Labelled = readonly [bits: number, label: string];

const LABELLED: Record<RefFormatName, readonly Labelled[]> = {
  f16: [
    [0x0000, '+0'],
    [0x8000, '-0'],
    [0x0001, '+min subnormal 2^-24'],
    [0x8001, '-min subnormal'],
    [0x03ff, '+max subnormal'],
    [0x83ff, '-max subnormal'],
    [0x0400, '+min normal 2^-14'],
    [0x8400, '-min normal'],
    [0x3c00, '+1'],
    [0xbc00, '-1'],
    [0x3bff, '1 - 2^-11'],
    [0x3c01, '1 + 2^-10'],
    [0x3800, '0.5'],
    [0x4000, '2'],
    [0x1000, '2^-11 (half an ulp of 1)'],
    [0x0200, '2^-15'],
    [0x4c00, '16 (half an ulp of max finite)'],
    [0xb555, '~-1/3'],
    [0x7bff, '+max finite 65504'],
    [0xfbff, '-max finite'],
    [0x7c00, '+inf'],
    [0xfc00, '-inf'],
    [0x7e00, 'qNaN'],
    [0x7c01, 'sNaN'],
    [0xfd00, '-sNaN'],
  ],
  bf16: [
    [0x0000, '+0'],
    [0x8000, '-0'],
    [0x0001, '+min subnormal 2^-133'],
    [0x8001, '-min subnormal'],
    [0x007f, '+max subnormal'],
    [0x807f, '-max subnormal'],
    [0x0080, '+min normal 2^-126'],
    [0x8080, '-min normal'],
    [0x3f80, '+1'],
    [0xbf80, '-1'],
    [0x3f7f, '1 - 2^-8'],
    [0x3f81, '1 + 2^-7'],
    [0x3f00, '0.5'],
    [0x4000, '2'],
    [0x3b80, '2^-8 (half an ulp of 1)'],
    [0x0040, '2^-127'],
    [0x7b00, '2^119 (half an ulp of max finite)'],
    [0xbeab, '~-1/3'],
    [0x7f7f, '+max finite'],
    [0xff7f, '-max finite'],
    [0x7f80, '+inf'],
    [0xff80, '-inf'],
    [0x7fc0, 'qNaN'],
    [0x7f81, 'sNaN'],
    [0xffa0, '-sNaN'],
  ],
  f32: [
    [0x00000000, '+0'],
    [0x80000000, '-0'],
    [0x00000001, '+min subnormal 2^-149'],
    [0x80000001, '-min subnormal'],
    [0x007fffff, '+max subnormal'],
    [0x807fffff, '-max subnormal'],
    [0x00800000, '+min normal 2^-126'],
    [0x80800000, '-min normal'],
    [0x3f800000, '+1'],
    [0xbf800000, '-1'],
    [0x3f7fffff, '1 - 2^-24'],
    [0x3f800001, '1 + 2^-23'],
    [0x33800000, '2^-24 (half an ulp of 1)'],
    [0xb3800000, '-2^-24'],
    [0x33000000, '2^-25'],
    [0x4b800000, '2^24'],
    [0x73800000, '2^104 (half an ulp of max finite)'],
    [0xbeaaaaab, '~-1/3'],
    [0x7f7fffff, '+max finite'],
    [0xff7fffff, '-max finite'],
    [0x7f800000, '+inf'],
    [0xff800000, '-inf'],
    [0x7fc00000, 'qNaN'],
    [0x7f800001, 'sNaN'],
    [0xffc00001, '-qNaN'],
  ],
};

export const EDGE_VALUES: Record<RefFormatName, readonly number[]> = {
  f16: LABELLED.f16.map(([bits]) => bits),
  bf16: LABELLED.bf16.map(([bits]) => bits),
  f32: LABELLED.f32.map(([bits]) => bits),
};

/** A ninth of the edge values, for the third operand of fma (whose cross product is 25× larger). */
export function keyEdgeValues(format: RefFormatName): number[] {
  const key = (label: string): boolean =>
    ['+0', '-0', '+1', '-1', '+inf', 'qNaN'].includes(label) ||
    /^(\+min subnormal|-min subnormal|\+max finite)/.test(label);
  return LABELLED[format].filter(([, label]) => key(label)).map(([bits]) => bits);
}

export function edgeLabel(bits: number, format: RefFormatName): string | undefined {
  return LABELLED[format].find(([b]) => b === bits)?.[1];
}
