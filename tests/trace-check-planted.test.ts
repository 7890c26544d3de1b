/**
 * The trace checker catches wrong traces. Two ways of planting a bug:
 * - every field of every step of a spread of correct traces is changed, one at a time, and the
 *   checker must name exactly that field; the spread holds every kind of step, of the
 *   arithmetic and of cvt (.satfinite, ue8m0's missing sign and zero, .rs with its random bits,
 *   .rna, the integer roundings, a 6-bit input with its padding bits) and of the matrix forms
 *   (a tensor core's model, its fused steps with their terms, alignment, sum and rounding, the
 *   halves, the e8m13 rounding, the f64 chain of fma links): a field of a step a step holds is
 *   named with both steps;
 * - the pipeline's rounding is made to report an exact value past the format's range the way an
 *   old engine did (neighbours clamped to infinity, "exact" for a value at the cut), and the
 *   checker must flag those traces, though every result stays right.
 */
import { describe, expect, it, vi } from 'vitest';
import fc from 'fast-check';
import { FORMS, findForm } from '../src/catalog/all-forms.ts';
import { registersHolding } from '../src/engine/analysis/form-registers.ts';
import { matrixCases } from '../src/engine/analysis/matrix-cases.ts';
import { matrixRegisters } from '../src/engine/matrix-registers.ts';
import { vectorsFor } from './reference/corner-groups.ts';
import { vectorArb } from './reference/matrix-vectors.ts';
import type { ExpectedStep } from './reference/trace-expect.ts';
import { cvtTraceVectors } from './reference/cvt-trace-vectors.ts';
import { seeded } from './reference/cvt-vectors.ts';
import { compareTrace } from './reference/trace-compare.ts';
import { checkTraceVector, engineTrace, type TraceVector } from './reference/trace-check.ts';
import { situationsOf } from './reference/trace-coverage.ts';
import { DEFAULT_TRACE_OPTIONS, expectedTrace } from './reference/trace-model.ts';
import { seededPick } from './reference/vectors.ts';

/** Switched on by the test that plants the fault. */
const planted = vi.hoisted(() => ({ on: false }));

