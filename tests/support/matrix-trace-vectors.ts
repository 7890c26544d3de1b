/**
 * Vectors for the trace checker's matrix suites (tests/trace-check-matrix.test.ts,
 * tests/reference/run-trace-check.ts): a matrix form's corner cases (the engine's
 * analysis/matrix-cases.ts, as a page's table has them), random rows and columns
 * (tests/reference/matrix-vectors.ts) and the same with their containers' padding set, as
 * registers (the engine's matrixRegisters and registersHolding place them; the checker's model
 * reads them back by its own layout).
 */
import fc from 'fast-check';
import type { Form } from '../../src/catalog/instruction.ts';
import { registersHolding } from '../../src/engine/analysis/form-registers.ts';
import { matrixCases } from '../../src/engine/analysis/matrix-cases.ts';
import { matrixRegisters } from '../../src/engine/matrix-registers.ts';
import { vectorArb } from '../reference/matrix-vectors.ts';
import type { TraceVector } from '../reference/trace-check.ts';

/** Every bit of the form's registers that is padding beside a value (FP6, FP4 containers). */
function paddingBits(form: Form): Partial<Record<'a' | 'b' | 'c', bigint>> {
  const out: Partial<Record<'a' | 'b' | 'c', bigint>> = {};
  for (const p of form.elements[0]!.inputs) {
    if (p.format === 'tf32') continue;
    const ones = (hi: number, lo: number) => ((1n << BigInt(hi - lo + 1)) - 1n) << BigInt(lo);
    const slot = ones(p.slot.hi, p.slot.lo);
    const value = ones(p.value.hi, p.value.lo);
    const name = p.operand as 'a' | 'b' | 'c';
    if (slot !== value) out[name] = (out[name] ?? 0n) | (slot & ~value);
  }
  return out;
}

/**
 * The trace checker's vectors for a matrix form on each of `targets` (undefined: no target, the
 * engine's default): the form's corner cases, `random` random rows and columns, and each of
 * those with every padding bit of its FP6/FP4 containers set. `seed` makes the draw repeatable.
 */
export function matrixTraceVectors(
  form: Form,
  targets: readonly (string | undefined)[],
  random: number,
  seed: number,
): TraceVector[] {
  const out: TraceVector[] = [];
  const padding = paddingBits(form);
  for (const [t, target] of targets.entries()) {
    const options = target === undefined ? undefined : { target };
    for (const c of matrixCases(form))
      out.push({
        form: form.text,
        group: c.id,
        registers: registersHolding(
          form,
          c.inputs.map((x) => x.bits),
        ),
        ...(options ? { options } : {}),
      });
    for (const v of fc.sample(vectorArb(form), { numRuns: random, seed: seed * 31 + t })) {
      const r = matrixRegisters(form, v);
      if (!r.ok) throw new Error(r.error.message);
      out.push({
        form: form.text,
        group: 'random',
        registers: r.registers,
        ...(options ? { options } : {}),
      });
      if (Object.keys(padding).length === 0) continue;
      const padded = { ...r.registers };
      for (const [name, bits] of Object.entries(padding))
        padded[name as 'a' | 'b' | 'c'] = (padded[name as 'a' | 'b' | 'c'] ?? 0n) | bits;
      out.push({
        form: form.text,
        group: 'padding',
        registers: padded,
        ...(options ? { options } : {}),
      });
    }
  }
  return out;
}
