import type { Form, OperandName } from '../../catalog/index.ts';
import { FORMATS, type FloatFormat } from '../formats.ts';

/** The lane format of one of the form's operands, or null when the form has no such operand. */
export function operandFormat(form: Form, name: OperandName): FloatFormat | null {
  const op = form.operands.find((o) => o.name === name);
  return op ? FORMATS[op.format] : null;
}

/** The register that holds `laneBits` in every lane of the operand (both halves of an x2). */
export function inEveryLane(form: Form, name: OperandName, laneBits: number): number {
  const op = form.operands.find((o) => o.name === name);
  return op?.lanes === 2 ? ((laneBits << 16) | laneBits) >>> 0 : laneBits;
}
