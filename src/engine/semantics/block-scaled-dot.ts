/**
 * Block-scaled mma (9.7.14.3, `.kind::mxf8f6f4` / `.kind::mxf4` / `.kind::mxf4nvf4` with
 * `.block_scale`): one output element, d = c + Σ_i (a_i · SF_A(i)) · (b_i · SF_B(i)), where
 * SF_A(i) is the scale of the chunk of A's row that holds element i, SF_B(i) likewise for B's
 * column (scale_vec::1X: one chunk of k; 2X: two; 4X: four). The PTX ISA says only
 * D = (A * scale_A) * (B * scale_B) + C; what the GPU computes is the published model
 * (../shared/spec/beyond/tensor-cores.md, "Block scaling"):
 *
 *   specials:   a NaN scale or a NaN c → 0x7FFFFFFF; a NaN element, a product ∞ × 0, or +∞ and
 *               −∞ among the terms → the canonical NaN; otherwise an infinite term → that infinity
 *   scales:     UE8M0: 2^(bits − 127); UE4M3: the e4m3 value of the low 7 bits (its sign bit is
 *               ignored)
 *   mxf8f6f4:   k = 32, one scale each (1X)
 *               terms: c = s_c·2^e_c (f32: 1 ≤ s < 2, s < 1 at the least exponent), and each
 *               product (s_a·s_b)·2^(e_a + e_b + x_A + x_B), x the scales' exponents; a zero at
 *               2^−126
 *               n = 25
 *   mxf4, mxf4nvf4: k = 64; each group of 16 products summed exactly (G_j), multiplied by its
 *               two scales; terms: c and the scaled group sums, each at its own exponent
 *               floor(log2 |t|) (a zero at 2^−126; a zero group sum is −0 only where its
 *               16 products are all −0)
 *               n = 35
 *   E = the largest exponent; each term truncated toward zero to a multiple of 2^(E − n); S the
 *   exact sum of the truncated terms; d = S rounded toward zero to f32 (23 fraction bits,
 *   subnormals kept); S = 0 → −0 when every term is a −0, else +0 (decision mma-zero-sign);
 *   past the largest finite value: the largest finite value, as round toward zero gives
 *   (decision mma-f32-overflow).
 *
 * The rounding goes through rounding.ts and the overflow through nvidia-rules.ts; the cut is
 * dot-product.ts's. In the pipeline (a catalog form with `.block_scale`,
 * records/block-scaled-mma.ts) the steps are steps.ts's `tensor-model` (the target's model, for its name and sources: every
 * architecture with these forms computes them alike) and `block-scale`.
 */
import type { Form } from '../../catalog/instruction.ts';
import { DEFAULT_EVAL_TARGET } from '../../catalog/targets.ts';
import { TENSOR_CORE_RULES } from '../../catalog/tensor-core-models.ts';
import { add, exactValueOfDyadic, ilog2, isZero, multiply, ZERO } from '../exact.ts';
import { bitsView, exactValueOfValue, FORMATS, valueOfBits, withSign } from '../format.ts';
import { overflowResult } from '../nvidia-rules.ts';
import { dyadicMagnitude, roundToFormat } from '../rounding.ts';
import type { Dyadic, ExactValue, RuleRef, Value } from '../value.ts';
import type { ElementContext, Input, Outcome } from './context.ts';
import { cutAt, modelOfTarget } from './dot-product.ts';

export const BLOCK_SCALED_KINDS = ['mxf8f6f4', 'mxf4', 'mxf4nvf4'] as const;
export type BlockScaledKind = (typeof BLOCK_SCALED_KINDS)[number];
export type ScaleVector = '1X' | '2X' | '4X';
export type BlockElementType = 'e4m3' | 'e5m2' | 'e3m2' | 'e2m3' | 'e2m1';
export type ScaleType = 'ue8m0' | 'ue4m3';

