/**
 * The batch's one door to the fast path (src/cli/fast-path.ts) over the one Form: for every form
 * of the catalog, d of one set of registers and d of many (where the registers are 32 bits or
 * narrower) are the pipeline's, on random registers and on the OOB-NaN pattern.
 */
import { describe, expect, it } from 'vitest';
import { FORMS } from '../../src/catalog/all-forms.ts';
import type { SourceName } from '../../src/catalog/instruction.ts';
import { fastPath } from '../../src/cli/fast-path.ts';
import { evaluate, type Registers } from '../../src/engine/pipeline.ts';

const SETS = 16;

/** `count` deterministic 32-bit words (a linear congruential sequence from `seed`). */
function words32(count: number, seed: number): number[] {
  const out: number[] = [];
  let x = seed >>> 0;
  for (let i = 0; i < count; i++) {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    out.push(x);
  }
  return out;
}

describe('the fast path as the batch reaches it', () => {
  it('gives the pipeline’s d for every form, one set at a time and many at once', () => {
    let batched = 0;
    for (const [f, form] of FORMS.entries()) {
      const sources = form.registers.slice(1);
      const words = words32(SETS * sources.length * 2, 0x5eed + f);
      const sets: Registers[] = Array.from({ length: SETS }, (_, k) => {
        const registers: Partial<Record<SourceName, bigint>> = {};
        sources.forEach((r, i) => {
          const lo = BigInt(words[2 * (k * sources.length + i)]!);
          const hi = BigInt(words[2 * (k * sources.length + i) + 1]!);
          // Every fourth set of a 16-bit register holds the OOB-NaN pattern in its low lane.
          const low = r.bits === 16 && k % 4 === 0 ? 0x7ff7n : lo;
          registers[r.name as SourceName] = ((hi << 32n) | low) & ((1n << BigInt(r.bits)) - 1n);
        });
        return registers;
      });
      const path = fastPath(form);
      const expected = sets.map((r) => BigInt(evaluate(form, r).d));
      expect(
        sets.map((r) => path.one(r)),
        form.text,
      ).toEqual(expected);
      if (!path.batch) continue;
      batched++;
      const regs = sources.map(
        (r) => new Uint32Array(sets.map((s) => Number(s[r.name as SourceName]!))),
      );
      const out = new Uint32Array(SETS);
      path.batch(regs, out, SETS);
      expect([...out].map(BigInt), form.text).toEqual(expected);
    }
    // Every form but those with a 64-bit register.
    expect(batched).toBe(FORMS.filter((f) => f.registers.every((r) => r.bits <= 32)).length);
  });
});
