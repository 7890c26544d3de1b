import type { FormatName } from '../../catalog/types.ts';
import { readableDecimal } from '../decimal-text.ts';
import { FORMATS, exactValueOfBits } from '../formats.ts';
import type { ApproxStep, EvalResult, ExactValue } from '../trace.ts';
import { shortestDecimal } from '../values-text.ts';
import type { CarriedLane } from './carry.ts';
import type { Comparison, LaneDifference } from './compare.ts';

/**
 * A comparison in words and marks, for the page (compare mode, the result line) and the CLI
 * (`ptxf eval --vs`): lanes of a register, its bits grouped by field with the ones that differ
 * marked, values, differences in ulps, and what the carry did to each operand.
 */

/** The 16-bit lanes of a packed register, or the one value of any other. */
export function lanesOf(d: number, dBits: 16 | 32, format: FormatName): number[] {
  const lanes = dBits === 32 && format !== 'f32' ? 2 : 1;
  return Array.from({ length: lanes }, (_, i) =>
    lanes === 2 ? Math.floor(d / 2 ** (16 * i)) % 65536 : d,
  );
}

/** A value as the result line shows it: the shortest decimal that reads back, NaN by its bits. */
export function valueText(bits: number, format: FormatName): string {
  const f = FORMATS[format];
  const text = shortestDecimal(bits, f);
  return text === 'NaN' ? `NaN 0x${bits.toString(16).padStart(f.width / 4, '0')}` : text;
}

/** A double as the readouts write values: shortest decimal, −0 kept, ±inf and NaN by name. */
export function doubleText(x: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (!Number.isFinite(x)) return x > 0 ? '+inf' : '-inf';
  return Object.is(x, -0) ? '-0' : String(x);
}

/** An exact value, shortened where it has many digits ("0.33325195312…"). */
export function exactText(value: ExactValue): string {
  return value.kind === 'finite' ? readableDecimal(value.decimal).text : value.decimal;
}

/** Every digit of a lane's value (as the readouts show it). */
export function exactBitsText(bits: number, format: FormatName): string {
  return exactText(exactValueOfBits(bits, FORMATS[format]));
}

/** "−16 ulps", "0.25 ulp", "+2 ulps": four significant digits, a true minus sign. */
export function ulpsText(ulps: number): string {
  const rounded = Number(ulps.toPrecision(4));
  const unit = Math.abs(rounded) > 1 ? 'ulps' : 'ulp';
  const sign = rounded < 0 ? '−' : rounded > 0 ? '+' : '';
  return `${sign}${Math.abs(rounded)} ${unit}`;
}

export interface BitGroup {
  readonly field: 'sign' | 'exponent' | 'mantissa';
  /** Most significant first: each bit, and whether it differs from the other side. */
  readonly bits: readonly { readonly value: 0 | 1; readonly differs: boolean }[];
}

/** A lane's bits by field; `other` (the same format) marks the bits that differ from it. */
export function bitGroups(lane: number, format: FormatName, other: number | null): BitGroup[] {
  const f = FORMATS[format];
  const bit = (x: number, i: number) => (Math.floor(x / 2 ** i) % 2) as 0 | 1;
  const range = (field: BitGroup['field'], from: number, to: number): BitGroup => ({
    field,
    bits: Array.from({ length: from - to + 1 }, (_, k) => {
      const i = from - k;
      return { value: bit(lane, i), differs: other !== null && bit(lane, i) !== bit(other, i) };
    }),
  });
  return [
    range('sign', f.width - 1, f.width - 1),
    range('exponent', f.width - 2, f.manBits),
    range('mantissa', f.manBits - 1, 0),
  ];
}

/** How many bits of two registers differ (the comparison's XOR). */
export function differingBitCount(xor: number): number {
  let n = 0;
  for (let x = xor >>> 0; x !== 0; x >>>= 1) n += x & 1;
  return n;
}

