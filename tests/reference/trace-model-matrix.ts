/**
 * The trace checker's model of a matrix form's one output element, d = c + Σ a_i·b_i (mma,
 * wgmma): every step the trace should have and every field of it, from docs/trace.md and the
 * tensor-core reference (tensor-core-ref.ts: the models of tensor-cores.md in exact rationals),
 * the reference's rounding model (trace-round.ts) and its views (trace-views.ts). No engine
 * code; from the catalog only the form's types, shape and section, and the models' names and
 * citations (TENSOR_CORE_MODELS), which the trace copies.
 *
 *   inputs        A's row, B's column, C's element, each in its container: element i of a row
 *                 in bits [w·i + w − 1 : w·i], w the container (f16/bf16 16, tf32 32 with the
 *                 value in the upper 19 bits, f64 64, the 8-bit types 8: e3m2/e2m3 in the low 6
 *                 bits, e2m1 in bits 5…2)
 *   tensor-model  the target's architecture and its parameters
 *   fused         per step of the reference (one, or Ampere's and Ada's two halves): the
 *                 specials, or the terms, their alignment, the sum and the rounding (or a zero
 *                 sum's sign)
 *   fma           f64: per link of the chain, the specials, or the exact value and its rounding
 *   sequence-add  Hopper mma m8n8k4 (measured): per f32 addition of the sequence, its terms and
 *                 the specials, or the exact value and its rounding (or the zero's sign); for an
 *                 .f16 result then the last sum's rounding to f16
 *   result        d in its register
 */
import type { Form } from '../../src/catalog/instruction.ts';
import { TENSOR_CORE_MODELS } from '../../src/catalog/tensor-core-models.ts';
import {
  decodeCvt,
  REF_CVT_FORMATS,
  type RefCvtFormat,
  type RefCvtFormatName,
  type RefCvtValue,
} from './cvt-formats.ts';
import { finiteText, floorLog2 } from './exact-text.ts';
import { abs, isZero, mul, pow2, rational, sub, type Rational } from './rational.ts';
import {
  refArchitectureOf,
  refDotProduct,
  refPlan,
  refSequenceOf,
  hopperMeasured,
  refUnsettled,
  type RefAccumulator,
  type RefAdd,
  type RefInput,
  type RefOperand,
  type RefLink,
  type RefSetup,
  type RefSpecial,
  type RefStep,
} from './tensor-core-ref.ts';
import {
  bitsAt,
  elementRead,
  ieee,
  ptx,
  resultStep,
  type BitRange,
  type ExpectedElement,
  type ExpectedStep,
  type ModelRegisters,
  type RuleExpectation,
} from './trace-expect.ts';
import { roundModel } from './trace-round.ts';
import { formatHex, valueTextOf, viewOf } from './trace-views.ts';

/** Where the engine's target default lands when a vector names none: sm_90 (decision mma-default-target). */
const DEFAULT_TARGET = 'sm_90';

/** The container of an element of a row or column, and its value bits within it. */
function container(format: RefCvtFormatName): { bits: number; value: BitRange } {
  switch (format) {
    case 'tf32':
      return { bits: 32, value: { hi: 31, lo: 13 } };
    case 'e2m1':
      return { bits: 8, value: { hi: 5, lo: 2 } };
    case 'e2m3':
    case 'e3m2':
      return { bits: 8, value: { hi: 5, lo: 0 } };
    default: {
      const total = REF_CVT_FORMATS[format].totalBits;
      return { bits: total, value: { hi: total - 1, lo: 0 } };
    }
  }
}

/** The matrix form's types as the reference names them, from the form's type as written. */
function typesOf(form: Form): { d: RefAccumulator; a: RefInput; b: RefInput; c: RefAccumulator } {
  const [d, a, b, c = d] = form.type.split('.');
  return { d, a, b, c } as { d: RefAccumulator; a: RefInput; b: RefInput; c: RefAccumulator };
}