export interface BlockScaledDotRequest {
  readonly kind: BlockScaledKind;
  readonly scaleVec: ScaleVector;
  readonly atype: BlockElementType;
  readonly btype: BlockElementType;
  readonly stype: ScaleType;
  /** A's row and B's column: k element patterns each (k = 32 for mxf8f6f4, else 64). */
  readonly a: readonly bigint[];
  readonly b: readonly bigint[];
  /** The f32 accumulator's bits. */
  readonly c: bigint;
  /** One scale pattern per chunk of the row / column: 1, 2 or 4 (the scale_vec). */
  readonly scaleA: readonly bigint[];
  readonly scaleB: readonly bigint[];
}

export type BlockScaledDotErrorCode = 'combination' | 'count' | 'bits';

export interface BlockScaledDotError {
  readonly ok: false;
  readonly code: BlockScaledDotErrorCode;
  readonly message: string;
}

/** A term of the final alignment: c, a scaled product (mxf8f6f4) or a scaled group sum. */
export interface BlockScaledTerm {
  readonly source: 'c' | 'product' | 'group';
  /** The product's element index, or the group's (0 … 3); 0 for c. */
  readonly index: number;
  readonly value: ExactValue;
  readonly exponent: number;
  /** The term truncated to a multiple of 2^(E − n). */
  readonly kept: ExactValue;
}

export interface BlockScaledDot {
  readonly ok: true;
  readonly k: 32 | 64;
  /** The alignment's fractional bits: 25 (mxf8f6f4) or 35. */
  readonly n: number;
  /** Each chunk's two scales, as values. */
  readonly scales: readonly { readonly a: ExactValue; readonly b: ExactValue }[];
  /** The special case that decided d, or null. */
  readonly special: 'nan-scale' | 'nan-c' | 'nan-operand' | 'invalid' | 'infinity' | null;
  /** mxf4 / mxf4nvf4: the exact sums of 16 products, before their scales. */
  readonly groups: readonly ExactValue[];
  readonly terms: readonly BlockScaledTerm[];
  /** The largest exponent among the terms; null for a special. */
  readonly largestExponent: number | null;
  /** The exact c + Σ scaled products, and the truncated terms' sum. */
  readonly exact: ExactValue;
  readonly kept: ExactValue;
  /** d, f32 bits, and its value. */
  readonly d: bigint;
  readonly value: ExactValue;
  /** The documented decisions d relies on. */
  readonly decisions: readonly ('mma-zero-sign' | 'mma-f32-overflow')[];
}

/** Table 36: the element and scale types and scale_vec each kind takes. */
const COMBINATIONS: Record<
  BlockScaledKind,
  {
    readonly k: 32 | 64;
    readonly elements: readonly BlockElementType[];
    readonly scales: readonly (readonly [ScaleType, ScaleVector])[];
  }
> = {
  mxf8f6f4: {
    k: 32,
    elements: ['e4m3', 'e5m2', 'e3m2', 'e2m3', 'e2m1'],
    scales: [['ue8m0', '1X']],
  },
  mxf4: { k: 64, elements: ['e2m1'], scales: [['ue8m0', '2X']] },
  mxf4nvf4: {
    k: 64,
    elements: ['e2m1'],
    scales: [
      ['ue8m0', '2X'],
      ['ue4m3', '4X'],
    ],
  },
};

const CHUNKS: Record<ScaleVector, number> = { '1X': 1, '2X': 2, '4X': 4 };
const GROUP = 16;
const ZERO_EXPONENT = -126;
const F32 = FORMATS.f32;
/** A NaN scale or c: 0x7FFFFFFF (tensor-cores.md). */
const NAN_BITS = 0x7fffffffn;

function fail(code: BlockScaledDotErrorCode, message: string): BlockScaledDotError {
  return { ok: false, code, message };
}

