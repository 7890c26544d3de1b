import { FORMS } from '../../src/catalog/all-forms.ts';
import type { Form } from '../../src/catalog/instruction.ts';
import {
  BIT_LAYOUTS,
  unbiasedExponent,
  widthMask,
  withExponentField,
  type BitLayout,
} from './bit-layout.ts';
import { EDGE_VALUES, type OperandFormat } from './edges.ts';
import { sampleWords } from './sample.ts';

/**
 * The capture plan: which inputs the harness feeds each form, in which order, and how the
 * results are stored. This file is the single definition of the inputs; hw/gen-forms.ts writes
 * the per-form facts and the edge tables into hw/forms.generated.h, and hw/harness.cuh mirrors
 * `inputsAt` for the GPU.
 */

export type SourceName = 'a' | 'b' | 'c';

/** What the harness needs to know about a form to generate its inputs. */
export interface FormShape {
  readonly form: Form;
  /** Source operands in order, with the format of one lane. */
  readonly sources: readonly { readonly name: SourceName; readonly format: OperandFormat }[];
  readonly lanes: 1 | 2;
  /** Width of the destination register: 16, or 32 for packed x2 and .f32 results. */
  readonly resultBits: 16 | 32;
  readonly family: 'unary' | 'binary' | 'fma-like';
}

/**
 * Input generators, numbered as in hw/forms.generated.h:
 *  - all:         unary, one lane: a = i for every 16-bit pattern i.
 *  - x2-same:     unary x2: both lanes hold i.
 *  - x2-distinct: unary x2: lane 0 holds i, lane 1 holds i ^ 0xFFFF (catches swapped lanes).
 *  - pairs:       binary half forms, index = row·65536 + col: one lane (a, b) = (row, col);
 *                 x2: lane 0 (row, col), lane 1 (col, row), so each lane sees all 2^32 pairs.
 *  - edges:       cross product of EDGE_VALUES over the sources (last source varies fastest);
 *                 x2: lane 0 takes tuple i, lane 1 tuple count-1-i.
 *  - sample:      seeded sample (see sampleTuple); x2: lane 0 sample 2i, lane 1 sample 2i+1.
 *  - nan-probe:   .oob forms, index = position·65536 + v: the source at `position` is v, the
 *                 others 1.0 (a, b) or +0.0 (c); both lanes alike. Looks for a register NaN
 *                 pattern that the hardware treats as OOB-NaN (result +0.0 instead of NaN).
 */
export const GENERATORS = [
  'all',
  'x2-same',
  'x2-distinct',
  'pairs',
  'edges',
  'sample',
  'nan-probe',
] as const;
export type GeneratorName = (typeof GENERATORS)[number];

export type SectionLayout = 'full' | 'hashed-rows';

export interface SectionPlan {
  readonly name: GeneratorName;
  readonly layout: SectionLayout;
  /** Full: number of results. Hashed: number of rows available (each of ROW_LENGTH results). */
  readonly size: number;
}

export const ROW_LENGTH = 65536;
export const DEFAULT_SAMPLE_ROWS = 64;
export const MAX_SAMPLE_ROWS = 65536;
export const DEFAULT_SAMPLE_SEED = 0x5eed0001;

/** An arithmetic form's shape: its source registers with the format of their elements. */
export function shapeOf(form: Form): FormShape {
  if (form.family === 'convert') throw new Error(`${form.text}: cvt forms are cvt-plan.ts's`);
  if (form.family === 'matrix') throw new Error(`${form.text}: mma forms are hw/mma's`);
  const inputs = form.elements[0]!.inputs;
  const sources = form.registers.slice(1).map((r) => ({
    name: r.name as SourceName,
    format: inputs.find((p) => p.operand === r.name)!.format as OperandFormat,
  }));
  const family =
    sources.length === 1 ? 'unary' : sources.some((s) => s.name === 'c') ? 'fma-like' : 'binary';
  return {
    form,
    sources,
    lanes: form.elements.length === 2 ? 2 : 1,
    resultBits: form.registers[0]!.bits as 16 | 32,
    family,
  };
}

export function sectionsOf(shape: FormShape, sampleRows: number): SectionPlan[] {
  switch (shape.family) {
    case 'unary':
      return shape.lanes === 1
        ? [{ name: 'all', layout: 'full', size: 65536 }]
        : [
            { name: 'x2-same', layout: 'full', size: 65536 },
            { name: 'x2-distinct', layout: 'full', size: 65536 },
          ];
    case 'binary':
      return [{ name: 'pairs', layout: 'hashed-rows', size: 65536 }];
    case 'fma-like': {
      const sections: SectionPlan[] = [
        { name: 'edges', layout: 'full', size: edgeTupleCount(shape) },
        { name: 'sample', layout: 'hashed-rows', size: sampleRows },
      ];
      if (shape.form.modifiers.includes('oob'))
        sections.push({ name: 'nan-probe', layout: 'full', size: 3 * 65536 });
      return sections;
    }
  }
}

