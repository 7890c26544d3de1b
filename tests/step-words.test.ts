/**
 * The words of every step (src/present/step-words.ts): every kind of the Step union has words —
 * by the type system (STEP_BODIES is a record over StepKind, and the kinds listed at run time are
 * exactly the union's) and at run time over the golden traces and the trace checker's vectors
 * (every arithmetic form's corner groups, every cvt form's boundary classes, every approximate
 * form's inputs, with a measured table and under both tininess readings), which must reach every
 * kind and every variant the words tell apart. No description is empty or shows a missing field;
 * the glossary words are the page's; one round step's description is pinned part by part.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { ALL_FORMS, findForm } from '../src/catalog/all-forms.ts';
import type { Form } from '../src/catalog/instruction.ts';
import { TENSOR_CORE_MODELS } from '../src/catalog/tensor-core-models.ts';
import type { EngineOptions } from '../src/engine/options.ts';
import { decision } from '../src/engine/decisions.ts';
import { evaluate } from '../src/engine/pipeline.ts';
import { innerSteps, type EvalResult, type Step, type StepKind } from '../src/engine/steps.ts';
import { lineText, stepText, traceText } from '../src/present/step-text.ts';
import { STEP_BODIES } from '../src/present/step-bodies.ts';
import {
  STEP_KINDS,
  stepContext,
  stepWords,
  traceWords,
  type StepWords,
} from '../src/present/step-words.ts';
import { GLOSSARY_TERM_IDS, type GlossaryTermId, type Part } from '../src/present/word-parts.ts';
import { GLOSSARY, type TermId } from '../src/ui/glossary.ts';
import { vectorsFor } from './reference/corner-groups.ts';
import { cvtTraceVectors } from './reference/cvt-trace-vectors.ts';
import { seeded } from './reference/cvt-vectors.ts';
import { everyInput } from './reference/trace-check.ts';
import { seededPick } from './reference/vectors.ts';
import { matrixTraceVectors } from './support/matrix-trace-vectors.ts';

/** Every kind the Step union has, written out: adding a kind to steps.ts fails the typecheck here. */
const ALL_KINDS = {
  inputs: true,
  'oob-check': true,
  'flush-input': true,
  convert: true,
  unsigned: true,
  special: true,
  exact: true,
  round: true,
  overflow: true,
  tininess: true,
  'flush-result': true,
  satfinite: true,
  saturate: true,
  relu: true,
  negate: true,
  absolute: true,
  'abs-inputs': true,
  minmax: true,
  xorsign: true,
  approx: true,
  result: true,
  'tensor-model': true,
  fused: true,
  fma: true,
  'sequence-add': true,
  terms: true,
  align: true,
  sum: true,
  'block-scale': true,
} as const satisfies Record<StepKind, true>;

