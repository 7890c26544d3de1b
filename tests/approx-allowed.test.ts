/**
 * The set of results the spec's error bound allows (the trace's `allowed`, which the UI and CLI
 * present as "hardware may return any of these"): it must hold the model's own answer wherever
 * the bound can hold, reach the infinity where the exact value overflows, leave out what .ftz
 * cannot write, and be empty only where a relative bound is beyond the format (below the
 * smallest normal). Exhaustive over every input of the four lane formats of tanh and ex2.
 */
import { describe, expect, it } from 'vitest';
import { FORMATS, evaluate, toDouble } from '../src/engine/index.ts';
import { allowedInterval } from '../src/engine/index.ts';
import type { ErrorBound } from '../src/catalog/instructions.ts';

const relative = (log2: number): ErrorBound => ({ types: [], kind: 'relative', log2, text: '' });

const FORMS = ['tanh.approx.f16', 'tanh.approx.bf16', 'ex2.approx.f16', 'ex2.approx.ftz.bf16'];

describe('allowed results of tanh.approx / ex2.approx', () => {
  it.each(FORMS)('%s: every input', (form) => {
    const f = FORMATS[form.endsWith('bf16') ? 'bf16' : 'f16'];
    const minNormal = toDouble(2 ** f.manBits, f);
    let checked = 0;
    for (let a = 0; a < 65536; a++) {
      const step = evaluate(form, { a }).lanes[0]!.steps.find((s) => s.kind === 'approx');
      if (step?.kind !== 'approx') continue; // a corner-case table fixes the result
      const exact = Number(step.mathValue);
      const { lowest, highest, count, overflows } = step.allowed;
      const at = (bits: number) => toDouble(bits, f);
      if (count === 0) {
        expect(Math.abs(exact), `input ${a}`).toBeLessThan(minNormal);
        continue;
      }
      expect(at(lowest)).toBeLessThanOrEqual(at(highest));
      if (Math.abs(exact) >= minNormal) {
        expect(at(step.result), `input ${a}`).toBeGreaterThanOrEqual(at(lowest));
        expect(at(step.result), `input ${a}`).toBeLessThanOrEqual(at(highest));
        checked++;
      }
      expect(overflows).toBe(!Number.isFinite(at(highest)) && Number.isFinite(exact));
      if (form.includes('.ftz.')) {
        for (const end of [lowest, highest])
          expect(end % 2 ** 15 === 0 || end % 2 ** 15 >= 2 ** f.manBits, `input ${a}`).toBe(true);
      }
    }
    expect(checked).toBeGreaterThan(10_000);
  });

  it('an exact value past the largest finite one allows the infinity', () => {
    const bound = relative(-9.9);
    const f = FORMATS.f16;
    // 2^16 = 65536 rounds to +inf; 65504 and 65472 are within 2^-9.9 of it as well.
    expect(allowedInterval(65536, bound, f)).toEqual({
      lowest: 0x7bfe,
      highest: 0x7c00,
      count: 3,
      overflows: true,
    });
    expect(allowedInterval(-70000, bound, f)).toEqual({
      lowest: 0xfc00,
      highest: 0xfc00,
      count: 1,
      overflows: true,
    });
    // 65510 is below the rounding point (65520): finite only.
    expect(allowedInterval(65510, bound, f).overflows).toBe(false);
  });

  it('.ftz leaves out subnormals: below the smallest normal nothing is within a relative bound', () => {
    const bound = relative(-7);
    const f = FORMATS.bf16;
    const t = 2 ** -126.5;
    expect(allowedInterval(t, bound, f).count).toBe(2); // two subnormals
    expect(allowedInterval(t, bound, f, true).count).toBe(0);
    const justBelow = 2 ** -126 * (1 - 2 ** -9);
    // Just below the smallest normal: the smallest normal is within the bound, no subnormal is.
    expect(allowedInterval(justBelow, bound, f, true)).toMatchObject({
      lowest: 0x0080,
      highest: 0x0080,
      count: 1,
    });
    expect(allowedInterval(justBelow, bound, f).lowest).toBe(0x007f);
  });
});
