/**
 * The floating-point matrix instructions as records: every `mma.sync.aligned` form of PTX ISA
 * 9.7.14.5.14 (f16, bf16, tf32, f64, the FP8 types and `.kind::f8f6f4`'s e3m2, e2m3, e2m1; the
 * block-scaled kinds' lines are in block-scaled-mma.ts) and every dense floating-point
 * `wgmma.mma_async` form of 9.7.15.5.2. A form's one output element is d = c + Σ a_i·b_i: its registers hold A's row and
 * B's column (k elements each) and C's element, and its operation is the dot product, which the
 * target's tensor-core model computes (tensor-core-models.ts).
 *
 * Target and PTX ISA requirements are as ptxas 13.0 answers them (tests/ptxas/mma-agreement.test.ts
 * assembles every form on every target at each version where one begins). Where ptxas and the
 * text differ the records follow ptxas and say so:
 *  - `.kind::f8f6f4` with only FP8 types (e4m3, e5m2) also assembles on sm_100a and sm_101a
 *    (PTX ISA 8.6 with an f32 result at k = 32, 8.7 otherwise) and on the sm_100f and sm_101f
 *    families from 8.8; the spec names sm_120a;
 *  - `.kind::f8f6f4` with FP8 types also assembles at m16n8k16, which no syntax line lists
 *    (ptxas refuses that shape for e3m2, e2m3 and e2m1: "Illegal matrix shape");
 *  - the f64 forms take a rounding modifier (.rn .rz .rm .rp, "Precision and rounding"), which
 *    the syntax line leaves out and the examples write after the types;
 *  - m16n8k8 and m16n8k16 with .f16 inputs take .dtype = .ctype (".dtype must be '.f16' when
 *    .ctype is '.f16'"), as the text says of m16n8k8.
 */
import type { FormatName } from '../formats.ts';
import type { MatrixLayout } from '../instruction.ts';
import { WGMMA_N, type AnyModifier, type MatrixShape } from '../modifiers.ts';
import type { InstructionRecord, MatrixLine, RecordRequirement, SyntaxLine } from '../record.ts';
import { BLOCK_SCALED_MMA_LINES, BLOCK_SCALED_MMA_REQUIREMENTS } from './block-scaled-mma.ts';
import { optWithDefault, req, syntaxLine, typeTokensOf } from './syntax.ts';

const BASE = 'https://docs.nvidia.com/cuda/parallel-thread-execution/#';

const FP8: readonly FormatName[] = ['e4m3', 'e5m2'];
const F8F6F4: readonly FormatName[] = ['e4m3', 'e5m2', 'e3m2', 'e2m3', 'e2m1'];
const ACCUMULATORS = ['f16', 'f32'] as const;
const LAYOUTS: readonly MatrixLayout[] = ['row', 'col'];

const SYNC = req('sync', 'sync');
const ALIGNED = req('aligned', 'aligned');
const KIND = req('kind', 'kind::f8f6f4');
const shape = (...shapes: MatrixShape[]) => req('shape', ...shapes);

/** D, A, B, C as written. */
const t = (d: string, a: string, b: string, c: string) => `${d}.${a}.${b}.${c}`;

/** Every A, B pair of these input types with each accumulator (D = C). */
function pairs(inputs: readonly FormatName[], accumulators: readonly string[]): string[] {
  return accumulators.flatMap((acc) => inputs.flatMap((a) => inputs.map((b) => t(acc, a, b, acc))));
}

/** `.row.col` (after the shape), the types after them. */
const ROW_COL: MatrixLine = {
  layouts: { a: ['row'], b: ['col'] },
  layoutsAt: 3,
  typesAt: 3,
};
/** `.row.col.kind::f8f6f4`, the types after them. */
const ROW_COL_KIND: MatrixLine = { ...ROW_COL, typesAt: 4 };

function mmaLine(
  text: string,
  types: readonly string[],
  slots: SyntaxLine['slots'],
  matrix: MatrixLine = ROW_COL,
  origin?: 'ptxas',
): SyntaxLine {
  return { ...syntaxLine(text, types, slots, origin), matrix };
}