/** What a step's words tell apart within its kind: each must be met. */
function variantOf(step: Step): string {
  switch (step.kind) {
    case 'inputs': {
      const padding = step.operands.map((o) =>
        o.padding === null ? '' : BigInt(o.padding) === 0n ? 'zero padding' : 'padding set',
      );
      return `inputs ${padding.find((p) => p === 'padding set') ?? padding.find((p) => p) ?? ''}`.trim();
    }
    case 'oob-check':
      return `oob-check ${step.forcesZero ? 'zero' : step.oobOperands.length ? 'c only' : 'none'}`;
    case 'convert':
      return `convert ${step.exact ? 'exact' : 'nan'}`;
    case 'unsigned':
      return `unsigned ${step.what}`;
    case 'special':
      return `special ${step.case}${step.result ? '' : ' no value'}`;
    case 'round': {
      const parts = [`round ${step.mode} ${step.reason}`];
      if (!step.cut) parts.push('beyond the exponent range');
      if (step.random) parts.push('random');
      if (step.result === null) parts.push('no result');
      if (step.lower === null || step.upper === null) parts.push('a neighbour missing');
      return parts.join(' ');
    }
    case 'overflow':
      return `overflow ${step.to}`;
    case 'tininess':
      return `tininess ${step.inexact ? (step.tinyAfterRounding ? 'underflow' : 'underflow before only') : 'exact'}`;
    case 'flush-result': {
      if (!step.tininess) return 'flush-result subnormal';
      const tiny =
        step.tininess === 'after-rounding' ? step.tinyAfterRounding : step.tinyBeforeRounding;
      return `flush-result ${step.tininess} ${tiny ? (step.before.bits === step.after.bits ? 'already zero' : 'flushed') : 'kept'}`;
    }
    case 'satfinite':
      return `satfinite ${step.case}${step.case === 'nan' && step.after.value.kind !== 'nan' ? ' to MAX_NORM' : ''}${step.before ? '' : ' no value'}`;
    case 'minmax':
      return step.branch === 'compare'
        ? `minmax compare ${step.comparison!.order}${step.comparison!.signedZeros ? ' signed zeros' : ''}`
        : `minmax ${step.branch}`;
    case 'approx':
      return `approx ${step.model} ${step.allowed.count === 0 ? `empty ${step.allowed.emptyBecause}` : step.allowed.count === 1 ? 'one' : 'several'}${step.allowed.overflows ? ' overflows' : ''}`;
    case 'result':
      return `result ${step.slot.hi === step.valueBits.hi && step.slot.lo === step.valueBits.lo ? 'whole slot' : 'padded'}`;
    case 'saturate':
    case 'relu':
    case 'negate':
    case 'absolute':
    case 'abs-inputs':
    case 'xorsign':
      return `${step.kind} ${step.before.bits === step.after.bits ? 'unchanged' : 'changed'}`;
    case 'tensor-model':
      return `tensor-model ${step.sequence ? 'sequence' : step.fused === null ? 'chain' : step.fused.halves ? 'halves' : 'fused'}`;
    case 'fused':
      return `fused ${step.cFrom}`;
    case 'align':
      return `align ${step.terms.some((t) => t.cutBits.bits !== '') ? 'cut' : 'nothing cut'}`;
    case 'block-scale':
      return `block-scale ${step.blockKind} ${step.special ?? 'finite'}`;
    case 'sum': {
      const n = step.normalisation;
      return `sum ${n === null ? 'zero' : n.shift > 0 ? 'carry' : n.shift < 0 ? 'cancellation' : 'at E'}`;
    }
    case 'flush-input':
    case 'exact':
    case 'fma':
    case 'sequence-add':
    case 'terms':
      return step.kind;
  }
}