vi.mock('../src/engine/rounding.ts', async (importOriginal) => {
  const original = await importOriginal<typeof import('../src/engine/rounding.ts')>();
  return {
    ...original,
    roundToFormat: (...args: Parameters<typeof original.roundToFormat>) => {
      const rounded = original.roundToFormat(...args);
      if (!planted.on || rounded.step.cut !== undefined) return rounded;
      // The old fault: past the range, the neighbours clamped to infinity and a value that
      // fell on the cut called exact.
      const f = args[1];
      const sign = rounded.step.exact.negative ? f.signMask : 0n;
      const inf =
        f.infBits === null
          ? null
          : `0x${(f.infBits | sign).toString(16).padStart(Math.ceil(f.width / 4), '0')}`;
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

/** Every kind of step the pipeline writes (src/engine/steps.ts). */
const STEP_KINDS = [
  'inputs',
  'oob-check',
  'flush-input',
  'convert',
  'unsigned',
  'special',
  'exact',
  'round',
  'overflow',
  'tininess',
  'flush-result',
  'satfinite',
  'saturate',
  'relu',
  'negate',
  'absolute',
  'abs-inputs',
  'minmax',
  'xorsign',
  'approx',
  'tensor-model',
  'fused',
  'fma',
  'sequence-add',
  'terms',
  'align',
  'sum',
  'result',
];

/** What a trace holds that the sample must: its step kinds, and cvt's particular fields. */
function featuresOf(v: TraceVector): string[] {
  const expected = expectedTrace(v.form, v.registers, { ...DEFAULT_TRACE_OPTIONS, ...v.options });
  const out = situationsOf(expected);
  const all = (steps: readonly ExpectedStep[]): ExpectedStep[] =>
    steps.flatMap((x) => [x, ...(Array.isArray(x.steps) ? all(x.steps as ExpectedStep[]) : [])]);
  for (const element of expected.elements)
    for (const step of all(element.steps)) {
      out.push(`kind ${step.kind}`);
      if (step.kind === 'round' && step.fractionBits !== undefined)
        out.push('round with fewer fraction bits');
      if (step.kind === 'fused' && step.parts === 2) out.push('fused in two halves');
      if (step.kind === 'round') {
        out.push(`round mode ${String(step.mode)}`);
        if (step.random) out.push('round with random bits');
      }
      if (step.kind === 'inputs') {
        const reads = step.operands as { padding: string | null }[];
        if (reads.some((r) => r.padding !== null)) out.push('inputs with padding');
      }
    }
  return out;
}

function sample(): TraceVector[] {
  const pick = seededPick(7);
  const arithmetic = [
    'add.rn.f16',
    'mul.ftz.f16x2',
    'fma.rn.ftz.sat.f16',
    'fma.rn.oob.relu.bf16x2',
    'fma.rm.sat.f32.bf16',
    'sub.rp.f32.f16',
    'min.NaN.xorsign.abs.bf16x2',
    'max.ftz.f16',
    'neg.ftz.f16',
    'abs.bf16',
    'tanh.approx.f16',
    'ex2.approx.ftz.bf16',
  ].flatMap((t) => vectorsFor(findForm(t)!, 2, pick).filter((_, i) => i % 3 === 0));
  // cvt: from many draws, each vector that shows something the others have not.
  const cvt = [
    'cvt.rn.satfinite.e4m3x2.f32',
    'cvt.rn.satfinite.relu.e2m1x2.f32',
    'cvt.rp.ue8m0x2.f32',
    'cvt.rz.satfinite.ue8m0x2.bf16x2',
    'cvt.rs.satfinite.e2m1x4.f32',
    'cvt.rs.relu.f16x2.f32',
    'cvt.rna.satfinite.tf32.f32',
    'cvt.rni.sat.f16.f16',
    'cvt.rmi.ftz.f32.f32',
    'cvt.rzi.sat.f64.f64',
    'cvt.rpi.bf16.bf16',
    'cvt.rn.relu.f16x2.e2m3x2',
    'cvt.rn.ftz.sat.f32.f64',
    'cvt.ftz.f32.bf16',
    'cvt.rn.bf16x2.ue8m0x2',
  ].flatMap((t) => cvtTraceVectors(findForm(t)!, 64, seeded(t.length)));
  // Matrix forms of small k, on the targets whose models differ: the corner cases and a
  // random vector of each.
  const matrix = (
    [
      ['mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32', 'sm_80'],
      ['mma.sync.aligned.m8n8k4.row.col.f16.f16.f16.f16', 'sm_70'],
      ['mma.sync.aligned.m8n8k4.row.col.f32.f16.f16.f32', undefined],
      ['mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64.rp', 'sm_90'],
      ['mma.sync.aligned.m16n8k16.row.col.f32.e4m3.e4m3.f32', 'sm_89'],
    ] as const
  ).flatMap(([text, target]): TraceVector[] => {
    const form = findForm(text)!;
    const options = target ? { options: { target } } : {};
    const random = fc.sample(vectorArb(form), { numRuns: 2, seed: text.length }).map((v) => {
      const r = matrixRegisters(form, v);
      if (!r.ok) throw new Error(r.error.message);
      return { form: text, group: 'random', registers: r.registers, ...options };
    });
    const cases = matrixCases(form).map((c) => ({
      form: text,
      group: c.id,
      registers: registersHolding(
        form,
        c.inputs.map((x) => x.bits),
      ),
      ...options,
    }));
    return [...random, ...cases];
  });
  const seen = new Set<string>();
  const fresh = (v: TraceVector) => {
    const added = featuresOf(v).filter((f) => !seen.has(f));
    added.forEach((f) => seen.add(f));
    return added.length > 0;
  };
  const chosen = cvt.filter(fresh);
  return [...arithmetic, ...chosen, ...matrix.filter(fresh)];
}

/**
 * Where the checker names a field of a step: `.steps[j]…` inside a step that holds steps is
 * its own step, `, step j + 1 (kind)`.
 */
function whereOf(prefix: string, step: Record<string, unknown>, path: string): string {
  const m = /^\.steps\[(\d+)\](.*)$/.exec(path);
  if (!m) return `${prefix}${path}`;
  const j = Number(m[1]);
  const inner = (step.steps as Record<string, unknown>[])[j]!;
  const at = `${prefix}, step ${j + 1} (${String(inner.kind)})`;
  return m[2] === '.kind' ? `${prefix}.steps` : whereOf(at, inner, m[2]!);
}

describe('a planted trace bug is caught', () => {
  it('every field of every step, changed alone, is the disagreement the checker reports', () => {
    let mutations = 0;
    const missed: string[] = [];
    const vectors = sample();
    const features = new Set(vectors.flatMap(featuresOf));
    const required = [
      ...STEP_KINDS.map((k) => `kind ${k}`),
      ...['rn', 'rna', 'rz', 'rm', 'rp', 'rs', 'rni', 'rzi', 'rmi', 'rpi'].map(
        (m) => `round mode ${m}`,
      ),
      'round with random bits',
      'inputs with padding',
      'padding nonzero',
      'unsigned drop-sign',
      'unsigned least-value',
      'satfinite nan',
      'satfinite beyond-max-norm',
      'satfinite in-range',
      'round with fewer fraction bits',
      'fused in two halves',
      'overflow rz to max-norm',
      'special exact-zero rn +0',
    ];
    expect(required.filter((f) => !features.has(f))).toEqual([]);
    for (const v of vectors) {
      const options = { ...DEFAULT_TRACE_OPTIONS, ...v.options };
      const expected = expectedTrace(v.form, v.registers, options);
      const actual = engineTrace(v.form, v.registers, v.options) as {
        elements: { steps: Record<string, unknown>[] }[];
      };
      expect(compareTrace(expected, actual)).toEqual([]);
      actual.elements.forEach((element, e) =>
        element.steps.forEach((step, s) => {
          const fields: [string, unknown][] = [];
          leaves(step, '', fields);
          for (const [path, value] of fields) {
            const copy = structuredClone(actual);
            const keys = path
              .slice(1)
              .split(/\.|\[|\]\.?/)
              .filter((k) => k !== '');
            let target: Record<string, unknown> = copy.elements[e]!.steps[s]!;
            for (const k of keys.slice(0, -1)) target = target[k] as Record<string, unknown>;
            const last = keys[keys.length - 1]!;
            // Rule texts are checked by the words they must contain: empty them.
            target[last] = path.endsWith('.rule.text') ? '' : mutated(value);
            mutations++;
            const found = compareTrace(expected, copy);
            const index = expected.elements[e]!.index;
            const where = whereOf(
              `element ${index}, step ${s + 1} (${String(step.kind)})`,
              step,
              path,
            );
            const named =
              path === '.kind'
                ? found.some((d) => d.where === `element ${index}.steps`)
                : where.endsWith('.steps')
                  ? found.some((d) => d.where === where)
                  : found.some((d) => d.where.startsWith(where));
            if (!named) missed.push(`${v.form} ${where}`);
          }
        }),
      );
    }
    console.log(
      `planted: ${mutations} single-field changes over ${vectors.length} traces, ${missed.length} not caught`,
    );
    expect(missed.slice(0, 12)).toEqual([]);
    expect(mutations).toBeGreaterThan(5000);
  });

  it('the old overflow fault in the rounding is flagged, though every result stays right', () => {
    const pick = seededPick(3);
    const overflowing = FORMS.filter((f) => ['add', 'mul', 'fma'].includes(f.operation))
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