/** B − A in words, per lane: in ulps of each destination format, or why there is no number. */
export function differenceText(c: Comparison, lane: LaneDifference): string {
  if (c.b.kind === 'refused') return c.b.reason;
  const fa = c.a.dFormat;
  const fb = c.b.dFormat;
  const a = lanesOf(c.a.d, c.a.dBits, fa)[lane.lane]!;
  const bl = lanesOf(c.b.d, c.b.dBits, fb);
  const b = bl[Math.min(lane.lane, bl.length - 1)]!;
  if (lane.ulpsOfA === null || lane.ulpsOfB === null) {
    const va = valueText(a, fa);
    const vb = valueText(b, fb);
    return va === vb || (va.startsWith('NaN') && vb.startsWith('NaN'))
      ? `both are ${va.startsWith('NaN') ? 'NaN' : va}`
      : `A is ${va}, B is ${vb}: no finite difference`;
  }
  if (lane.ulpsOfA === 0) {
    const sameBits = fa === fb && a === b;
    return sameBits ? 'the same bits' : 'the same value';
  }
  const ofA = `${ulpsText(lane.ulpsOfA)} of ${fa}`;
  return fa === fb ? `B − A = ${ofA}` : `B − A = ${ofA} = ${ulpsText(lane.ulpsOfB)} of ${fb}`;
}

/** The comparison in one line: the same result, or by how much B differs from A. */
export function verdictText(c: Comparison): string {
  if (c.b.kind === 'refused') return `No B: ${c.b.reason}`;
  if (c.same) return 'Same result: B gives the same bits as A.';
  if (c.lanes.every((l) => l.ulpsOfA === 0))
    return c.differingBits === null
      ? `Same value: B gives the value A gives, in its own format (${c.b.dFormat}).`
      : 'Same value, other bits: B gives A’s value with the other sign of zero.';
  const lanes = c.lanes.map((l) => differenceText(c, l));
  const text = lanes.length === 1 ? lanes[0]! : lanes.map((t, i) => `lane ${i}: ${t}`).join('; ');
  return `B differs from A: ${text}.`;
}

/** What the carry did to one lane of one operand ("a: 0.1 (f16 0x2e66) → 0.10009765625 in bf16"). */
export function carriedText(lane: CarriedLane, lanes: number): string {
  const name = lanes === 2 ? `${lane.operand} lane ${lane.lane}` : lane.operand;
  const to = `${exactBitsText(lane.bits, lane.format)} (${lane.format} ${hex(lane.bits, lane.format)})`;
  if (lane.how === 'absent' || lane.from === null)
    return `${name}: A has no operand in this role; B gets ${to}`;
  const from = `${exactBitsText(lane.from.bits, lane.from.format)} (${lane.from.format} ${hex(lane.from.bits, lane.from.format)})`;
  switch (lane.how) {
    case 'same':
      return `${name}: ${from}, the same bits`;
    case 'exact':
      return `${name}: ${from} is exactly ${to}`;
    case 'rounded':
      return `${name}: ${from} is not ${article(lane.format)} ${lane.format} value: it becomes the nearest, ${to} (round to nearest even)`;
    case 'nan':
      return `${name}: ${from} is a NaN: B gets the canonical NaN ${to} (payloads do not carry)`;
  }
}

function article(format: string): string {
  return /^[aefhilmnorsx]/.test(format) ? 'an' : 'a';
}

function hex(bits: number, format: FormatName): string {
  return `0x${bits.toString(16).padStart(FORMATS[format].width / 4, '0')}`;
}

/** An approximate lane's allowed set in words, as the summary says it. */
export function allowedText(step: ApproxStep): string {
  const { count, lowest, highest } = step.allowed;
  const v = (bits: number) => exactBitsText(bits, step.format);
  if (count === 0) return 'no value meets the error bound here';
  if (count === 1) return `hardware may return only ${v(lowest)}`;
  return `hardware may return any of ${count} values from ${v(lowest)} to ${v(highest)}`;
}

/** The approx steps of an evaluation, per lane (undefined where the spec fixes the lane). */
export function approxSteps(result: EvalResult): (ApproxStep | undefined)[] {
  return result.lanes.map((lane) => {
    const step = lane.steps.find((s) => s.kind === 'approx');
    return step?.kind === 'approx' ? step : undefined;
  });
}