const model = (section: string, ...mentions: RegExp[]): RuleExpectation => ({
  source: 'tensor-core-model',
  section,
  mentions,
});

const view = (bits: bigint, name: RefCvtFormatName) => viewOf(bits, REF_CVT_FORMATS[name]);

/** The trace's texts of a term's value: a zero keeps the sign it has. */
const text = (q: Rational, negativeZero = false) => finiteText(q, negativeZero);

/** |x| in binary with its point, no trailing zeros after it: "10.0110001"; "0". */
function binaryPoint(x: Rational): string {
  const m = abs(x);
  if (isZero(m)) return '0';
  // m = num / 2^j (num odd when j > 0).
  let j = 0;
  let den = m.den;
  while (den > 1n) {
    den /= 2n;
    j++;
  }
  const digits = m.num.toString(2).padStart(j + 1, '0');
  return j === 0
    ? digits
    : `${digits.slice(0, digits.length - j)}.${digits.slice(digits.length - j)}`;
}

/** |kept| / 2^E with exactly n fraction digits. */
function keptBitsOf(kept: Rational, E: number, n: number): string {
  const units = mul(abs(kept), pow2(n - E)); // an integer
  const digits = units.num.toString(2).padStart(n + 1, '0');
  return `${digits.slice(0, digits.length - n)}.${digits.slice(digits.length - n)}`;
}

/** The bits of |cut| below 2^q, first weighing 2^(q−1), trailing zeros dropped. */
function cutBitsOf(cut: Rational, q: number): { bits: string; top: number } {
  const m = abs(cut);
  if (isZero(m)) return { bits: '', top: q - 1 };
  // m = odd / 2^j: the digits from 2^(q−1) down to 2^(−j).
  let j = 0;
  let num = m.num;
  let den = m.den;
  while (den > 1n) {
    den /= 2n;
    j++;
  }
  while (num % 2n === 0n) {
    num /= 2n;
    j--;
  }
  return { bits: num.toString(2).padStart(q + j, '0'), top: q - 1 };
}

const refOf = (r: { operand: string; index: number }) => ({ operand: r.operand, index: r.index });

/** The special step of a fused step or an f64 link. */
function specialStep(
  why: RefSpecial,
  result: bigint,
  format: RefCvtFormatName,
  rule: RuleExpectation,
  elements: boolean,
): ExpectedStep {
  const nan = why.reason !== 'infinite-term';
  const invalid = why.reason === 'infinity-times-zero' || why.reason === 'opposite-infinities';
  return {
    kind: 'special',
    case: why.reason === 'nan-operand' ? 'nan-operand' : invalid ? 'invalid' : 'infinity',
    ...(invalid ? { detail: why.reason === 'infinity-times-zero' ? '0 × ∞' : '∞ − ∞' } : {}),
    ...(elements ? { elements: why.elements.map(refOf) } : {}),
    result: view(result, format),
    ...(nan ? { decision: 'canonical-nan' } : {}),
    rule,
  };
}

