/**
 * Carrying operands from one form to another by value, not by bits: the comparison of two
 * instructions asks what each does to the same numbers. 0.1 in an f16 register becomes the
 * bf16 value nearest to that f16 value (round to nearest even), and the carry says so.
 *
 * Operands correspond by role, in the order the spec's pseudo-code uses them: the first source
 * (a), the second term (b, or c for the mixed add/sub whose second term is c), the addend of fma
 * (c). Lanes correspond by index; a form with fewer lanes takes lane 0, a form with more lanes
 * repeats the last one.
 */
import type { Form } from '../../catalog/forms.ts';
import { isZero } from '../exact.ts';
import { classify, FORMATS, type FloatFormat, dyadicOf } from '../formats.ts';
import type { EvalInput } from '../evaluate.ts';
import type { SourceName } from '../lane.ts';
import { dyadicMagnitude, roundToFormat } from '../round.ts';
import type { FormatName } from '../../catalog/types.ts';

/** One lane of one operand, as it was in A and as it is in B. */
export interface CarriedLane {
  readonly operand: SourceName;
  readonly lane: number;
  /** Where the value came from in A (null: A has no operand in this role; B gets +0.0). */
  readonly from: {
    readonly operand: SourceName;
    readonly bits: number;
    readonly format: FormatName;
  } | null;
  readonly bits: number;
  readonly format: FormatName;
  /**
   * 'same': the same bits; 'exact': the same value in another format; 'rounded': the nearest
   * value of B's format (round to nearest even); 'nan': a NaN, carried as the canonical NaN
   * (payloads do not carry); 'absent': no value in A.
   */
  readonly how: 'same' | 'exact' | 'rounded' | 'nan' | 'absent';
}

export interface Carried {
  readonly input: EvalInput;
  readonly lanes: readonly CarriedLane[];
}

/** Source operands in role order: a, the second term, the addend. */
export function operandRoles(form: Form): SourceName[] {
  return form.operands.slice(1).map((o) => o.name as SourceName);
}

function laneCount(form: Form, name: SourceName): number {
  return form.operands.find((o) => o.name === name)!.lanes;
}

function laneBits(register: number, lanes: number, lane: number): number {
  return lanes === 2 ? Math.floor(register / 2 ** (16 * lane)) % 65536 : register;
}

/** The value of `bits` (format `from`) in format `to`: exact when it fits, else rounded. */
export function convertValue(
  bits: number,
  from: FloatFormat,
  to: FloatFormat,
): { bits: number; how: CarriedLane['how'] } {
  if (from === to) return { bits, how: 'same' };
  const cls = classify(bits, from);
  const negative = bits >= from.signMask;
  if (cls === 'qnan' || cls === 'snan') return { bits: to.canonicalNaN, how: 'nan' };
  if (cls === 'infinity') return { bits: to.infBits + (negative ? to.signMask : 0), how: 'exact' };
  const x = dyadicOf(bits, from);
  if (isZero(x)) return { bits: negative ? to.signMask : 0, how: 'exact' };
  const r = roundToFormat(dyadicMagnitude(x), to, 'rn');
  return { bits: r.bits, how: r.inexact || r.overflow ? 'rounded' : 'exact' };
}

export function carryOperands(from: Form, to: Form, input: EvalInput): Carried {
  const fromRoles = operandRoles(from);
  const toRoles = operandRoles(to);
  const lanes: CarriedLane[] = [];
  const registers: Partial<Record<SourceName, number>> = {};
  toRoles.forEach((name, role) => {
    const toOp = to.operands.find((o) => o.name === name)!;
    const toFormat = FORMATS[toOp.format];
    const source = fromRoles[role];
    let register = 0;
    for (let lane = 0; lane < toOp.lanes; lane++) {
      if (source === undefined) {
        lanes.push({
          operand: name,
          lane,
          from: null,
          bits: 0,
          format: toFormat.name,
          how: 'absent',
        });
        continue;
      }
      const fromOp = from.operands.find((o) => o.name === source)!;
      const fromLane = Math.min(lane, laneCount(from, source) - 1);
      const fromBits = laneBits(input[source] ?? 0, fromOp.lanes, fromLane);
      const carried = convertValue(fromBits, FORMATS[fromOp.format], toFormat);
      lanes.push({
        operand: name,
        lane,
        from: { operand: source, bits: fromBits, format: fromOp.format },
        bits: carried.bits,
        format: toFormat.name,
        how: carried.how,
      });
      register += carried.bits * 2 ** (16 * lane);
    }
    registers[name] = register;
  });
  return { input: { a: registers.a ?? 0, b: registers.b, c: registers.c }, lanes };
}
