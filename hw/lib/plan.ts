import { FORMS, type Form } from '../../src/catalog/forms.ts';
import type { FormatName } from '../../src/catalog/types.ts';
import { BIT_LAYOUTS, unbiasedExponent, widthMask, withExponentField } from './bit-layout.ts';
import { EDGE_VALUES } from './edges.ts';
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
  readonly sources: readonly { readonly name: SourceName; readonly format: FormatName }[];
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

export function shapeOf(form: Form): FormShape {
  const sources = form.operands
    .filter((o) => o.name !== 'd')
    .map((o) => ({ name: o.name as SourceName, format: o.format }));
  const d = form.operands.find((o) => o.name === 'd')!;
  const lanes = d.lanes;
  const family =
    sources.length === 1 ? 'unary' : sources.some((s) => s.name === 'c') ? 'fma-like' : 'binary';
  return { form, sources, lanes, resultBits: d.bits, family };
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

type Tuple = [number, number, number];

function edgeTuple(shape: FormShape, index: number): Tuple {
  const tuple: Tuple = [0, 0, 0];
  let rest = index;
  for (let k = shape.sources.length - 1; k >= 0; k--) {
    const values = EDGE_VALUES[shape.sources[k]!.format];
    tuple[k] = values[rest % values.length]!;
    rest = Math.floor(rest / values.length);
  }
  return tuple;
}

/**
 * One lane's sources for sample `index`. Words r0..r2 give the bits of sources 0..2; in three
 * samples out of four (mode word r3 & 3 ≠ 0) the exponent of c is moved near the exponent of
 * the product a·b (or of a, for add/sub) plus a delta in [-4, 3], so that cancellation,
 * rounding ties and subnormal results are common rather than rare.
 */
export function sampleTuple(shape: FormShape, seed: number, index: number): Tuple {
  const words = sampleWords(seed, index);
  const tuple: Tuple = [0, 0, 0];
  shape.sources.forEach((s, k) => {
    tuple[k] = (words[k]! & widthMask(BIT_LAYOUTS[s.format])) >>> 0;
  });
  const mode = words[3] & 3;
  const cIndex = shape.sources.findIndex((s) => s.name === 'c');
  if (mode !== 0 && cIndex >= 0) {
    const cLayout = BIT_LAYOUTS[shape.sources[cIndex]!.format];
    let exponent = 0;
    shape.sources.forEach((s, k) => {
      if (k !== cIndex) exponent += unbiasedExponent(tuple[k]!, BIT_LAYOUTS[s.format]);
    });
    const delta = ((words[3] >>> 2) & 7) - 4;
    const maxFinite = (1 << cLayout.exponentBits) - 2;
    const field = Math.min(Math.max(exponent + cLayout.bias + delta, 0), maxFinite);
    tuple[cIndex] = withExponentField(tuple[cIndex]!, field, cLayout);
  }
  return tuple;
}

const ONE: Record<FormatName, number> = { f16: 0x3c00, bf16: 0x3f80, f32: 0x3f800000 };

function nanProbeTuple(shape: FormShape, index: number): Tuple {
  const position = Math.floor(index / 65536);
  const v = index % 65536;
  const tuple: Tuple = [0, 0, 0];
  shape.sources.forEach((s, k) => {
    tuple[k] = k === position ? v : s.name === 'c' ? 0 : ONE[s.format];
  });
  return tuple;
}

function scalarTuple(
  shape: FormShape,
  generator: GeneratorName,
  index: number,
  seed: number,
): [Tuple, Tuple] {
  const count = generator === 'edges' ? edgeTupleCount(shape) : 0;
  switch (generator) {
    case 'all':
      return [
        [index, 0, 0],
        [index, 0, 0],
      ];
    case 'x2-same':
      return [
        [index, 0, 0],
        [index, 0, 0],
      ];
    case 'x2-distinct':
      return [
        [index, 0, 0],
        [index ^ 0xffff, 0, 0],
      ];
    case 'pairs': {
      const row = Math.floor(index / 65536);
      const col = index % 65536;
      return [
        [row, col, 0],
        [col, row, 0],
      ];
    }
    case 'edges':
      return [edgeTuple(shape, index), edgeTuple(shape, count - 1 - index)];
    case 'sample':
      return shape.lanes === 1
        ? [sampleTuple(shape, seed, index), [0, 0, 0]]
        : [sampleTuple(shape, seed, 2 * index), sampleTuple(shape, seed, 2 * index + 1)];
    case 'nan-probe': {
      const t = nanProbeTuple(shape, index);
      return [t, t];
    }
  }
}

/** The register bits the harness feeds the form for input `index` of a section. */
export function inputsAt(
  shape: FormShape,
  generator: GeneratorName,
  index: number,
  seed: number,
): RegisterInputs {
  const [lane0, lane1] = scalarTuple(shape, generator, index, seed);
  const regs: RegisterInputs = { a: 0, b: 0, c: 0 };
  shape.sources.forEach((s, k) => {
    regs[s.name] = shape.lanes === 2 ? (lane0[k]! | (lane1[k]! << 16)) >>> 0 : lane0[k]!;
  });
  return regs;
}

/** Every form the harness captures, in catalog order. */
export function capturedForms(): FormShape[] {
  return FORMS.map(shapeOf);
}

export function minSmOf(form: Form): number {
  return Number(/^sm_(\d+)$/.exec(form.minTarget)![1]);
}
