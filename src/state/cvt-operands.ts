import type { CvtForm, CvtSourceName, ElementFormatName } from '../catalog/index.ts';
import { exactValueOfElement, parseElementValue } from '../engine/index.ts';
import {
  elementBits,
  elementsIn,
  paddingOf,
  registerHex,
  registerWidth,
  withBits,
  withElement,
} from '../engine/cvt-registers.ts';
import type { CvtEvaluateRequest } from '../worker/api.ts';

export { elementBits, elementsIn, paddingOf, registerHex, registerWidth, withBits, withElement };

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