const MMA_LINES: readonly SyntaxLine[] = [
  mmaLine(
    'mma.sync.aligned.m8n8k4.alayout.blayout.dtype.f16.f16.ctype  d, a, b, c;',
    // "When .ctype is .f32, .dtype must also be .f32."
    [t('f16', 'f16', 'f16', 'f16'), t('f32', 'f16', 'f16', 'f16'), t('f32', 'f16', 'f16', 'f32')],
    [SYNC, ALIGNED, shape('m8n8k4')],
    { layouts: { a: LAYOUTS, b: LAYOUTS }, layoutsAt: 3, typesAt: 3 },
  ),
  mmaLine(
    'mma.sync.aligned.m16n8k8.row.col.dtype.f16.f16.ctype  d, a, b, c;',
    pairs(['f16'], ACCUMULATORS),
    [SYNC, ALIGNED, shape('m16n8k8')],
  ),
  mmaLine(
    'mma.sync.aligned.m16n8k16.row.col.dtype.f16.f16.ctype d, a, b, c;',
    pairs(['f16'], ACCUMULATORS),
    [SYNC, ALIGNED, shape('m16n8k16')],
  ),
  mmaLine(
    'mma.sync.aligned.m16n8k4.row.col.f32.tf32.tf32.f32        d, a, b, c;',
    [t('f32', 'tf32', 'tf32', 'f32')],
    [SYNC, ALIGNED, shape('m16n8k4')],
  ),
  mmaLine(
    'mma.sync.aligned.m16n8k8.row.col.f32.atype.btype.f32      d, a, b, c;',
    // "m16n8k8: .atype must be the same as .btype."
    [t('f32', 'tf32', 'tf32', 'f32'), t('f32', 'bf16', 'bf16', 'f32')],
    [SYNC, ALIGNED, shape('m16n8k8')],
  ),
  mmaLine(
    'mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32       d, a, b, c;',
    [t('f32', 'bf16', 'bf16', 'f32')],
    [SYNC, ALIGNED, shape('m16n8k16')],
  ),
  mmaLine(
    'mma.sync.aligned.shape.row.col.dtype.f8type.f8type.ctype  d, a, b, c;',
    pairs(FP8, ACCUMULATORS),
    [SYNC, ALIGNED, shape('m16n8k16', 'm16n8k32')],
  ),
  mmaLine(
    'mma.sync.aligned.m16n8k32.row.col.kind.dtype.f8f6f4type.f8f6f4type.ctype d, a, b, c;',
    pairs(F8F6F4, ACCUMULATORS),
    [SYNC, ALIGNED, shape('m16n8k32'), KIND],
    ROW_COL_KIND,
  ),
  // ptxas: .kind::f8f6f4 at m16n8k16 with FP8 types (assembler note mma-kind-m16n8k16).
  mmaLine(
    'mma.sync.aligned.m16n8k16.row.col.kind.dtype.f8type.f8type.ctype d, a, b, c;',
    pairs(FP8, ACCUMULATORS),
    [SYNC, ALIGNED, shape('m16n8k16'), KIND],
    ROW_COL_KIND,
    'ptxas',
  ),
  // The rounding of "Precision and rounding" (.rn the default), written after the types as the
  // examples write it.
  mmaLine(
    'mma.sync.aligned.shape.row.col.f64.f64.f64.f64{.rnd} d, a, b, c;',
    [t('f64', 'f64', 'f64', 'f64')],
    [
      SYNC,
      ALIGNED,
      shape('m8n8k4', 'm16n8k4', 'm16n8k8', 'm16n8k16'),
      optWithDefault('rnd', 'rn', 'rn', 'rz', 'rm', 'rp'),
    ],
  ),
];

/** "feature requires sm_N or higher and PTX ISA V", where `when` holds. */
function baseline(
  feature: string,
  sm: number,
  ptx: string,
  when: RecordRequirement['when'],
): RecordRequirement {
  return {
    feature,
    subject: 'feature',
    ptx,
    target: { kind: 'baseline', sm },
    ...(when ? { when } : {}),
  };
}

