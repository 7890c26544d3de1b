import type { Form } from '../catalog/index.ts';
import { FORMATS, toDouble, type FloatFormat } from '../engine/formats.ts';
import type { OperandKey } from './url-codec.ts';
import { defaultOperandBits } from './url-codec.ts';

/**
 * When the user picks another form, keep the operand values they typed as far as the new form
 * allows: same lane format → same bits (a scalar widened to x2 fills both lanes; x2 narrowed to a
 * scalar keeps lane 0); another format → the nearest value in the new format. This is an editing
 * convenience, not an engine conversion: the engine never sees anything but the bits it shows.
 */
export function adaptOperands(
  prev: Form,
  next: Form,
  operands: Readonly<Record<OperandKey, number>>,
): Record<OperandKey, number> {
  const out: Record<OperandKey, number> = { ...operands };
  for (const op of next.operands) {
    if (op.name === 'd') continue;
    const old = prev.operands.find((o) => o.name === op.name);
    if (!old) {
      out[op.name] = defaultOperandBits(next, op.name);
      continue;
    }
    const lane0 = old.lanes === 2 ? operands[op.name] & 0xffff : operands[op.name];
    const lane1 = old.lanes === 2 ? operands[op.name] >>> 16 : lane0;
    const convert = (bits: number) =>
      old.format === op.format
        ? bits
        : nearestBits(toDouble(bits, FORMATS[old.format]), FORMATS[op.format]);
    out[op.name] =
      op.lanes === 2 ? ((convert(lane1) << 16) | convert(lane0)) >>> 0 : convert(lane0);
  }
  return out;
}

/**
 * The bits of the value nearest to `x` in format `f` (NaN → canonical NaN; beyond the largest
 * finite → infinity). Finite magnitudes are ordered like their bit patterns, so a binary search
 * over patterns finds the neighbours.
 */
export function nearestBits(x: number, f: FloatFormat): number {
  if (Number.isNaN(x)) return f.canonicalNaN;
  const sign = x < 0 || Object.is(x, -0) ? f.signMask : 0;
  const mag = Math.abs(x);
  let lo = 0;
  let hi = f.infBits;
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (toDouble(mid, f) <= mag) lo = mid;
    else hi = mid;
  }
  const below = toDouble(lo, f);
  if (below === mag) return lo + sign;
  if (hi === f.infBits) {
    // Past the largest finite value: infinity from half an ulp beyond it, as rounding does.
    const halfUlp = (below - toDouble(lo - 1, f)) / 2;
    return (mag < below + halfUlp ? lo : hi) + sign;
  }
  const above = toDouble(hi, f);
  return (mag - below <= above - mag ? lo : hi) + sign;
}