function check(r: BlockScaledDotRequest): BlockScaledDotError | null {
  const combo = COMBINATIONS[r.kind];
  if (!combo)
    return fail('combination', `unknown kind ${String(r.kind)}; kinds: mxf8f6f4, mxf4, mxf4nvf4`);
  if (!combo.elements.includes(r.atype) || !combo.elements.includes(r.btype))
    return fail(
      'combination',
      `.kind::${r.kind} takes .${combo.elements.join(', .')} elements; .${r.atype} × .${r.btype} given`,
    );
  if (!combo.scales.some(([s, v]) => s === r.stype && v === r.scaleVec))
    return fail(
      'combination',
      `.kind::${r.kind} takes ${combo.scales.map(([s, v]) => `.scale_vec::${v} with .${s}`).join(' or ')}; .scale_vec::${r.scaleVec} with .${r.stype} given`,
    );
  const chunks = CHUNKS[r.scaleVec];
  for (const [name, list, width] of [
    ['a', r.a, FORMATS[r.atype].width],
    ['b', r.b, FORMATS[r.btype].width],
    ['scale_a', r.scaleA, 8],
    ['scale_b', r.scaleB, 8],
  ] as const) {
    const want = name.startsWith('scale') ? chunks : combo.k;
    if (list.length !== want)
      return fail(
        'count',
        `${name} holds ${list.length} ${name.startsWith('scale') ? 'scales' : 'elements'}; .kind::${r.kind}${name.startsWith('scale') ? ` with .scale_vec::${r.scaleVec}` : ''} takes ${want}`,
      );
    const bad = list.findIndex((x) => x < 0n || x >> BigInt(width) !== 0n);
    if (bad >= 0) return fail('bits', `${name}[${bad}] is not a ${width}-bit pattern`);
  }
  if (r.c < 0n || r.c >> 32n !== 0n) return fail('bits', 'c is not a 32-bit pattern');
  return null;
}

function scaleValue(bits: bigint, stype: ScaleType): Value {
  // UE4M3: the sign bit of its byte is ignored (tensor-cores.md).
  return stype === 'ue8m0'
    ? valueOfBits(bits, FORMATS.ue8m0)
    : valueOfBits(bits & 0x7fn, FORMATS.ue4m3);
}

const finite = (v: Value): Dyadic => {
  if (v.kind !== 'finite') throw new Error('a special value reached the terms');
  return v.x;
};

/** |x| = s × 2^e with e = max(floor(log2 |x|), emin); a zero at 2^−126. */
function exponentOf(x: Dyadic, emin: number): number {
  return isZero(x) ? ZERO_EXPONENT : Math.max(ilog2(x), emin);
}

interface Term {
  readonly source: 'c' | 'product' | 'group';
  readonly index: number;
  readonly value: Dyadic;
  readonly exponent: number;
}