/** The forms of these input types (A and B both among them, as the lines pair them). */
const inputs = (atypes: readonly FormatName[]) => ({ atypes });
const withShape = (...shapes: MatrixShape[]): { withAny: AnyModifier[] } => ({ withAny: shapes });
const fp8Types = (accumulators: readonly string[]) => pairs(FP8, accumulators);
const NO_KIND = { without: ['kind::f8f6f4'] as AnyModifier[] };

/** `.kind::f8f6f4` with FP8 types: the Blackwell architectures and families as well as sm_120a. */
const KIND_FP8_TARGETS = ['sm_100a', 'sm_101a', 'sm_100f', 'sm_101f', 'sm_120a', 'sm_120f'];
const KIND_FP8_FEATURE =
  '.kind::f8f6f4 with .e4m3/.e5m2 (ptxas 13.0 also assembles it on the sm_100a and sm_101a architectures and the sm_100f and sm_101f families; the spec names sm_120a)';

const MMA_REQUIREMENTS: readonly RecordRequirement[] = [
  baseline('.f16 floating point type mma with .m8n8k4 shape', 70, '6.4', [
    { ...inputs(['f16']), ...withShape('m8n8k4') },
  ]),
  baseline('.f16 floating point type mma with .m16n8k8 shape', 75, '6.5', [
    { ...inputs(['f16']), ...withShape('m16n8k8') },
  ]),
  baseline('.f16 floating point type mma with .m16n8k16 shape', 80, '7.0', [
    { ...inputs(['f16']), ...withShape('m16n8k16') },
  ]),
  baseline('.bf16 alternate floating point type mma', 80, '7.0', [inputs(['bf16'])]),
  baseline('.tf32 alternate floating point type mma', 80, '7.0', [inputs(['tf32'])]),
  baseline('.f64 floating point type mma with .m8n8k4 shape', 80, '7.0', [
    { ...inputs(['f64']), ...withShape('m8n8k4') },
  ]),
  baseline('.f64 floating point type mma with .m16n8k4, .m16n8k8 and .m16n8k16 shapes', 90, '7.8', [
    { ...inputs(['f64']), ...withShape('m16n8k4', 'm16n8k8', 'm16n8k16') },
  ]),
  baseline('.e4m3 and .e5m2 alternate floating point type mma', 89, '8.4', [
    { types: fp8Types(['f32']), ...withShape('m16n8k32'), ...NO_KIND },
  ]),
  baseline(
    'shape .m16n8k16 and .f16 dtype/ctype with .e4m3/.e5m2 alternate floating point type mma',
    89,
    '8.7',
    [
      { types: fp8Types(ACCUMULATORS), ...withShape('m16n8k16'), ...NO_KIND },
      { types: fp8Types(['f16']), ...withShape('m16n8k32'), ...NO_KIND },
    ],
  ),
  {
    feature: KIND_FP8_FEATURE,
    subject: 'feature',
    ptx: '8.6',
    target: { kind: 'only', targets: KIND_FP8_TARGETS },
    when: [{ types: fp8Types(['f32']), withAll: ['kind::f8f6f4', 'm16n8k32'] }],
  },
  {
    feature: KIND_FP8_FEATURE,
    subject: 'feature',
    ptx: '8.7',
    target: { kind: 'only', targets: KIND_FP8_TARGETS },
    when: [
      { types: fp8Types(['f16']), withAll: ['kind::f8f6f4'] },
      { types: fp8Types(['f32']), withAll: ['kind::f8f6f4', 'm16n8k16'] },
    ],
  },
  {
    feature: '.e3m2, .e2m3 and .e2m1 alternate floating point type mma (.kind::f8f6f4)',
    subject: 'feature',
    ptx: '8.7',
    target: { kind: 'only', targets: ['sm_120a', 'sm_120f'] },
    when: [
      {
        types: pairs(F8F6F4, ACCUMULATORS).filter((x) => !fp8Types(ACCUMULATORS).includes(x)),
      },
    ],
  },
];

/** mma's FP6 and FP4 elements sit in 8-bit containers (9.7.14.5.14). */
const MMA_CONTAINERS = {
  e2m1: { bits: 8, value: { hi: 5, lo: 2 } },
  e2m3: { bits: 8, value: { hi: 5, lo: 0 } },
  e3m2: { bits: 8, value: { hi: 5, lo: 0 } },
} as const;