/** Every variant the words must be seen to cover. */
const REQUIRED_VARIANTS = [
  'inputs',
  'inputs zero padding',
  'inputs padding set',
  'oob-check none',
  'oob-check zero',
  'oob-check c only',
  'flush-input',
  'convert exact',
  'convert nan',
  'unsigned drop-sign',
  'unsigned least-value',
  'special nan-operand',
  'special nan-operand no value',
  'special invalid',
  'special infinity',
  'special infinity no value',
  'special exact-zero',
  'special zero',
  'special corner-case',
  'exact',
  // An integer rounding of an integral value writes no round step (docs/trace.md).
  ...['rn', 'rz', 'rm', 'rp', 'rna', 'rs'].map((m) => `round ${m} exact`),
  'round rn below-half',
  'round rn above-half',
  'round rn tie-to-even',
  'round rni tie-to-even',
  'round rn overflow-threshold beyond the exponent range no result',
  'round rna tie-away',
  'round rz toward-zero',
  'round rz toward-zero beyond the exponent range no result',
  'round rm toward-minus-inf',
  'round rp toward-plus-inf',
  'round rzi toward-zero',
  'round rmi toward-minus-inf',
  'round rpi toward-plus-inf',
  'round rs random-carry random',
  'round rs random-no-carry random',
  'round rn overflow-threshold no result a neighbour missing',
  'round rn below-half a neighbour missing',
  'round rz toward-zero no result a neighbour missing',
  'overflow infinity',
  'overflow max-norm',
  'overflow nan',
  'tininess exact',
  'tininess underflow',
  'tininess underflow before only',
  'flush-result after-rounding flushed',
  'flush-result after-rounding kept',
  'flush-result after-rounding already zero',
  'flush-result before-rounding flushed',
  'flush-result subnormal',
  'satfinite nan',
  'satfinite nan to MAX_NORM no value',
  'satfinite beyond-max-norm',
  'satfinite beyond-max-norm no value',
  'satfinite in-range',
  'saturate changed',
  'saturate unchanged',
  'relu changed',
  'relu unchanged',
  'negate changed',
  'absolute changed',
  'absolute unchanged',
  'abs-inputs changed',
  'xorsign changed',
  'xorsign unchanged',
  'minmax both-nan',
  'minmax nan-modifier',
  'minmax a-nan',
  'minmax b-nan',
  'minmax compare less',
  'minmax compare greater',
  'minmax compare equal',
  'minmax compare less signed zeros',
  'minmax compare greater signed zeros',
  'approx correctly-rounded one',
  'approx correctly-rounded several',
  'approx correctly-rounded one overflows',
  'approx correctly-rounded empty subnormal-spacing',
  'approx correctly-rounded empty below-smallest-subnormal',
  'approx correctly-rounded empty ftz-removes-subnormals',
  'approx measured several',
  'result whole slot',
  'result padded',
  'tensor-model chain',
  'tensor-model sequence',
  'sequence-add',
  'tensor-model halves',
  'tensor-model fused',
  'fused operand',
  'fused first-half',
  'fma',
  'terms',
  'align cut',
  'align nothing cut',
  'sum zero',
  'sum carry',
  'sum cancellation',
  'sum at E',
  'block-scale mxf8f6f4 finite',
  'block-scale mxf4 finite',
  'block-scale mxf4nvf4 finite',
  'block-scale mxf8f6f4 nan-scale',
];

/** A stand-in measured table: every input gives 1 (what it holds does not matter to the words). */
const MEASURED: Partial<EngineOptions> = {
  approxTables: Object.fromEntries(
    ['tanh.f16', 'tanh.bf16', 'ex2.f16', 'ex2.bf16'].map((key) => [
      key,
      {
        results: new Array<number>(0x10000).fill(key.endsWith('bf16') ? 0x3f80 : 0x3c00),
        measuredOn: 'a test table',
      },
    ]),
  ),
};

interface Traced {
  readonly form: Form;
  readonly result: EvalResult;
}

/** The golden traces and the checker's vectors, evaluated. */
function* traces(): Generator<Traced> {
  const golden = JSON.parse(
    readFileSync(new URL('./golden/traces.json', import.meta.url), 'utf8'),
  ) as Record<string, { result: EvalResult }>;
  for (const c of Object.values(golden)) yield { form: findForm(c.result.form)!, result: c.result };
  const pick = seededPick(22);
  for (const [i, form] of ALL_FORMS.entries()) {
    if (form.matrix?.blockScale) {
      // A block-scaled form (its model's own suite is tests/block-scaled-mma.test.ts): every
      // element 1 and c = 1 with unit scales, then a NaN scale.
      const k = form.matrix.shape.k;
      // 1.0: e4m3 0x38; e2m1 0b0010, packed (mxf4) or at bits 5…2 of its byte (mxf8f6f4).
      const padded = form.matrix.blockScale.kind === 'mxf8f6f4';
      const t = form.matrix.types.a;
      const one = t === 'e2m1' ? (padded ? '08' : '2') : t === 'e4m3' ? '38' : '';
      if (one === '' || form.matrix.types.b !== t) continue;
      const row = BigInt(`0x${one.repeat(k)}`);
      const unit = form.matrix.blockScale.stype === 'ue8m0' ? '7f' : '38';
      const scales = BigInt(`0x${unit.repeat(form.matrix.blockScale.chunks)}`);
      const registers = { a: row, b: row, c: 0x3f800000n, scale_a: scales, scale_b: scales };
      const options = { target: 'sm_120a' };
      yield { form, result: evaluate(form, registers, options) };
      yield { form, result: evaluate(form, { ...registers, scale_b: 0xffn }, options) };
      continue;
    }
    if (form.family === 'matrix') {
      // Every mma form, on an architecture in turn; wgmma, whose N changes no element, at N = 8.
      if (form.matrix!.instruction === 'wgmma' && form.matrix!.shape.n !== 8) continue;
      const target = TENSOR_CORE_MODELS[i % TENSOR_CORE_MODELS.length]!.targets[0]!;
      // m8n8k4 with f16 inputs on sm_90 too: the measured sequence of f32 additions.
      const m8n8k4 = form.matrix!.shape.k === 4 && form.matrix!.types.a === 'f16';
      for (const v of matrixTraceVectors(form, m8n8k4 ? [target, 'sm_90'] : [target], 1, i))
        yield { form, result: evaluate(form, v.registers, v.options) };
      continue;
    }
    const approximate = form.operation === 'tanh' || form.operation === 'ex2';
    const vectors =
      form.family === 'convert'
        ? cvtTraceVectors(form, 12, seeded(form.text.length * 7919 + form.text.charCodeAt(5)))
        : approximate
          ? [...everyInput(form.text, 97)]
          : vectorsFor(form, 1, pick);
    for (const v of vectors) yield { form, result: evaluate(form, v.registers, v.options) };
    if (approximate)
      for (const v of everyInput(form.text, 4099))
        yield { form, result: evaluate(form, v.registers, MEASURED) };
  }
  // 2^x below bf16's least normal 2^-126: results .ftz flushes, and sets it leaves empty.
  const ex2 = findForm('ex2.approx.ftz.bf16')!;
  for (let a = 0xc2f8n; a <= 0xc310n; a++) yield { form: ex2, result: evaluate(ex2, { a }) };
}

