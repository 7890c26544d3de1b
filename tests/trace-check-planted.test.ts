/**
 * The trace checker catches wrong traces. Two ways of planting a bug:
 * - every field of every step of a spread of correct traces is changed, one at a time, and the
 *   checker must name exactly that field;
 * - the engine's rounding is made to report an exact value past the format's range the way it
 *   did before (neighbours clamped to infinity, "exact" for a value at the cut), and the checker
 *   must flag those traces, though every result stays right.
 */
import { describe, expect, it, vi } from 'vitest';
import { findForm, FORMS } from '../src/catalog/forms.ts';
import { vectorsFor, type Vector } from './reference/corner-groups.ts';
import { compareTrace } from './reference/trace-compare.ts';
import { checkTraceVector, engineTrace } from './reference/trace-check.ts';
import { DEFAULT_TRACE_OPTIONS, expectedTrace } from './reference/trace-model.ts';
import { seededPick } from './reference/vectors.ts';

/** Switched on by the test that plants the fault. */
const planted = vi.hoisted(() => ({ on: false }));

vi.mock('../src/engine/round.ts', async (importOriginal) => {
  const original = await importOriginal<typeof import('../src/engine/round.ts')>();
  return {
    ...original,
    roundToFormat: (...args: Parameters<typeof original.roundToFormat>) => {
      const rounded = original.roundToFormat(...args);
      if (!planted.on || rounded.step.cut !== undefined) return rounded;
      // The old fault: past the range, the neighbours clamped to infinity and a value that
      // fell on the cut called exact.
      const f = args[1];
      const inf = rounded.step.exact.negative ? f.infBits + f.signMask : f.infBits;
      const exactAtCut = /^-?1 × 2\^/.test(rounded.step.exact.rational);
      return {
        ...rounded,
        step: {
          ...rounded.step,
          lower: inf,
          upper: inf,
          ...(exactAtCut ? { inexact: false, direction: 'exact', reason: 'exact' } : {}),
        },
      };
    },
  };
});

/** Every leaf of a JSON value with its path, as trace-compare names them. */
function leaves(value: unknown, path: string, out: [string, unknown][]): void {
  if (typeof value === 'object' && value !== null) {
    for (const [k, v] of Object.entries(value))
      leaves(v, `${path}${Array.isArray(value) ? `[${k}]` : `.${k}`}`, out);
  } else out.push([path, value]);
}

function mutated(value: unknown): unknown {
  if (typeof value === 'number') return value + 1;
  if (typeof value === 'boolean') return !value;
  if (typeof value === 'string') return value === '' ? 'x' : `${value}x`;
  return 'x';
}

function sample(): Vector[] {
  const pick = seededPick(7);
  const forms = [
    'add.rn.f16',
    'mul.ftz.f16x2',
    'fma.rn.ftz.sat.f16',
    'fma.rn.oob.relu.bf16x2',
    'fma.rm.sat.f32.bf16',
    'sub.rp.f32.f16',
    'min.NaN.xorsign.abs.bf16x2',
    'max.ftz.f16',
    'neg.ftz.f16',
    'tanh.approx.f16',
    'ex2.approx.ftz.bf16',
  ].map((t) => findForm(t)!);
  return forms.flatMap((form) => vectorsFor(form, 2, pick).filter((_, i) => i % 3 === 0));
}

describe('a planted trace bug is caught', () => {
  it('every field of every step, changed alone, is the disagreement the checker reports', () => {
    let mutations = 0;
    const missed: string[] = [];
    for (const v of sample()) {
      const options = { ...DEFAULT_TRACE_OPTIONS, ...v.options };
      const expected = expectedTrace(v.form.text, v.registers, v.oob, options);
      const actual = engineTrace(v.form, v.registers, v.oob, v.options) as {
        lanes: { steps: Record<string, unknown>[] }[];
      };
      expect(compareTrace(expected, actual)).toEqual([]);
      actual.lanes.forEach((lane, l) =>
        lane.steps.forEach((step, s) => {
          const fields: [string, unknown][] = [];
          leaves(step, '', fields);
          for (const [path, value] of fields) {
            const copy = structuredClone(actual);
            const keys = path
              .slice(1)
              .split(/\.|\[|\]\.?/)
              .filter((k) => k !== '');
            let target: Record<string, unknown> = copy.lanes[l]!.steps[s]!;
            for (const k of keys.slice(0, -1)) target = target[k] as Record<string, unknown>;
            const last = keys[keys.length - 1]!;
            // Rule texts are checked by the words they must contain: empty them.
            target[last] = path === '.rule.text' ? '' : mutated(value);
            mutations++;
            const found = compareTrace(expected, copy);
            const where = `lane ${l}, step ${s + 1} (${String(step.kind)})${path}`;
            const named =
              path === '.kind'
                ? found.some((d) => d.where === `lane ${l}.steps`)
                : found.some((d) => d.where.startsWith(where));
            if (!named) missed.push(`${v.form.text} ${where}`);
          }
        }),
      );
    }
    console.log(`planted: ${mutations} single-field changes, ${missed.length} not caught`);
    expect(missed).toEqual([]);
    expect(mutations).toBeGreaterThan(1000);
  });

  it('the old overflow fault in the engine is flagged, though every result stays right', () => {
    const pick = seededPick(3);
    const overflowing = FORMS.filter((f) => ['add', 'mul', 'fma'].includes(f.opcode))
      .flatMap((form) => vectorsFor(form, 3, pick))
      .filter((v) => v.group.startsWith('overflow'));
    planted.on = true;
    try {
      let flagged = 0;
      let wrongResults = 0;
      for (const v of overflowing) {
        const { disagreements } = checkTraceVector(v);
        if (disagreements.length > 0) flagged++;
        if (disagreements.some((d) => d.where === 'd' || d.where.endsWith('.result')))
          wrongResults++;
      }
      console.log(`planted overflow fault: ${flagged} of ${overflowing.length} traces flagged`);
      expect(wrongResults).toBe(0);
      expect(flagged).toBeGreaterThan(overflowing.length / 4);
    } finally {
      planted.on = false;
    }
  });
});