/** Every mma line: the forms of 9.7.14.5.14 and the block-scaled ones (block-scaled-mma.ts). */
const MMA_RECORD_LINES: readonly SyntaxLine[] = [...MMA_LINES, ...BLOCK_SCALED_MMA_LINES];

const MMA_SEMANTICS = `D = A * B + C;   // A is M×K, B is K×N, C and D are M×N
// one element:  d[i][j] = c[i][j] + Σ_{p<K} a[i][p] · b[p][j]
// "The accumulation order, rounding and handling of subnormal inputs are unspecified."`;

export const MMA_RECORD: InstructionRecord = {
  opcode: 'mma',
  operation: 'dot-product',
  family: 'matrix',
  section: {
    section: '9.7.14.5.14',
    title: 'Multiply-and-Accumulate Instruction: mma',
    anchor: `${BASE}warp-level-matrix-instructions-mma`,
    semantics: MMA_SEMANTICS,
    notes: [
      'Perform a MxNxK matrix multiply and accumulate operation, D = A*B+C, where the A matrix is MxK, the B matrix is KxN, and the C and D matrices are MxN.',
      '.f16: element-wise multiplication of A and B is performed with at least single precision; with an .f32 .ctype or .dtype accumulation is performed with at least single precision, with .f16 for both with at least half precision. The accumulation order, rounding and handling of subnormal inputs are unspecified.',
      '.e4m3, .e5m2, .e3m2, .e2m3, .e2m1, .bf16 and .tf32: element-wise multiplication is performed with specified precision; accumulation with at least single precision. The accumulation order, rounding and handling of subnormal inputs are unspecified.',
      '.f64: the precision of the element-wise multiplication and addition is identical to that of .f64 fused multiply-add; .rn (the default), .rz, .rm and .rp.',
      'With .kind::f8f6f4, an .e2m1 element resides in the central 4 bits of its 8-bit container, an .e3m2 or .e2m3 element in the lower 6 bits.',
    ],
  },
  typeGrammar: {
    kind: 'matrix',
    roles: ['d', 'a', 'b', 'c'],
    tokens: typeTokensOf(MMA_RECORD_LINES),
    scaleTokens: ['ue8m0', 'ue4m3'],
    layouts: LAYOUTS,
    example: 'mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32',
  },
  lines: MMA_RECORD_LINES,
  layout: { order: 'low-first', containers: MMA_CONTAINERS },
  // Measured by ptxas 13.0: .sync may be written more than once; .aligned, a shape, a layout
  // beyond the two, .kind and a rounding may not (nor .block_scale or .scale_vec_size: the
  // agreement suite's near misses).
  repeatable: ['sync'],
  requirements: [...MMA_REQUIREMENTS, ...BLOCK_SCALED_MMA_REQUIREMENTS],
  matrix: {
    instruction: 'mma',
    threads: 32,
    fewerThreads: { when: { atypes: ['f16'], withAll: ['m8n8k4'] }, threads: 8 },
    fragments: ['a', 'b', 'c', 'd'],
    aSources: null,
    transposeTypes: [],
  },
};

/** wgmma's shapes for one K: .m64nNk{K}, N = 8 … 256. */
const wgmmaShapes = (k: number) =>
  req('shape', ...WGMMA_N.map((n): MatrixShape => `m64n${n}k${k}`));

/**
 * A wgmma line: the types after the shape; `registersA` the spec's second line of the same
 * types, A from registers instead of a descriptor.
 */
function wgmmaLine(
  text: string,
  registersA: string,
  types: readonly string[],
  k: number,
): SyntaxLine {
  const otherOperands = /^\S+\s+([^;]*);/.exec(registersA)![1]!.trim();
  return {
    ...syntaxLine(text, types, [SYNC, ALIGNED, wgmmaShapes(k)]),
    matrix: { layouts: null, layoutsAt: 3, typesAt: 3, otherOperands },
  };
}

/** D, A, B: C is D. */
const w = (d: string, a: string, b: string) => `${d}.${a}.${b}`;

