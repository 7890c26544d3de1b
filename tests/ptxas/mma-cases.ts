import { MATRIX_FORMS, findForm } from '../../src/catalog/all-forms.ts';
import type { FormatName } from '../../src/catalog/formats.ts';
import type { Form, FragmentRegisters } from '../../src/catalog/instruction.ts';

/**
 * The lines the mma agreement test sends to ptxas. Each line is a scope of its own, `{ .reg …;
 * instruction …; }`, declaring exactly the registers the catalog says each fragment has (the
 * form's `matrix.fragments`), so a wrong register count is a rejected line. Every mma form is
 * one line; every wgmma form two (A from a descriptor, A from registers). The near misses are
 * instructions next to the forms — another shape, layout, accumulator or type, `.kind` added or
 * dropped, a second rounding modifier, a block-scaled kind with another scale vector, scale type or
 * shape — that no record describes: ptxas must refuse each of
 * them everywhere, which is what makes the records the whole list.
 */

/** The matrix forms of the catalog (mma, wgmma.mma_async). */
export { MATRIX_FORMS };
export const MMA_FORMS = MATRIX_FORMS.filter((f) => f.matrix!.instruction === 'mma');
export const WGMMA_FORMS = MATRIX_FORMS.filter((f) => f.matrix!.instruction === 'wgmma');

type MatrixInputType = Extract<
  FormatName,
  'f16' | 'bf16' | 'tf32' | 'f64' | 'e4m3' | 'e5m2' | 'e3m2' | 'e2m3' | 'e2m1'
>;
type AccumulatorType = Extract<FormatName, 'f16' | 'f32' | 'f64'>;
type WgmmaASource = 'descriptor' | 'registers';

export interface MatrixCase {
  /** The instruction without operands. */
  readonly head: string;
  readonly instruction: 'mma' | 'wgmma';
  /** `form`: a record of the data; `near-miss`: no record describes it. */
  readonly kind: 'form' | 'near-miss';
  /** wgmma: where A comes from on this line. */
  readonly aSource?: WgmmaASource;
  readonly line: string;
}

const vector = (name: string, count: number) =>
  `{${Array.from({ length: count }, (_, i) => `${name}${i}`).join(', ')}}`;

const declare = (name: string, r: FragmentRegisters) => `.reg .${r.type} ${name}<${r.count}>;`;

/** Registers of a fragment: `rows × cols` elements over `threads` threads (near misses). */
function guessFragment(
  rows: number,
  cols: number,
  threads: number,
  type: MatrixInputType | AccumulatorType,
): FragmentRegisters {
  const bits =
    type === 'f64'
      ? 64
      : type === 'f32' || type === 'tf32'
        ? 32
        : type === 'f16' || type === 'bf16'
          ? 16
          : 8;
  const registerBits = type === 'f64' ? 64 : 32;
  const elements = (rows * cols) / threads;
  const t = type === 'f64' ? 'f64' : type === 'f32' ? 'f32' : 'b32';
  return { count: Math.max(1, Math.ceil((elements * bits) / registerBits)), type: t, elements };
}

/** A block-scaled line's scale operands: scale-a-data, {byte-id-a, thread-id-a}, and B's. */
const SCALE_REGISTERS = '.reg .b32 sa, sb; .reg .b16 ba, ta, bb, tb;';
const SCALE_OPERANDS = ', sa, {ba, ta}, sb, {bb, tb}';

function mmaLine(
  head: string,
  f: { a: FragmentRegisters; b: FragmentRegisters; c: FragmentRegisters; d: FragmentRegisters },
  blockScaled = false,
): string {
  return (
    `{ ${declare('d', f.d)} ${declare('a', f.a)} ${declare('b', f.b)} ${declare('c', f.c)} ` +
    (blockScaled ? `${SCALE_REGISTERS} ` : '') +
    `${head} ${vector('d', f.d.count)}, ${vector('a', f.a.count)}, ${vector('b', f.b.count)}, ${vector('c', f.c.count)}` +
    `${blockScaled ? SCALE_OPERANDS : ''}; }`
  );
}

