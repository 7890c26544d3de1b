import type {
  CvtElement,
  CvtForm,
  CvtSourceName,
  ElementFormatName,
  ElementPlace,
} from '../catalog/index.ts';
import { exactValueOfElement, parseElementValue } from '../engine/index.ts';
import type { CvtEvaluateRequest } from '../worker/api.ts';

/**
 * The source registers of a cvt form as the editors hold them: one unsigned BigInt per operand
 * of the spec (a, b, e, f, rbits), exact at every width up to .f64's 64 bits. Only the operands
 * the form has are meaningful. Elements are read and written by the places the catalog gives
 * (src/catalog/cvt-forms.ts: `a` in the upper bits, padding beside 6-bit values).
 */
export type CvtRegisters = Readonly<Record<CvtSourceName, bigint>>;

export const CVT_SOURCE_NAMES: readonly CvtSourceName[] = ['a', 'b', 'e', 'f', 'rbits'];

export const ZERO_REGISTERS: CvtRegisters = { a: 0n, b: 0n, e: 0n, f: 0n, rbits: 0n };

/**
 * The values the editors start from, per operand, element by element: 500 (past e4m3's MAX_NORM:
 * .satfinite shows), 4.25 (a tie in e4m3), -0.3 and 0.001 (a small value, a subnormal in the
 * 8-bit formats); a value the format cannot hold gives way to 1.5, then to 1.
 */
const START_VALUES = ['500', '4.25', '-0.3', '0.001'];
const FALLBACK_VALUES = ['1.5', '1'];
/** Random bits for .rs that make both choices happen (a carry in some elements, not in others). */
const START_RBITS = 0x9e3779b9n;

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

/** The first of `texts` the format holds, as bits. */
function firstValue(texts: readonly string[], format: ElementFormatName): bigint {
  for (const text of texts) {
    const r = parseElementValue(text, format);
    if (r.ok) return r.bits;
  }
  return 0n;
}

/** The editors' starting registers for a form. */
export function defaultCvtRegisters(form: CvtForm): CvtRegisters {
  const regs: Record<CvtSourceName, bigint> = { ...ZERO_REGISTERS };
  form.elements.forEach((e, i) => {
    const name = e.source.operand as CvtSourceName;
    const bits = firstValue([START_VALUES[i % 4]!, ...FALLBACK_VALUES], e.source.format);
    regs[name] = withElement(regs[name], e.source, bits);
  });
  if (form.operands.some((o) => o.name === 'rbits')) regs.rbits = START_RBITS;
  return regs;
}

/**
 * The registers after a switch to another form: an operand that holds the same type keeps its
 * bits; one whose element format changed keeps each element's value where the new format holds
 * it (rounded to nearest even, as a typed value would be), else takes the new form's start value.
 * An editing convenience, as adapt-operands.ts is for the arithmetic: the engine sees only bits.
 */
export function adaptCvtRegisters(
  prev: CvtForm | null,
  next: CvtForm,
  regs: CvtRegisters,
): CvtRegisters {
  const start = defaultCvtRegisters(next);
  if (!prev) return start;
  const out: Record<CvtSourceName, bigint> = { ...regs };
  for (const op of next.operands.slice(1)) {
    const name = op.name as CvtSourceName;
    const old = prev.operands.find((o) => o.name === name);
    if (old && old.type === op.type) continue;
    const before = elementsIn(prev, name);
    const after = elementsIn(next, name);
    if (!old || before.length === 0 || after.length === 0) {
      out[name] = start[name];
      continue;
    }
    let reg = 0n;
    after.forEach((e, i) => {
      const from = before[Math.min(i, before.length - 1)]!.source;
      const value = exactValueOfElement(elementBits(regs[name], from), from.format);
      const text = value.kind === 'nan' ? 'nan' : value.decimal;
      const r = parseElementValue(text, e.source.format);
      const bits = r.ok ? r.bits : elementBits(start[name], e.source);
      reg = withElement(reg, e.source, bits);
    });
    out[name] = reg;
  }
  return out;
}

/** The worker's request for an evaluation: the form's source registers as hex. */
export function cvtRequestOf(form: CvtForm, regs: CvtRegisters): CvtEvaluateRequest {
  const registers: Partial<Record<CvtSourceName, string>> = {};
  for (const op of form.operands.slice(1)) {
    const name = op.name as CvtSourceName;
    registers[name] = registerHex(regs[name], op.bits);
  }
  return { form: form.text, registers };
}

/** `0x` and the register's bits in lower-case hex, zero-padded to its width (as the app writes bits). */
export function registerHex(bits: bigint, width: number): string {
  return `0x${bits.toString(16).padStart(Math.ceil(width / 4), '0')}`;
}