/** The round step of x (nonzero) to d's format keeping `fractionBits`, and its overflow step. */
function roundSteps(
  x: Rational,
  format: 'f16' | 'f32' | 'f64',
  fractionBits: number,
  mode: string,
  rule: RuleExpectation,
  overflowDecision?: string,
  /** An overflow gives ±∞ whatever the mode (measured on sm_90, mma-f32-overflow-sm90). */
  overflowToInfinity = false,
): { steps: ExpectedStep[]; result: bigint } {
  const full = REF_CVT_FORMATS[format];
  const reduced = fractionBits < full.fractionBits;
  const shift = full.fractionBits - fractionBits;
  // A narrower f32: f32's exponent range with 13 fraction bits, its patterns f32's shifted right.
  const fmt: RefCvtFormat = reduced
    ? {
        ...full,
        fractionBits,
        totalBits: full.totalBits - shift,
        maxPattern: full.maxPattern >> BigInt(shift),
        nanPattern: full.nanPattern! >> BigInt(shift),
      }
    : full;
  const r = roundModel(x, fmt, mode);
  const wide = (hex: unknown) =>
    hex === null ? null : formatHex(BigInt(hex as string) << BigInt(shift), full);
  const fields = reduced
    ? {
        ...r.fields,
        lower: wide(r.fields.lower),
        upper: wide(r.fields.upper),
        result: wide(r.fields.result),
        fractionBits,
      }
    : r.fields;
  const steps: ExpectedStep[] = [{ kind: 'round', ...fields, rule }];
  if (!r.overflow) return { steps, result: r.result! << BigInt(shift) };
  const negative = x.num < 0n;
  const sign = negative ? 1n << BigInt(full.totalBits - 1) : 0n;
  const away = r.away || overflowToInfinity;
  const result = sign | (away ? full.maxPattern + 1n : fmt.maxPattern << BigInt(shift));
  steps.push({
    kind: 'overflow',
    mode,
    to: away ? 'infinity' : 'max-norm',
    result: view(result, format),
    ...(overflowDecision ? { decision: overflowDecision } : {}),
    rule: ieee('7.4', /overflow/),
  });
  return { steps, result };
}

function fusedSteps(
  step: RefStep,
  setup: RefSetup,
  k: number,
  name: string,
  part: number,
  parts: number,
): ExpectedStep {
  const plan = refPlan(setup, k);
  const measured = hopperMeasured(setup, k);
  const d = setup.dtype as 'f16' | 'f32';
  const inner: ExpectedStep[] = [];
  if (step.why) {
    inner.push(specialStep(step.why, step.d, d, model(name, /NaN/, /infinit/), true));
  } else {
    const E = step.E!;
    const q = E - plan.n;
    const rawTerms = step.terms;
    const sources = rawTerms.map((_, j) =>
      j === 0 ? { source: 'c', index: 0 } : { source: 'product', index: step.from + j - 1 },
    );
    inner.push({
      kind: 'terms',
      terms: rawTerms.map((t, j) => ({
        ...sources[j],
        value: text(t.value, t.negativeZero),
        zero: isZero(t.value),
        significand: text(t.significand),
        significandBits: binaryPoint(t.significand),
        exponent: t.exponent,
      })),
      largestExponent: E,
      atLargest: rawTerms.flatMap((t, j) => (t.exponent === E ? [j] : [])),
      rule: model(name, /significand × 2\^exponent/, /largest exponent/),
    });
    const reduced = plan.n === 13;
    inner.push({
      kind: 'align',
      alignmentBits: plan.n,
      quantumExponent: q,
      terms: rawTerms.map((t, j) => ({
        ...sources[j],
        shift: E - t.exponent,
        keptBits: keptBitsOf(t.kept, E, plan.n),
        kept: text(t.kept),
        cutBits: cutBitsOf(t.cut, q),
        cut: text(t.cut),
        cutUlps: text(mul(t.cut, pow2(-step.ulpExponent))),
      })),
      ulpExponent: step.ulpExponent,
      rule: model(name, /truncated toward zero/, ...(reduced ? [/n = 13/] : [])),
    });
    const kept = step.keptSum!;
    const lost = sub(step.exactSum!, kept);
    inner.push({
      kind: 'sum',
      kept: text(kept),
      exact: text(step.exactSum!),
      lost: text(lost),
      lostUlps: text(mul(lost, pow2(-step.ulpExponent))),
      ulpExponent: step.ulpExponent,
      normalisation: isZero(kept)
        ? null
        : { exponent: floorLog2(kept), shift: floorLog2(kept) - E },
      rule: model(name, /added exactly/),
    });
    if (isZero(kept)) {
      inner.push({
        kind: 'special',
        case: 'exact-zero',
        result: view(step.d, d),
        decision: measured ? 'mma-zero-sign-sm90' : 'mma-zero-sign',
        rule: model(name, /zero/),
      });
    } else {
      const words = d === 'f16' ? /nearest even/ : /truncation/;
      const rounded = roundSteps(
        kept,
        d,
        plan.fractionBits,
        plan.mode,
        model(name, words, ...(reduced && d === 'f32' ? [/13 fraction bits/] : [])),
        d === 'f32' ? (measured ? 'mma-f32-overflow-sm90' : 'mma-f32-overflow') : undefined,
        measured && d === 'f32',
      );
      if (rounded.result !== step.d) throw new Error('the round model and the reference differ');
      inner.push(...rounded.steps);
    }
  }
  const unsettled = refUnsettled(setup, k);
  return {
    kind: 'fused',
    part,
    parts,
    products: { from: step.from, to: step.to },
    c: view(step.c, step.cFormat),
    cFrom: part === 0 ? 'operand' : 'first-half',
    steps: inner,
    result: view(step.d, d),
    ...(unsettled ? { decision: unsettled } : {}),
    rule: model(name, parts === 2 ? /two halves/ : /published/),
  };
}