const MISSING_FIELD = /undefined|null|\[object|NaN\(|: $|^$/;

function problemsOf(words: StepWords): string[] {
  const problems: string[] = [];
  const parts: Part[] = [...words.title, ...words.lines.flat()];
  if (words.title.length === 0) problems.push('no title');
  if (words.lines.length === 0) problems.push('no lines');
  for (const line of words.lines) if (line.length === 0) problems.push('an empty line');
  for (const part of parts) {
    if (part.text === '') problems.push(`an empty ${part.kind} part`);
    if (/undefined|\[object|NaN\(/.test(part.text)) problems.push(`${part.kind}: ${part.text}`);
  }
  for (const line of [words.title, ...words.lines])
    if (MISSING_FIELD.test(lineText(line))) problems.push(`line: ${lineText(line)}`);
  if (!words.rule.citation || !words.rule.text) problems.push('no rule');
  return problems;
}

describe('every step has words', () => {
  it('by the type system: the kinds with words are exactly the Step union', () => {
    expectTypeOf<keyof typeof STEP_BODIES>().toEqualTypeOf<StepKind>();
    expectTypeOf<(typeof STEP_KINDS)[number]>().toEqualTypeOf<StepKind>();
    expect([...STEP_KINDS].sort()).toEqual(Object.keys(ALL_KINDS).sort());
  });

  it('at run time, over the golden traces and the checker traces: every kind and variant, no missing field', () => {
    const seen = new Map<string, number>();
    const problems: string[] = [];
    let steps = 0;
    let traced = 0;
    for (const { form, result } of traces()) {
      traced++;
      const words = traceWords(result, decision, form);
      expect(traceText(words).length).toBeGreaterThan(0);
      // A tensor core's fused steps and fma links: their own steps too, described within them.
      const visit = (step: Step, described: StepWords) => {
        steps++;
        const variant = variantOf(step);
        seen.set(variant, (seen.get(variant) ?? 0) + 1);
        expect(described.kind).toBe(step.kind);
        for (const p of problemsOf(described))
          if (problems.length < 10) problems.push(`${result.form} ${variant}: ${p}`);
        const inner = innerSteps(step);
        expect(described.steps?.length ?? 0).toBe(inner.length);
        inner.forEach((s, k) => visit(s, described.steps![k]!));
      };
      for (const [i, element] of result.elements.entries())
        for (const [j, step] of element.steps.entries()) visit(step, words.elements[i]!.steps[j]!);
    }
    expect(problems).toEqual([]);
    const kinds = new Set([...seen.keys()].map((v) => v.split(' ')[0]));
    expect(STEP_KINDS.filter((k) => !kinds.has(k))).toEqual([]);
    expect(REQUIRED_VARIANTS.filter((v) => !seen.has(v))).toEqual([]);
    expect(steps).toBeGreaterThan(50_000);
    console.log(
      `step words: ${steps} steps of ${traced} traces described, ${STEP_KINDS.length} kinds, ${seen.size} variants (${REQUIRED_VARIANTS.length} required), 0 problems`,
    );
  });
});

describe('the parts', () => {
  it('point only to words of the page glossary, and to all of them', () => {
    expectTypeOf<GlossaryTermId>().toEqualTypeOf<TermId>();
    expect([...GLOSSARY_TERM_IDS].sort()).toEqual(GLOSSARY.map((g) => g.id).sort());
  });

  it('describe a round step: the mode, the cut, the neighbours, why, and the number line', () => {
    const result = evaluate('add.rn.f16', { a: 0x3c00n, b: 0x1000n });
    const step = result.elements[0]!.steps.find((s) => s.kind === 'round')!;
    const words = stepWords(step, stepContext(findForm('add.rn.f16')!, 0), decision);
    const shape = (line: readonly Part[]) => line.map((p) => `${p.kind}:${p.text}`);
    expect(shape(words.title)).toEqual([
      'text:Round to f16 with ',
      'text:.rn',
      'text: (to nearest, ties to even)',
    ]);
    expect(words.lines.map(shape)).toEqual([
      [
        'text:kept bits and ',
        'term:G R S',
        'text: at the ',
        'term:ulp',
        'text: 2^-10: ',
        'bits:kept=10000000000 G=1 R=0 S=0',
      ],
      ['text:between ', 'value:1 (f16 0x3c00)', 'text: and ', 'value:1.0009765625 (f16 0x3c01)'],
      [
        'text:exactly half an ulp, a tie: to the even neighbour',
        'text:; rounded down (smaller magnitude), inexact → ',
        'value:1 (f16 0x3c00)',
      ],
    ]);
    const cut = words.lines[0]!.at(-1)!;
    expect(cut.kind === 'bits' && cut.segments.map((s) => s.mark)).toEqual([
      'kept',
      'guard',
      'round',
      'sticky',
    ]);
    expect(words.rule).toEqual({
      source: 'ptx',
      section: '9.7.4.1',
      citation: '§9.7.4.1',
      text: step.rule.text,
      decision: null,
    });
    expect(words.numberLine).toMatchObject({
      lower: { bits: '0x3c00' },
      upper: { bits: '0x3c01' },
      result: { bits: '0x3c00' },
      took: 'lower',
    });
  });

  it('write every digit of an exact value when asked', () => {
    const form = findForm('cvt.rn.ftz.f32.f64')!;
    const result = evaluate(form, { a: 0x37d0000000000000n });
    const exact = result.elements[0]!.steps.find((s) => s.kind === 'exact')!;
    const words = stepWords(exact, stepContext(form, 0), decision);
    expect(stepText(words, 2)[0]).toContain('= 7.3468396926392969…e-40 = 1b × 2^-130');
    expect(stepText(words, 2, { allDigits: true })[0]).toContain(
      '= 0.0000000000000000000000000000000000000007346839692639296924804603357639035486366659729825547009429698164240107871592044830322265625 = 1b × 2^-130',
    );
  });

  it('name the reading asked for when .ftz judges tininess before rounding', () => {
    const form = findForm('mul.ftz.f16')!;
    const result = evaluate(form, { a: 0x3bffn, b: 0x0400n }, { ftzTininess: 'before-rounding' });
    const flush = result.elements[0]!.steps.find((s) => s.kind === 'flush-result')!;
    expect(stepWords(flush, stepContext(form, 0), decision).rule.decision).toEqual({
      id: 'ftz-after-rounding',
      text: 'the other reading, as asked: tininess judged before rounding',
    });
  });
});