export function edgeTupleCount(shape: FormShape): number {
  return shape.sources.reduce((n, s) => n * EDGE_VALUES[s.format].length, 1);
}

/** Register bits of the sources, keyed by operand name; absent operands are 0. */
export interface RegisterInputs {
  a: number;
  b: number;
  c: number;
}

/** Register bits of many inputs at once, one array per register (absent operands 0). */
export interface InputArrays {
  readonly a: Uint32Array;
  readonly b: Uint32Array;
  readonly c: Uint32Array;
}

export function inputArrays(length: number): InputArrays {
  return { a: new Uint32Array(length), b: new Uint32Array(length), c: new Uint32Array(length) };
}

/** One lane's source bits, in the order of FormShape.sources (unused places 0). */
type Tuple = [number, number, number];

function edgeTupleInto(shape: FormShape, index: number, t: Tuple): void {
  t[0] = t[1] = t[2] = 0;
  let rest = index;
  for (let k = shape.sources.length - 1; k >= 0; k--) {
    const values = EDGE_VALUES[shape.sources[k]!.format];
    t[k] = values[rest % values.length]!;
    rest = Math.floor(rest / values.length);
  }
}

/**
 * One lane's sources for sample `index`. Words r0..r2 give the bits of sources 0..2; in three
 * samples out of four (mode word r3 & 3 ≠ 0) the exponent of c is moved near the exponent of
 * the product a·b (or of a, for add/sub) plus a delta in [-4, 3], so that cancellation,
 * rounding ties and subnormal results are common rather than rare.
 */
export function sampleTuple(shape: FormShape, seed: number, index: number): Tuple {
  const t: Tuple = [0, 0, 0];
  sampleTupleInto(samplerOf(shape), seed, index, t);
  return t;
}

/** What sampleTupleInto needs of a form, worked out once per form rather than per sample. */
interface Sampler {
  readonly masks: readonly number[];
  readonly layouts: readonly BitLayout[];
  /** Index of source c in the sources, or -1. */
  readonly cIndex: number;
  /** Scratch for the sample's words (a typed array: the words are uint32). */
  readonly words: Uint32Array;
}

function samplerOf(shape: FormShape): Sampler {
  const layouts = shape.sources.map((s) => BIT_LAYOUTS[s.format]);
  return {
    masks: layouts.map(widthMask),
    layouts,
    cIndex: shape.sources.findIndex((s) => s.name === 'c'),
    words: new Uint32Array(4),
  };
}

function sampleTupleInto(sampler: Sampler, seed: number, index: number, t: Tuple): void {
  const { masks, layouts, cIndex } = sampler;
  const words = sampleWords(seed, index, sampler.words);
  t[0] = t[1] = t[2] = 0;
  for (let k = 0; k < masks.length; k++) t[k] = (words[k]! & masks[k]!) >>> 0;
  const mode = words[3]! & 3;
  if (mode !== 0 && cIndex >= 0) {
    const cLayout = layouts[cIndex]!;
    let exponent = 0;
    for (let k = 0; k < layouts.length; k++)
      if (k !== cIndex) exponent += unbiasedExponent(t[k]!, layouts[k]!);
    const delta = ((words[3]! >>> 2) & 7) - 4;
    const maxFinite = (1 << cLayout.exponentBits) - 2;
    const field = Math.min(Math.max(exponent + cLayout.bias + delta, 0), maxFinite);
    t[cIndex] = withExponentField(t[cIndex]!, field, cLayout);
  }
}

const ONE: Record<OperandFormat, number> = { f16: 0x3c00, bf16: 0x3f80, f32: 0x3f800000 };

function nanProbeTupleInto(shape: FormShape, index: number, t: Tuple): void {
  const position = Math.floor(index / 65536);
  const v = index % 65536;
  t[0] = t[1] = t[2] = 0;
  shape.sources.forEach((s, k) => {
    t[k] = k === position ? v : s.name === 'c' ? 0 : ONE[s.format];
  });
}

/** The sources of both lanes for input `index`: the one definition of every generator. */
function lanesInto(
  shape: FormShape,
  generator: GeneratorName,
  index: number,
  seed: number,
  lane0: Tuple,
  lane1: Tuple,
  sampler: Sampler,
): void {
  switch (generator) {
    case 'all':
    case 'x2-same':
      lane0[0] = lane1[0] = index;
      lane0[1] = lane0[2] = lane1[1] = lane1[2] = 0;
      return;
    case 'x2-distinct':
      lane0[0] = index;
      lane1[0] = index ^ 0xffff;
      lane0[1] = lane0[2] = lane1[1] = lane1[2] = 0;
      return;
    case 'pairs': {
      const [row, col] = pairOf(index);
      lane0[0] = lane1[1] = row;
      lane0[1] = lane1[0] = col;
      lane0[2] = lane1[2] = 0;
      return;
    }
    case 'edges':
      edgeTupleInto(shape, index, lane0);
      edgeTupleInto(shape, edgeTupleCount(shape) - 1 - index, lane1);
      return;
    case 'sample':
      if (shape.lanes === 1) {
        sampleTupleInto(sampler, seed, index, lane0);
        lane1[0] = lane1[1] = lane1[2] = 0;
      } else {
        sampleTupleInto(sampler, seed, 2 * index, lane0);
        sampleTupleInto(sampler, seed, 2 * index + 1, lane1);
      }
      return;
    case 'nan-probe':
      nanProbeTupleInto(shape, index, lane0);
      nanProbeTupleInto(shape, index, lane1);
      return;
  }
}