function fmaStep(
  link: RefLink,
  index: number,
  a: bigint,
  b: bigint,
  accumulator: bigint,
  mode: string,
  section: string,
  name: string,
): ExpectedStep {
  const inner: ExpectedStep[] = [];
  const expression = `a[${index}] × b[${index}] + d`;
  if (link.why) {
    const words: Record<string, RuleExpectation> = {
      'nan-operand': ieee('6.2', /NaN/),
      'infinity-times-zero': ieee('7.2', /0 × ∞/),
      'opposite-infinities': ieee('7.2', /∞ − ∞/),
      'infinite-term': ieee('6.1', /infinit/),
    };
    inner.push(specialStep(link.why, link.d, 'f64', words[link.why.reason]!, false));
  } else if (isZero(link.exact!)) {
    inner.push(
      {
        kind: 'exact',
        expression,
        value: text(rational(0n)),
        representable: true,
        rule: ptx(section, /fused multiply-add/),
      },
      {
        kind: 'special',
        case: 'exact-zero',
        result: view(link.d, 'f64'),
        rule: ieee('6.3', /zero/),
      },
    );
  } else {
    const rounded = roundSteps(link.exact!, 'f64', 52, mode, ptx(section, /mantissa LSB rounds/));
    if (rounded.result !== link.d) throw new Error('the round model and the reference differ');
    const round = rounded.steps[0]!;
    inner.push(
      {
        kind: 'exact',
        expression,
        value: text(link.exact!),
        representable: round.inexact === false,
        rule: ptx(section, /fused multiply-add/),
      },
      ...rounded.steps,
    );
  }
  return {
    kind: 'fma',
    index,
    a: view(a, 'f64'),
    b: view(b, 'f64'),
    accumulator: view(accumulator, 'f64'),
    steps: inner,
    result: view(link.d, 'f64'),
    rule: model(name, /fused multiply-add/),
  };
}

/** A value's texts: a NaN's "NaN", an infinity's ±inf, a finite value's (a zero with its sign). */
function valueText(v: RefCvtValue) {
  if (v.kind === 'finite') return text(v.q, v.negative);
  // The f32 patterns of a NaN and of the infinity give the same texts.
  const f32 = REF_CVT_FORMATS.f32;
  return valueTextOf(
    v.kind === 'nan' ? f32.nanPattern! : (v.negative ? 1n << 31n : 0n) | (f32.maxPattern + 1n),
    f32,
  );
}

/** An addition's term as the trace writes it, and in its expression. */
function operandOf(
  o: RefOperand,
  v: RefCvtValue,
  c: { bits: bigint; format: RefAccumulator },
  adds: readonly RefAdd[],
): { operand: Record<string, unknown>; expression: string } {
  switch (o.source) {
    case 'product':
      return {
        operand: { source: 'product', index: o.index, value: valueText(v) },
        expression: `a[${o.index}] × b[${o.index}]`,
      };
    case 'c':
      return { operand: { source: 'c', value: view(c.bits, c.format) }, expression: 'c' };
    case 'zero':
      return { operand: { source: 'zero', value: view(0n, 'f32') }, expression: '+0' };
    case 'sum':
      return {
        operand: { source: 'sum', index: o.index, value: view(adds[o.index]!.d, 'f32') },
        expression: `s${o.index}`,
      };
  }
}