const WGMMA_RECORD_LINES: readonly SyntaxLine[] = [
  wgmmaLine(
    'wgmma.mma_async.sync.aligned.shape.dtype.f16.f16  d, a-desc, b-desc, scale-d, imm-scale-a, imm-scale-b, imm-trans-a, imm-trans-b;',
    'wgmma.mma_async.sync.aligned.shape.dtype.f16.f16  d, a, b-desc, scale-d, imm-scale-a, imm-scale-b, imm-trans-b;',
    [w('f16', 'f16', 'f16'), w('f32', 'f16', 'f16')],
    16,
  ),
  wgmmaLine(
    'wgmma.mma_async.sync.aligned.shape.dtype.bf16.bf16  d, a-desc, b-desc, scale-d, imm-scale-a, imm-scale-b, imm-trans-a, imm-trans-b;',
    'wgmma.mma_async.sync.aligned.shape.dtype.bf16.bf16  d, a, b-desc, scale-d, imm-scale-a, imm-scale-b, imm-trans-b;',
    [w('f32', 'bf16', 'bf16')],
    16,
  ),
  wgmmaLine(
    'wgmma.mma_async.sync.aligned.shape.dtype.tf32.tf32  d, a-desc, b-desc, scale-d, imm-scale-a, imm-scale-b;',
    'wgmma.mma_async.sync.aligned.shape.dtype.tf32.tf32  d, a, b-desc, scale-d, imm-scale-a, imm-scale-b;',
    [w('f32', 'tf32', 'tf32')],
    8,
  ),
  wgmmaLine(
    'wgmma.mma_async.sync.aligned.shape.dtype.atype.btype  d, a-desc, b-desc, scale-d, imm-scale-a, imm-scale-b;',
    'wgmma.mma_async.sync.aligned.shape.dtype.atype.btype  d, a, b-desc, scale-d, imm-scale-a, imm-scale-b;',
    ACCUMULATORS.flatMap((d) => FP8.flatMap((a) => FP8.map((b) => w(d, a, b)))),
    32,
  ),
];

const WGMMA_SEMANTICS = `D = A * B + D;   // scale-d = 1; A is M×K, B is K×N, D is M×N
// one element:  d[i][j] = d[i][j] + Σ_{p<K} a[i][p] · b[p][j]
// "The accumulation order, rounding and handling of subnormal inputs are unspecified."`;

export const WGMMA_RECORD: InstructionRecord = {
  opcode: 'wgmma.mma_async',
  operation: 'dot-product',
  family: 'matrix',
  section: {
    section: '9.7.15.5.2',
    title: 'Asynchronous Multiply-and-Accumulate Instruction: wgmma.mma_async',
    anchor: `${BASE}asynchronous-warpgroup-level-matrix-instructions-wgmma-mma-async`,
    semantics: WGMMA_SEMANTICS,
    notes: [
      'Perform a MxNxK matrix multiply and accumulate operation across a warpgroup, D = A*B+D, or D = A*B where the input from accumulator D is disabled (scale-d = 0).',
      'The element of D before the instruction is the element of C of the one output element (scale-d = 1).',
      'The accumulation order, rounding and handling of subnormal inputs are unspecified.',
    ],
  },
  typeGrammar: {
    kind: 'matrix',
    roles: ['d', 'a', 'b'],
    tokens: typeTokensOf(WGMMA_RECORD_LINES),
    layouts: null,
    example: 'wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16',
  },
  lines: WGMMA_RECORD_LINES,
  layout: { order: 'low-first' },
  // Measured by ptxas 13.0: .sync may be written more than once; .aligned and a shape may not.
  repeatable: ['sync'],
  requirements: [
    {
      feature: 'wgmma.mma_async',
      subject: 'feature',
      ptx: '8.0',
      target: { kind: 'only', targets: ['sm_90a'] },
    },
  ],
  matrix: {
    instruction: 'wgmma',
    threads: 128,
    fragments: ['a', 'd'],
    aSources: ['descriptor', 'registers'],
    transposeTypes: ['f16', 'bf16'],
  },
};

/** mma, then wgmma. */
export const MATRIX_RECORDS: readonly InstructionRecord[] = [MMA_RECORD, WGMMA_RECORD];
