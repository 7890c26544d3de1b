/**
 * A cvt form's source registers as bits: which elements an operand holds and where (the places
 * the catalog gives: `a` in the upper bits, padding beside 6-bit values and below .tf32), read
 * and written exactly as BigInt at every width up to .f64's 64 bits.
 */
import type { CvtElement, CvtForm, CvtSourceName, ElementPlace } from '../catalog/index.ts';

const mask = (bits: number) => (1n << BigInt(bits)) - 1n;

/** The register width of each source operand of the form. */
export function registerWidth(form: CvtForm, name: CvtSourceName): number {
  return form.operands.find((o) => o.name === name)?.bits ?? 32;
}

/** The form's source elements held in one operand, in the Semantics block's order. */
export function elementsIn(form: CvtForm, name: CvtSourceName): CvtElement[] {
  return form.elements
    .filter((e) => e.source.operand === name)
    .sort((x, y) => y.source.slot.hi - x.source.slot.hi);
}

/** The value bits of an element (padding left out). */
export function elementBits(register: bigint, place: ElementPlace): bigint {
  return (register >> BigInt(place.value.lo)) & mask(place.value.hi - place.value.lo + 1);
}

/** The padding bits of an element's slot (above a 6-bit value, below .tf32), or null. */
export function paddingOf(
  register: bigint,
  place: ElementPlace,
): { bits: bigint; width: number; hi: number; lo: number } | null {
  const { slot, value } = place;
  if (slot.hi === value.hi && slot.lo === value.lo) return null;
  // A 6-bit value sits low in its slot (padding above it); .tf32 sits high (padding below).
  const above = value.hi < slot.hi;
  const hi = above ? slot.hi : value.lo - 1;
  const lo = above ? value.hi + 1 : slot.lo;
  return { bits: (register >> BigInt(lo)) & mask(hi - lo + 1), width: hi - lo + 1, hi, lo };
}

/** The register with an element's value bits replaced. */
export function withElement(register: bigint, place: ElementPlace, bits: bigint): bigint {
  const width = place.value.hi - place.value.lo + 1;
  const shift = BigInt(place.value.lo);
  return (register & ~(mask(width) << shift)) | ((bits & mask(width)) << shift);
}

/** The register with bits hi…lo replaced (padding). */
export function withBits(register: bigint, hi: number, lo: number, bits: bigint): bigint {
  const shift = BigInt(lo);
  return (register & ~(mask(hi - lo + 1) << shift)) | ((bits & mask(hi - lo + 1)) << shift);
}

/** `0x` and the register's bits in lower-case hex, zero-padded to its width (as the app writes bits). */
export function registerHex(bits: bigint, width: number): string {
  return `0x${bits.toString(16).padStart(Math.ceil(width / 4), '0')}`;
}