export function blockScaledDot(r: BlockScaledDotRequest): BlockScaledDot | BlockScaledDotError {
  const problem = check(r);
  if (problem) return problem;
  const { k } = COMBINATIONS[r.kind];
  const chunk = k / CHUNKS[r.scaleVec];
  const sa = r.scaleA.map((s) => scaleValue(s, r.stype));
  const sb = r.scaleB.map((s) => scaleValue(s, r.stype));
  const scales = sa.map((x, j) => ({
    a: exactValueOfValue(x),
    b: exactValueOfValue(sb[j]!),
  }));
  const a = r.a.map((x) => valueOfBits(x, FORMATS[r.atype]));
  const b = r.b.map((x) => valueOfBits(x, FORMATS[r.btype]));
  const c = valueOfBits(r.c, F32);
  const base = { ok: true as const, k, n: r.kind === 'mxf8f6f4' ? 25 : 35, scales };
  const special = (kind: NonNullable<BlockScaledDot['special']>, d: bigint): BlockScaledDot => {
    const value = exactValueOfBits(d);
    return {
      ...base,
      special: kind,
      groups: [],
      terms: [],
      largestExponent: null,
      exact: value,
      kept: value,
      d,
      value,
      decisions: [],
    };
  };

  // Specials first: a NaN scale or c, then the elements' NaNs and infinities.
  if ([...sa, ...sb].some((v) => v.kind === 'nan')) return special('nan-scale', NAN_BITS);
  if (c.kind === 'nan') return special('nan-c', NAN_BITS);
  if ([...a, ...b].some((v) => v.kind === 'nan')) return special('nan-operand', F32.canonicalNaN!);
  const infinities: boolean[] = c.kind === 'inf' ? [c.negative] : [];
  for (let i = 0; i < k; i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (x.kind === 'inf' || y.kind === 'inf') {
      const zero = (v: Value) => v.kind === 'finite' && isZero(v.x);
      if (zero(x) || zero(y)) return special('invalid', F32.canonicalNaN!);
      const neg = (v: Value) =>
        v.kind === 'finite' ? v.x.negative : v.kind === 'inf' && v.negative;
      infinities.push(neg(x) !== neg(y));
    }
  }
  if (infinities.length > 0) {
    if (infinities.some((n) => n) && infinities.some((n) => !n))
      return special('invalid', F32.canonicalNaN!);
    return special('infinity', withSign(F32.infBits!, infinities[0]!, F32));
  }

  // The terms: c, then the scaled products (mxf8f6f4) or the scaled group sums.
  const cx = finite(c);
  const terms: Term[] = [{ source: 'c', index: 0, value: cx, exponent: exponentOf(cx, F32.emin) }];
  const scaleOf = (i: number) =>
    multiply(finite(sa[Math.floor(i / chunk)]!), finite(sb[Math.floor(i / chunk)]!));
  const groups: Dyadic[] = [];
  if (r.kind === 'mxf8f6f4') {
    const ea = FORMATS[r.atype].emin;
    const eb = FORMATS[r.btype].emin;
    for (let i = 0; i < k; i++) {
      const x = finite(a[i]!);
      const y = finite(b[i]!);
      const s = finite(sa[0]!);
      const t = finite(sb[0]!);
      const value = multiply(multiply(x, y), multiply(s, t));
      const exponent =
        isZero(x) || isZero(y)
          ? ZERO_EXPONENT
          : exponentOf(x, ea) + exponentOf(y, eb) + ilog2(s) + ilog2(t);
      terms.push({ source: 'product', index: i, value, exponent });
    }
  } else {
    for (let g = 0; g < k / GROUP; g++) {
      const products = a
        .slice(g * GROUP, (g + 1) * GROUP)
        .map((x, j) => multiply(finite(x), finite(b[g * GROUP + j]!)));
      const exactSum = products.reduce((t, p) => add(t, p), ZERO);
      // A zero group sum is −0 only where every product is −0, as an exact IEEE sum.
      const sum = isZero(exactSum)
        ? { ...exactSum, negative: products.every((p) => p.negative) }
        : exactSum;
      groups.push(sum);
      const value = multiply(sum, scaleOf(g * GROUP));
      terms.push({ source: 'group', index: g, value, exponent: exponentOf(value, -Infinity) });
    }
  }

  // Align: each term truncated toward zero to a multiple of 2^(E − n); the kept terms summed.
  const E = Math.max(...terms.map((t) => t.exponent));
  const q = E - base.n;
  const kept = terms.map((t) => {
    const cut = cutAt(t.value, q);
    return { negative: t.value.negative && cut.kept !== 0n, mant: cut.kept, exp: q };
  });
  const sum = kept.reduce((s, t) => add(s, t), ZERO);
  const exact = terms.reduce((s, t) => add(s, t.value), ZERO);

  // Round once toward zero to f32, or a zero sum's sign, or an overflow's largest finite value.
  let d: bigint;
  const decisions: BlockScaledDot['decisions'][number][] = [];
  if (isZero(sum)) {
    const negative = terms.every((t) => isZero(t.value) && t.value.negative);
    d = withSign(0n, negative, F32);
    decisions.push('mma-zero-sign');
  } else {
    const rounded = roundToFormat(dyadicMagnitude(sum), F32, 'rz');
    if (rounded.overflow) {
      d = overflowResult(F32, sum.negative, rounded.awayFromZero).bits;
      decisions.push('mma-f32-overflow');
    } else d = rounded.bits!;
  }
  return {
    ...base,
    special: null,
    groups: groups.map(exactValueOfDyadic),
    terms: terms.map((t, j) => ({
      source: t.source,
      index: t.index,
      value: exactValueOfDyadic(t.value),
      exponent: t.exponent,
      kept: exactValueOfDyadic(kept[j]!),
    })),
    largestExponent: E,
    exact: exactValueOfDyadic(exact),
    kept: exactValueOfDyadic(sum),
    d,
    value: exactValueOfBits(d),
    decisions,
  };
}