/** Pairs index = row·65536 + col: (row, col) are lane 0's (a, b). */
function pairOf(index: number): [number, number] {
  return [Math.floor(index / ROW_LENGTH), index % ROW_LENGTH];
}

/** A lane's source k goes to register REGISTER_INDEX[name] (a 0, b 1, c 2). */
const REGISTER_INDEX: Record<SourceName, number> = { a: 0, b: 1, c: 2 };

/** The register bits of one input from its lanes: x2 registers hold lane 1 in bits 16–31. */
function registerBits(shape: FormShape, lane0: Tuple, lane1: Tuple, k: number): number {
  return shape.lanes === 2 ? (lane0[k]! | (lane1[k]! << 16)) >>> 0 : lane0[k]!;
}

/** The register bits the harness feeds the form for input `index` of a section. */
export function inputsAt(
  shape: FormShape,
  generator: GeneratorName,
  index: number,
  seed: number,
): RegisterInputs {
  const lane0: Tuple = [0, 0, 0];
  const lane1: Tuple = [0, 0, 0];
  lanesInto(shape, generator, index, seed, lane0, lane1, samplerOf(shape));
  const regs: RegisterInputs = { a: 0, b: 0, c: 0 };
  shape.sources.forEach((s, k) => {
    regs[s.name] = registerBits(shape, lane0, lane1, k);
  });
  return regs;
}

/**
 * The register bits of inputs [first, first + count) of a section, written to `into` from
 * index 0: what inputsAt gives input by input, without an object per input. `pairs` (2^32
 * inputs a binary form) is filled row-wise directly; the other generators go through the one
 * definition of the inputs (lanesInto).
 */
export function fillInputs(
  shape: FormShape,
  generator: GeneratorName,
  first: number,
  count: number,
  seed: number,
  into: InputArrays,
): void {
  if (count > into.a.length)
    throw new Error(`fillInputs: ${count} inputs, room for ${into.a.length}`);
  if (generator === 'pairs') {
    fillPairs(shape, first, count, into);
    return;
  }
  const registers = [into.a, into.b, into.c];
  for (const r of registers) r.fill(0, 0, count);
  const lane0: Tuple = [0, 0, 0];
  const lane1: Tuple = [0, 0, 0];
  const targets = shape.sources.map((s) => registers[REGISTER_INDEX[s.name]]!);
  const sampler = samplerOf(shape);
  const [t0, t1, t2] = [targets[0]!, targets[1], targets[2]];
  for (let i = 0; i < count; i++) {
    lanesInto(shape, generator, first + i, seed, lane0, lane1, sampler);
    t0[i] = registerBits(shape, lane0, lane1, 0);
    if (t1) t1[i] = registerBits(shape, lane0, lane1, 1);
    if (t2) t2[i] = registerBits(shape, lane0, lane1, 2);
  }
}

/** `pairs` for a binary form (sources a, b): lane 0 (row, col), lane 1 (col, row). */
function fillPairs(shape: FormShape, first: number, count: number, into: InputArrays): void {
  if (shape.sources.map((s) => s.name).join() !== 'a,b')
    throw new Error(`pairs inputs are for binary forms (a, b), not ${shape.form.text}`);
  const { a, b, c } = into;
  c.fill(0, 0, count);
  let [row, col] = pairOf(first);
  // Row by row: lane 0 is (row, col) for col running up to the end of the row.
  for (let i = 0; i < count; row++, col = 0) {
    const end = Math.min(count, i + ROW_LENGTH - col);
    if (shape.lanes === 1) {
      a.fill(row, i, end);
      for (; i < end; i++) b[i] = col++;
    } else {
      for (; i < end; i++, col++) {
        a[i] = row | (col << 16);
        b[i] = col | (row << 16);
      }
    }
  }
}

/** Every arithmetic form the harness captures, in catalog order (cvt-plan.ts has the cvt forms). */
export function capturedForms(): FormShape[] {
  return FORMS.filter((f) => f.family === 'half' || f.family === 'mixed').map(shapeOf);
}

export function minSmOf(form: Form): number {
  return Number(/^sm_(\d+)$/.exec(form.minTarget)![1]);
}
