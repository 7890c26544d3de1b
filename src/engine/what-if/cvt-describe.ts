/**
 * A cvt comparison in words and marks, for the page and the CLI (`ptxf eval <cvt> --vs <cvt>`):
 * each element's bits by field with the ones that differ marked, its value, B − A in ulps of
 * each destination format, the verdict, and what the carry did to each value B reads.
 */
import type { ElementFormatName } from '../../catalog/cvt-types.ts';
import { elementWidth, F64, floatFormatOf } from '../element-format.ts';
import type { ExactValue } from '../trace.ts';
import type { CvtCarried, CvtCarriedElement } from './cvt-carry.ts';
import type { CvtComparison, CvtElementComparison, CvtSideElement } from './cvt-compare.ts';
import { exactText, ulpsText, type BitGroup } from './describe.ts';

/** An element's bits by field; `other` (bits of the same width) marks those that differ. */
export function elementBitGroups(
  bits: string,
  format: ElementFormatName,
  other: string | null,
): BitGroup[] {
  const f = format === 'f64' ? { ...F64, signed: true } : floatFormatOf(format);
  const width = elementWidth(format);
  const x = BigInt(bits);
  const y = other === null ? null : BigInt(other);
  const bit = (v: bigint, i: number) => Number((v >> BigInt(i)) & 1n) as 0 | 1;
  const range = (field: BitGroup['field'], from: number, to: number): BitGroup => ({
    field,
    bits: Array.from({ length: Math.max(0, from - to + 1) }, (_, k) => {
      const i = from - k;
      return { value: bit(x, i), differs: y !== null && bit(x, i) !== bit(y, i) };
    }),
  });
  const groups = [
    ...(f.signed ? [range('sign', width - 1, width - 1)] : []),
    range('exponent', width - (f.signed ? 2 : 1), f.manBits),
    range('mantissa', f.manBits - 1, 0),
  ];
  return groups.filter((g) => g.bits.length > 0);
}

/** How many bits an XOR mask (hex) has set. */
export function maskBitCount(mask: string): number {
  let n = 0;
  for (let x = BigInt(mask); x !== 0n; x >>= 1n) n += Number(x & 1n);
  return n;
}

/** A side's value as the lines write it: the exact decimal, shortened; ±inf; NaN by its bits. */
export function sideValueText(s: CvtSideElement): string {
  if (s.value.kind === 'nan') return `NaN ${s.bits}`;
  return valueText(s.value);
}

function valueText(v: ExactValue): string {
  if (v.kind === 'inf') return v.negative ? '−inf' : '+inf';
  if (v.kind === 'finite' && v.decimal.replace('-', '') === '0') return v.negative ? '−0' : '+0';
  return exactText(v).replace(/^-/, '−');
}

/** B − A of one element in words: in ulps of each destination format, or why no number. */
export function cvtDifferenceText(e: CvtElementComparison): string {
  if (!e.a || !e.b) return `only ${e.a ? 'A' : 'B'} converts element ${e.index}`;
  if (e.ulpsOfA === null || e.ulpsOfB === null) {
    const va = sideValueText(e.a);
    const vb = sideValueText(e.b);
    if (e.a.value.kind === 'nan' && e.b.value.kind === 'nan') return 'both are NaN';
    return va === vb ? `both are ${va}` : `A is ${va}, B is ${vb}: no finite difference`;
  }
  if (e.ulpsOfA === 0)
    return e.a.format === e.b.format && e.a.bits === e.b.bits ? 'the same bits' : 'the same value';
  const ofA = `${ulpsText(e.ulpsOfA)} of ${e.a.format}`;
  return e.a.format === e.b.format
    ? `B − A = ${ofA}`
    : `B − A = ${ofA} = ${ulpsText(e.ulpsOfB)} of ${e.b.format}`;
}

/** The comparison in one line. */
export function cvtVerdictText(c: CvtComparison): string {
  if (c.b.kind === 'refused') return `No B: ${c.b.reason}`;
  if (c.same) return 'Same result: B gives the same bits as A.';
  const differing = c.elements.filter((e) => cvtDifferenceText(e) !== 'the same value');
  if (differing.length === 0)
    return `Same values: B gives each value A gives, in its own format (${c.b.form.dtype}).`;
  const one = c.elements.length === 1;
  const text = differing
    .map((e) => (one ? cvtDifferenceText(e) : `element ${e.index}: ${cvtDifferenceText(e)}`))
    .join('; ');
  return `B differs from A: ${text}.`;
}

/** One element's error against the exact source value, in words. */
export function errorText(s: CvtSideElement | null): string {
  if (!s) return '—';
  if (!s.error) return 'no finite error';
  const v = s.error.value;
  const zero = v.kind === 'finite' && v.decimal.replace('-', '') === '0';
  if (zero) return 'exact';
  const value = exactText(v).replace(/^-/, '−');
  return `${value.startsWith('−') ? value : `+${value}`} = ${ulpsText(s.error.ulps)} of ${s.format}`;
}

/** What the carry did to one value B reads. */
export function cvtCarriedText(e: CvtCarriedElement): string {
  const from = `A's element ${e.from.element} (${e.from.operand}, ${e.from.format} ${e.from.bits})`;
  const name = `B's element ${e.element} reads ${e.operand} (${e.format} ${e.bits})`;
  const again = e.repeated ? `; A converts fewer elements, so B reads its last one again` : '';
  switch (e.how) {
    case 'same':
      return `${name}: the bits of ${from}${again}`;
    case 'exact':
      return `${name}: exactly the value of ${from}${again}`;
    case 'rounded':
      return `${name}: ${from} is not ${article(e.format)} ${e.format} value; B reads the nearest (round to nearest even)${again}`;
    case 'nan':
      return `${name}: ${from} is a NaN; B reads ${e.format}'s canonical NaN${again}`;
    case 'no-nan':
      return `${name}: ${from} is a NaN and ${e.format} has none; B reads +0${again}`;
  }
}

/** What B's random bits are (.rs), or null where B is not .rs. */
export function cvtRbitsText(carried: CvtCarried): string | null {
  if (carried.rbits === null) return null;
  const hex = `0x${(carried.input.rbits ?? 0n).toString(16).padStart(8, '0')}`;
  return carried.rbits === 'bits'
    ? `rbits: A's random bits, carried as bits (${hex})`
    : `rbits: A has no random bits; B reads ${hex} (no carry: an inexact value rounds toward zero)`;
}

function article(format: string): string {
  return /^[aefhilmnorsx]/.test(format) ? 'an' : 'a';
}
