/**
 * A pattern's bits by field (sign, exponent, mantissa), for the page's and the CLI's bit rows,
 * with the bits that differ from another pattern of the same width marked.
 */
import { FORMATS, type BitsView } from '../engine/format.ts';

export interface BitGroup {
  readonly field: 'sign' | 'exponent' | 'mantissa';
  /** Most significant first: each bit, and whether it differs from the other pattern. */
  readonly bits: readonly { readonly value: 0 | 1; readonly differs: boolean }[];
}

/**
 * The bits of `view` by field; `other` (hex of the same width, a comparison's other side) marks
 * the bits that differ. An unsigned format has no sign field, ue8m0 no mantissa field.
 */
export function bitGroups(view: BitsView, other: string | null): BitGroup[] {
  const f = FORMATS[view.format];
  const x = BigInt(view.bits);
  const y = other === null ? null : BigInt(other);
  const bit = (v: bigint, i: number) => Number((v >> BigInt(i)) & 1n) as 0 | 1;
  const range = (field: BitGroup['field'], from: number, to: number): BitGroup => ({
    field,
    bits: Array.from({ length: Math.max(0, from - to + 1) }, (_, k) => {
      const i = from - k;
      return { value: bit(x, i), differs: y !== null && bit(x, i) !== bit(y, i) };
    }),
  });
  const top = f.width - 1;
  const groups = [
    ...(f.signed ? [range('sign', top, top)] : []),
    range('exponent', f.signed ? top - 1 : top, f.manBits),
    range('mantissa', f.manBits - 1, 0),
  ];
  return groups.filter((g) => g.bits.length > 0);
}

/** How many bits a mask (hex, an XOR of two patterns) has set. */
export function bitCount(mask: string): number {
  let n = 0;
  for (let x = BigInt(mask); x !== 0n; x >>= 1n) n += Number(x & 1n);
  return n;
}