function wgmmaLine(
  head: string,
  f: { a: FragmentRegisters; d: FragmentRegisters },
  aSource: WgmmaASource,
  transpose: boolean,
): string {
  // scale-d, imm-scale-a, imm-scale-b, then imm-trans-a (descriptor A only) and imm-trans-b.
  const trans = transpose ? (aSource === 'descriptor' ? ', 0, 0' : ', 0') : '';
  const a = aSource === 'descriptor' ? 'descA' : vector('a', f.a.count);
  return (
    `{ ${declare('d', f.d)} ${declare('a', f.a)} .reg .b64 descA, descB; ` +
    `${head} ${vector('d', f.d.count)}, ${a}, descB, 1, 1, 1${trans}; }`
  );
}

function formCases(form: Form): MatrixCase[] {
  const m = form.matrix!;
  const { a, b, c, d } = m.fragments;
  if (m.instruction === 'mma')
    return [
      {
        head: form.text,
        instruction: 'mma',
        kind: 'form',
        line: mmaLine(form.text, { a, b: b!, c: c!, d }, m.blockScale !== null),
      },
    ];
  return m.aSources!.map((aSource) => ({
    head: form.text,
    instruction: 'wgmma',
    kind: 'form',
    aSource,
    line: wgmmaLine(form.text, { a, d }, aSource, m.transpose),
  }));
}

interface MmaProbe {
  readonly shape: readonly [number, number, number];
  readonly layouts?: string;
  readonly kind?: string;
  readonly d: AccumulatorType;
  readonly a: MatrixInputType;
  readonly b: MatrixInputType;
  readonly c: AccumulatorType;
  readonly rounding?: string;
}

function probeHead(p: MmaProbe): string {
  const [m, n, k] = p.shape;
  return [
    'mma.sync.aligned',
    `m${m}n${n}k${k}`,
    p.layouts ?? 'row.col',
    ...(p.kind ? [p.kind] : []),
    p.d,
    p.a,
    p.b,
    p.c,
    ...(p.rounding ? [p.rounding] : []),
  ].join('.');
}

function probeCase(p: MmaProbe): MatrixCase {
  const [m, n, k] = p.shape;
  const threads = m === 8 && p.a === 'f16' ? 8 : 32;
  const head = probeHead(p);
  return {
    head,
    instruction: 'mma',
    kind: 'near-miss',
    line: mmaLine(head, {
      a: guessFragment(m, k, threads, p.a),
      b: guessFragment(k, n, threads, p.b),
      c: guessFragment(m, n, threads, p.c),
      d: guessFragment(m, n, threads, p.d),
    }),
  };
}

const SHAPES: readonly (readonly [number, number, number])[] = [
  [8, 8, 4],
  [16, 8, 4],
  [16, 8, 8],
  [16, 8, 16],
  [16, 8, 32],
];
const INPUTS: readonly MatrixInputType[] = [
  'f16',
  'bf16',
  'tf32',
  'f64',
  'e4m3',
  'e5m2',
  'e3m2',
  'e2m3',
  'e2m1',
];
/** (D, C) pairs: equal, or one of them .f16 and the other .f32. */
const ACCUMULATOR_PAIRS: readonly (readonly [AccumulatorType, AccumulatorType])[] = [
  ['f16', 'f16'],
  ['f32', 'f32'],
  ['f64', 'f64'],
  ['f32', 'f16'],
  ['f16', 'f32'],
];
const SUB_BYTE: readonly MatrixInputType[] = ['e3m2', 'e2m3', 'e2m1'];

/**
 * Every shape × input type (A = B) × (D, C) pair, with and without .kind::f8f6f4 (.row.col),
 * and some mixed pairs, layouts and roundings: those that no record describes. ptxas reports an
 * illegal shape only once per file, so the probes of .kind::f8f6f4 at m16n8k16 with FP6/FP4 types
 * are limited to a few (the runner re-assembles the accepted rest to find the others).
 */