/** One f32 addition of a measured sequence. */
function sequenceAddStep(
  adds: readonly RefAdd[],
  index: number,
  c: { bits: bigint; format: RefAccumulator },
  name: string,
): ExpectedStep {
  const add = adds[index]!;
  const [x, y] = add.terms.map((t, j) => operandOf(t, add.values[j]!, c, adds));
  const expression = `${x!.expression} + ${y!.expression}`;
  const words = model(name, /measured/, /nearest even/);
  const inner: ExpectedStep[] = [];
  if (add.why) {
    const rules: Record<string, RuleExpectation> = {
      'nan-operand': ieee('6.2', /NaN/),
      'infinity-times-zero': ieee('7.2', /0 × ∞/),
      'opposite-infinities': ieee('7.2', /∞ − ∞/),
      'infinite-term': ieee('6.1', /infinit/),
    };
    inner.push(
      specialStep({ reason: add.why, elements: [] }, add.d, 'f32', rules[add.why]!, false),
    );
  } else if (isZero(add.exact!)) {
    inner.push(
      { kind: 'exact', expression, value: text(rational(0n)), representable: true, rule: words },
      {
        kind: 'special',
        case: 'exact-zero',
        result: view(add.d, 'f32'),
        rule: ieee('6.3', /zero/),
      },
    );
  } else {
    const rounded = roundSteps(add.exact!, 'f32', 23, 'rn', words);
    if (rounded.result !== add.d) throw new Error('the round model and the reference differ');
    inner.push(
      {
        kind: 'exact',
        expression,
        value: text(add.exact!),
        representable: rounded.steps[0]!.inexact === false,
        rule: words,
      },
      ...rounded.steps,
    );
  }
  return {
    kind: 'sequence-add',
    index,
    terms: [x!.operand, y!.operand],
    steps: inner,
    result: view(add.d, 'f32'),
    decision: 'mma-sm90-differing-forms',
    rule: words,
  };
}

/** An .f16 sequence's last f32 sum to f16, to nearest even, or the special that decides it. */
function sequenceResultSteps(last: bigint, d: bigint, name: string): ExpectedStep[] {
  const words = model(name, /measured/, /f16/);
  const v = decodeCvt(last, REF_CVT_FORMATS.f32);
  if (v.kind !== 'finite' || isZero(v.q))
    return [
      {
        kind: 'special',
        case: v.kind === 'nan' ? 'nan-operand' : v.kind === 'inf' ? 'infinity' : 'exact-zero',
        result: view(d, 'f16'),
        ...(v.kind === 'nan' ? { decision: 'canonical-nan' } : {}),
        rule: words,
      },
    ];
  const rounded = roundSteps(v.q, 'f16', 10, 'rn', words);
  if (rounded.result !== d) throw new Error('the round model and the reference differ');
  const [round, ...rest] = rounded.steps;
  return [{ ...round!, decision: 'mma-sm90-differing-forms' }, ...rest];
}