const exactValueOfBits = (bits: bigint): ExactValue => exactValueOfValue(valueOfBits(bits, F32));

/** The element types a kind takes (Table 36), for pickers and messages. */
export function blockScaledElements(kind: BlockScaledKind): readonly BlockElementType[] {
  return COMBINATIONS[kind].elements;
}

// --- In the pipeline ------------------------------------------------------------------------

/** Where a traced evaluation records its steps; null when only d is wanted. */
type Sink = ElementContext['recordRule'] | null;

/**
 * A block-scaled form's one element from the pipeline's inputs — a_0 … a_(k−1), b_0 … b_(k−1),
 * c, then the scales of the row and of the column (catalog/generate.ts) — by blockScaledDot
 * above: the model's step, the block-scaled step, and d.
 */
function blockScaledElement(
  form: Form,
  inputs: readonly Input[],
  target: string | undefined,
  sink: Sink,
): bigint {
  const m = form.matrix!;
  const scale = m.blockScale!;
  const k = m.shape.k;
  const bitsOf = (from: number, count: number) =>
    inputs.slice(from, from + count).map((x) => x.bits);
  const request: BlockScaledDotRequest = {
    kind: scale.kind,
    scaleVec: scale.scaleVec,
    atype: m.types.a as BlockElementType,
    btype: m.types.b as BlockElementType,
    stype: scale.stype,
    a: bitsOf(0, k),
    b: bitsOf(k, k),
    c: inputs[2 * k]!.bits,
    scaleA: bitsOf(2 * k + 1, scale.chunks),
    scaleB: bitsOf(2 * k + 1 + scale.chunks, scale.chunks),
  };
  const dot = blockScaledDot(request);
  // The form's registers give every count and width: a refusal here is a catalog fault.
  if (!dot.ok) throw new Error(`${form.text}: ${dot.message}`);
  if (!sink) return dot.d;
  const model = modelOfTarget(target);
  if (!model) throw new Error(`no tensor-core model for ${target ?? DEFAULT_EVAL_TARGET}`);
  const rule: RuleRef = {
    source: 'tensor-core-model',
    section: model.name,
    text: TENSOR_CORE_RULES.blockScale,
  };
  sink(
    {
      kind: 'tensor-model',
      target: target ?? DEFAULT_EVAL_TARGET,
      architecture: model.architecture,
      name: model.name,
      sources: model.sources,
      fused: {
        alignmentBits: dot.n,
        halves: false,
        result: { format: 'f32', fractionBits: F32.manBits, mode: 'rz' },
      },
      chain: null,
      sequence: null,
    },
    rule,
    target === undefined ? 'mma-default-target' : undefined,
  );
  const scaleFormat = FORMATS[scale.stype];
  sink(
    {
      kind: 'block-scale',
      blockKind: scale.kind,
      scaleVec: scale.scaleVec,
      k,
      chunk: k / scale.chunks,
      alignmentBits: dot.n,
      scales: request.scaleA.map((a, j) => ({
        a: bitsView(a, scaleFormat),
        b: bitsView(request.scaleB[j]!, scaleFormat),
      })),
      special: dot.special,
      groups: dot.groups,
      terms: dot.terms,
      largestExponent: dot.largestExponent,
      exact: dot.exact,
      kept: dot.kept,
      result: bitsView(dot.d, F32),
    },
    rule,
    dot.decisions[0],
  );
  return dot.d;
}

/** The block-scaled dot product in the pipeline: its steps, and d as the value it decided. */
export function blockScaledDotSemantics(ctx: ElementContext, inputs: readonly Input[]): Outcome {
  const bits = blockScaledElement(ctx.form, inputs, ctx.options.target, ctx.recordRule);
  return { kind: 'value', value: { bits } };
}

/** d alone, by the same numbers and without the steps (batches, sweeps). */
export function blockScaledDotBits(form: Form, inputs: readonly Input[]): bigint {
  return blockScaledElement(form, inputs, undefined, null);
}