function mmaProbes(): MmaProbe[] {
  const probes: MmaProbe[] = [];
  for (const shape of SHAPES)
    for (const t of INPUTS)
      for (const [d, c] of ACCUMULATOR_PAIRS)
        for (const kind of [undefined, 'kind::f8f6f4']) {
          if (kind && shape[2] === 16 && SUB_BYTE.includes(t) && !(d === 'f32' && c === 'f32'))
            continue;
          probes.push({ shape, kind, d, a: t, b: t, c });
        }
  const mixed: [MatrixInputType, MatrixInputType][] = [
    ['f16', 'bf16'],
    ['bf16', 'tf32'],
    ['tf32', 'bf16'],
    ['e4m3', 'e2m1'],
    ['e3m2', 'e5m2'],
  ];
  for (const [a, b] of mixed)
    for (const shape of [SHAPES[2]!, SHAPES[3]!, SHAPES[4]!])
      for (const kind of [undefined, 'kind::f8f6f4'])
        probes.push({ shape, kind, d: 'f32', a, b, c: 'f32' });
  for (const layouts of ['col.row', 'row.row', 'col.col'])
    for (const [a, shape] of [
      ['f16', SHAPES[3]!],
      ['bf16', SHAPES[2]!],
      ['tf32', SHAPES[1]!],
      ['f64', SHAPES[0]!],
      ['e4m3', SHAPES[4]!],
    ] as const)
      probes.push({
        shape,
        layouts,
        d: a === 'f16' ? 'f16' : a === 'f64' ? 'f64' : 'f32',
        a,
        b: a,
        c: a === 'f16' ? 'f16' : a === 'f64' ? 'f64' : 'f32',
      });
  for (const rounding of ['rn.rz', 'rna', 'rn'])
    for (const [a, d] of [
      ['f64', 'f64'],
      ['f16', 'f32'],
    ] as const)
      probes.push({ shape: [16, 8, 8], d, a, b: a, c: d, rounding });
  return probes;
}

/**
 * Block-scaled instructions next to the forms (9.7.14.3, Table 36): a kind with another
 * `.scale_vec_size`, scale type, shape, element or accumulator type, `.scale_vec_size` left out
 * where it is mandatory, `.block_scale` left out or on `.kind::f8f6f4`, the scale type before
 * `.ctype`, a modifier written twice. Each with the scale operands and the registers of the
 * forms of its shape (A 4 and B 2 .b32 registers, C and D 4 .f32).
 */
const BLOCK_SCALED_PROBES: readonly string[] = [
  'm16n8k64.row.col.kind::mxf4nvf4.block_scale.f32.e2m1.e2m1.f32.ue8m0',
  'm16n8k64.row.col.kind::mxf4nvf4.block_scale.f32.e2m1.e2m1.f32.ue4m3',
  'm16n8k64.row.col.kind::mxf4nvf4.block_scale.scale_vec::2X.f32.e2m1.e2m1.f32.ue4m3',
  'm16n8k64.row.col.kind::mxf4nvf4.block_scale.scale_vec::4X.f32.e2m1.e2m1.f32.ue8m0',
  'm16n8k64.row.col.kind::mxf4nvf4.block_scale.scale_vec::1X.f32.e2m1.e2m1.f32.ue8m0',
  'm16n8k64.row.col.kind::mxf4.block_scale.scale_vec::4X.f32.e2m1.e2m1.f32.ue8m0',
  'm16n8k64.row.col.kind::mxf4.block_scale.scale_vec::1X.f32.e2m1.e2m1.f32.ue8m0',
  'm16n8k64.row.col.kind::mxf4.block_scale.scale_vec::2X.f32.e2m1.e2m1.f32.ue4m3',
  'm16n8k64.row.col.kind::mxf4.block_scale.f32.e4m3.e4m3.f32.ue8m0',
  'm16n8k64.row.col.kind::mxf4.block_scale.f16.e2m1.e2m1.f16.ue8m0',
  'm16n8k64.row.col.kind::mxf8f6f4.block_scale.f32.e2m1.e2m1.f32.ue8m0',
  'm16n8k64.row.col.kind::mxf4.f32.e2m1.e2m1.f32.ue8m0',
  'm16n8k64.row.col.kind::mxf4.block_scale.block_scale.f32.e2m1.e2m1.f32.ue8m0',
  'm16n8k32.row.col.kind::mxf4.block_scale.f32.e2m1.e2m1.f32.ue8m0',
  'm16n8k32.row.col.kind::mxf8f6f4.block_scale.scale_vec::2X.f32.e4m3.e4m3.f32.ue8m0',
  'm16n8k32.row.col.kind::mxf8f6f4.block_scale.scale_vec::4X.f32.e4m3.e4m3.f32.ue8m0',
  'm16n8k32.row.col.kind::mxf8f6f4.block_scale.f32.e4m3.e4m3.f32.ue4m3',
  'm16n8k32.row.col.kind::mxf8f6f4.block_scale.f16.e4m3.e4m3.f16.ue8m0',
  'm16n8k32.row.col.kind::mxf8f6f4.block_scale.f16.e4m3.e4m3.f32.ue8m0',
  'm16n8k32.row.col.kind::mxf8f6f4.f32.e4m3.e4m3.f32.ue8m0',
  'm16n8k32.row.col.kind::mxf8f6f4.block_scale.f32.e4m3.e4m3.ue8m0.f32',
  'm16n8k32.row.col.kind::mxf8f6f4.block_scale.scale_vec::1X.scale_vec::1X.f32.e4m3.e4m3.f32.ue8m0',
  'm16n8k32.row.col.kind::mxf8f6f4.block_scale.f32.bf16.bf16.f32.ue8m0',
  'm16n8k32.row.col.kind::f8f6f4.block_scale.f32.e4m3.e4m3.f32.ue8m0',
  'm16n8k32.col.row.kind::mxf8f6f4.block_scale.f32.e4m3.e4m3.f32.ue8m0',
  'm16n8k16.row.col.kind::mxf8f6f4.block_scale.f32.e4m3.e4m3.f32.ue8m0',
];