/** The one element of a matrix form: its steps, its result, and d. */
export function matrixElements(
  form: Form,
  registers: ModelRegisters,
  target: string | undefined,
): { elements: ExpectedElement[]; d: bigint } {
  const section = form.section.section;
  const types = typesOf(form);
  const k = form.matrix!.shape.k;
  const onTarget = target ?? DEFAULT_TARGET;
  const architecture = refArchitectureOf(onTarget);
  if (!architecture) throw new Error(`no model for ${onTarget}`);
  const catalog = TENSOR_CORE_MODELS.find((m) => m.architecture === architecture)!;
  const setup: RefSetup = {
    architecture,
    instruction: form.matrix!.instruction,
    atype: types.a,
    btype: types.b,
    ctype: types.c,
    dtype: types.d,
    mode: (['rz', 'rm', 'rp'].find((m) => form.text.endsWith(`.${m}`)) ?? 'rn') as RefSetup['mode'],
  };

  // Inputs, each in its container.
  const reads: Record<string, unknown>[] = [];
  const given: Record<'a' | 'b' | 'c', bigint[]> = { a: [], b: [], c: [] };
  let padded = false;
  for (const [operand, format, count] of [
    ['a', types.a, k],
    ['b', types.b, k],
    ['c', types.c, 1],
  ] as const) {
    const box = container(format);
    const register = registers[operand] ?? 0n;
    for (let i = 0; i < count; i++) {
      const lo = i * box.bits;
      const slot = { hi: lo + box.bits - 1, lo };
      const value = { hi: lo + box.value.hi, lo: lo + box.value.lo };
      const read = elementRead(operand, register, slot, value, (bits) => view(bits, format));
      if (read.padding !== null && BigInt(read.padding as string) !== 0n) padded = true;
      reads.push(read);
      // The reference reads tf32 as its .b32 register; the others as their own bits.
      given[operand].push(format === 'tf32' ? bitsAt(register, slot) : bitsAt(register, value));
    }
  }
  const tf32 = types.a === 'tf32';
  const steps: ExpectedStep[] = [
    {
      kind: 'inputs',
      operands: reads,
      ...(tf32 ? { decision: 'cvt-tf32-layout' } : padded ? { decision: 'cvt-input-padding' } : {}),
      rule: ptx(section, /row of A/, /column of B/),
    },
  ];

  const ref = refDotProduct(setup, given.a, given.b, given.c[0]!);
  const plan = refPlan(setup, k);
  const f64 = types.a === 'f64';
  const sequence = refSequenceOf(setup, k);
  steps.push({
    kind: 'tensor-model',
    target: onTarget,
    architecture,
    name: catalog.name,
    sources: catalog.sources,
    fused:
      f64 || sequence
        ? null
        : {
            alignmentBits: plan.n,
            halves: plan.halves,
            result: { format: types.d, fractionBits: plan.fractionBits, mode: plan.mode },
          },
    chain: f64 ? { mode: setup.mode } : null,
    sequence: sequence
      ? {
          kind: sequence,
          result: types.d,
          measuredOn: catalog.measured.find((r) => r.instructions.includes('mma'))!.on,
          capture: catalog.measured.find((r) => r.instructions.includes('mma'))!.capture,
        }
      : null,
    ...(target === undefined ? { decision: 'mma-default-target' } : {}),
    rule: model(catalog.name, f64 ? /fused multiply-adds/ : sequence ? /measured/ : /published/),
  });
  if (sequence) {
    const c = { bits: given.c[0]!, format: types.c };
    ref.adds.forEach((_, i) => steps.push(sequenceAddStep(ref.adds, i, c, catalog.name)));
    if (ref.last !== null) steps.push(...sequenceResultSteps(ref.last, ref.d, catalog.name));
  } else if (f64) {
    let accumulator = given.c[0]!;
    ref.links.forEach((link, i) => {
      steps.push(
        fmaStep(link, i, given.a[i]!, given.b[i]!, accumulator, setup.mode!, section, catalog.name),
      );
      accumulator = link.d;
    });
  } else {
    ref.steps.forEach((step, part) =>
      steps.push(fusedSteps(step, setup, k, catalog.name, part, ref.steps.length)),
    );
  }
  const dBits = REF_CVT_FORMATS[types.d].totalBits;
  const d = { hi: dBits - 1, lo: 0 };
  const result = view(ref.d, types.d);
  steps.push(resultStep(section, d, d, result, /element of D/));
  return { elements: [{ index: 0, steps, result: result.bits }], d: ref.d };
}

/** The width of d's register: its format's. */
export function matrixDBits(form: Form): number {
  return REF_CVT_FORMATS[typesOf(form).d].totalBits;
}