function blockScaledProbeCase(rest: string): MatrixCase {
  const head = `mma.sync.aligned.${rest}`;
  const r = (count: number, type: FragmentRegisters['type']) => ({ count, type, elements: 0 });
  return {
    head,
    instruction: 'mma',
    kind: 'near-miss',
    line: mmaLine(head, { a: r(4, 'b32'), b: r(2, 'b32'), c: r(4, 'f32'), d: r(4, 'f32') }, true),
  };
}

interface WgmmaProbe {
  readonly n: number;
  readonly k: number;
  readonly d: AccumulatorType;
  readonly a: MatrixInputType;
  readonly b: MatrixInputType;
}

function wgmmaProbes(): WgmmaProbe[] {
  const probes: WgmmaProbe[] = [];
  for (const n of [8, 12, 264])
    for (const k of [8, 16, 32])
      for (const t of ['f16', 'bf16', 'tf32', 'e4m3', 'e2m1', 'f64'] as const)
        for (const d of ['f16', 'f32'] as const) probes.push({ n, k, d, a: t, b: t });
  for (const [a, b] of [
    ['f16', 'bf16'],
    ['e4m3', 'bf16'],
  ] as const)
    probes.push({ n: 8, k: 16, d: 'f32', a, b });
  return probes;
}

function wgmmaProbeCases(p: WgmmaProbe): MatrixCase[] {
  const head = `wgmma.mma_async.sync.aligned.m64n${p.n}k${p.k}.${p.d}.${p.a}.${p.b}`;
  const fragments = {
    a: guessFragment(64, p.k, 128, p.a),
    d: guessFragment(64, p.n, 128, p.d),
  };
  const transpose = p.a === 'f16' || p.a === 'bf16';
  return (['descriptor', 'registers'] as const).map((aSource) => ({
    head,
    instruction: 'wgmma',
    kind: 'near-miss',
    aSource,
    line: wgmmaLine(head, fragments, aSource, transpose),
  }));
}

export function matrixCases(): MatrixCase[] {
  const forms = MATRIX_FORMS.flatMap(formCases);
  const misses = [
    ...mmaProbes().map(probeCase),
    ...BLOCK_SCALED_PROBES.map(blockScaledProbeCase),
    ...wgmmaProbes().flatMap(wgmmaProbeCases),
  ].filter((c) => findForm(c.head) === undefined);
  const seen = new Set<string>();
  return [...forms, ...misses].filter((c) => {
    const key = `${c.head} ${c.aSource ?? ''}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
