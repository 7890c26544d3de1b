/**
 * Every floating-point `mma.sync.aligned` form (PTX ISA 9.7.14.5.14) and every dense
 * floating-point `wgmma.mma_async` form (9.7.15.5.2), as plain data: shape, layouts, the types
 * of D, A, B and C, the registers each thread holds of each fragment, and the target and PTX ISA
 * requirements as ptxas 13.0 answers them (tests/ptxas/mma-agreement.test.ts assembles every
 * form on every target and PTX ISA version around each requirement and checks they agree).
 *
 * Where ptxas and the spec text differ, the data follows ptxas and says so (`documented`, a
 * requirement's `feature`):
 *  - `.kind::f8f6f4` with only FP8 types (e4m3, e5m2) assembles on the sm_100f and sm_101f
 *    families (sm_100a and sm_101a from PTX ISA 8.6 with an f32 result at k = 32, 8.7 otherwise)
 *    as well as on sm_120a / sm_120f; the spec names sm_120a only;
 *  - `.kind::f8f6f4` with FP8 types also assembles at m16n8k16, which no syntax line lists
 *    (ptxas refuses that shape for e3m2, e2m3 and e2m1: "Illegal matrix shape");
 *  - the f64 forms take a rounding modifier (.rn .rz .rm .rp, "Precision and rounding"), which the
 *    syntax line leaves out and the example writes after the types.
 * The block-scaled forms (.kind::mxf8f6f4, .kind::mxf4, .kind::mxf4nvf4) are not listed here;
 * `blockScale` is where they will say how they are scaled.
 */
import type { ElementFormatName } from './cvt-types.ts';
import { comparePtx, type PtxVersion } from './ptx-versions.ts';
import { findTarget, ptxAcceptsTarget, targetProvides, type Target } from './targets.ts';
import type { RoundingMode } from './types.ts';

/** The element types of A and B. */
export type MatrixInputType = Extract<
  ElementFormatName,
  'f16' | 'bf16' | 'tf32' | 'f64' | 'e4m3' | 'e5m2' | 'e3m2' | 'e2m3' | 'e2m1'
>;
/** The element types of C and D. */
export type AccumulatorType = 'f16' | 'f32' | 'f64';
export type MatrixLayout = 'row' | 'col';
/** `.kind`: only f8f6f4 here; the block-scaled kinds belong to the block-scaling forms. */
export type MmaKind = 'f8f6f4' | 'mxf8f6f4' | 'mxf4' | 'mxf4nvf4';

export interface MatrixShape {
  readonly m: number;
  readonly n: number;
  readonly k: number;
}

/** How the block-scaled forms scale A and B (none of the forms here is block-scaled). */
export interface BlockScale {
  readonly scaleType: 'ue8m0' | 'ue4m3';
  readonly vectorSize: '1X' | '2X' | '4X';
}

/**
 * The registers of one fragment in each thread: `count` registers of `type` (.b32 holds two
 * .f16/.bf16, four 8-bit elements, or one .tf32), `elements` matrix elements in all.
 */
export interface FragmentRegisters {
  readonly count: number;
  readonly type: 'b32' | 'f32' | 'f64';
  readonly elements: number;
}

/** One way to meet a requirement: a target that provides `target` (targets.ts) at PTX ISA `ptx` or later. */
export interface RequirementOption {
  readonly target: string;
  readonly ptx: PtxVersion;
}

/** A row of the Target / PTX ISA notes, as ptxas enforces it: any one option meets it. */
export interface MatrixRequirement {
  readonly feature: string;
  readonly anyOf: readonly RequirementOption[];
}

interface MatrixFormBase {
  /** The instruction as PTX writes it, without operands. */
  readonly text: string;
  readonly shape: MatrixShape;
  readonly dtype: AccumulatorType;
  readonly atype: MatrixInputType;
  readonly btype: MatrixInputType;
  readonly ctype: AccumulatorType;
  readonly requirements: readonly MatrixRequirement[];
  /** False where only ptxas documents the form (no syntax line of the spec lists it). */
  readonly documented: boolean;
}

export interface MmaForm extends MatrixFormBase {
  readonly instruction: 'mma';
  readonly alayout: MatrixLayout;
  readonly blayout: MatrixLayout;
  readonly kind: MmaKind | null;
  /** f64 only: the written rounding modifier (null: none written, which means .rn). */
  readonly rounding: RoundingMode | null;
  readonly blockScale: BlockScale | null;
  /**
   * Threads that hold one product's fragments: 32, or 8 for m8n8k4 with .f16 (a warp computes
   * four m8n8k4 products, 9.7.14.5.1).
   */
  readonly threadsPerProduct: 32 | 8;
  readonly fragments: {
    readonly a: FragmentRegisters;
    readonly b: FragmentRegisters;
    readonly c: FragmentRegisters;
    readonly d: FragmentRegisters;
  };
}

/** Where wgmma reads A: a shared-memory matrix descriptor (.b64) or registers. */
export type WgmmaASource = 'descriptor' | 'registers';

export interface WgmmaForm extends MatrixFormBase {
  readonly instruction: 'wgmma';
  /** D is both the accumulator and the destination: ctype is dtype. */
  readonly aSources: readonly WgmmaASource[];
  /** imm-trans-a / imm-trans-b exist (.f16/.bf16 only; imm-trans-a with a descriptor A only). */
  readonly transpose: boolean;
  readonly fragments: {
    /** A in registers (with aSource 'registers'); B always comes from a descriptor. */
    readonly a: FragmentRegisters;
    readonly d: FragmentRegisters;
  };
}

export type MatrixForm = MmaForm | WgmmaForm;

/** Bits of an element's slot in a register: FP6 and FP4 sit in 8-bit containers (9.7.14.5.14). */
function containerBits(type: MatrixInputType | AccumulatorType): number {
  switch (type) {
    case 'f64':
      return 64;
    case 'f32':
    case 'tf32':
      return 32;
    case 'f16':
    case 'bf16':
      return 16;
    default:
      return 8;
  }
}

function registerType(type: MatrixInputType | AccumulatorType): FragmentRegisters['type'] {
  return type === 'f64' ? 'f64' : type === 'f32' ? 'f32' : 'b32';
}

/** `rows × cols` elements spread evenly over `threads` threads, packed into registers. */
function fragment(
  rows: number,
  cols: number,
  threads: number,
  type: MatrixInputType | AccumulatorType,
): FragmentRegisters {
  const elements = (rows * cols) / threads;
  const t = registerType(type);
  const registerBits = t === 'f64' ? 64 : 32;
  return { count: (elements * containerBits(type)) / registerBits, type: t, elements };
}

// --- Requirements, as ptxas 13.0 answers them ---------------------------------------------

const baseline = (feature: string, sm: number, ptx: PtxVersion): MatrixRequirement => ({
  feature,
  anyOf: [{ target: `sm_${sm}`, ptx }],
});

/** `.kind::f8f6f4` with FP8 types: the Blackwell families too (the spec names sm_120a). */
function kindFp8Requirement(ptxOnArchSpecific: PtxVersion): MatrixRequirement {
  return {
    feature:
      '.kind::f8f6f4 with .e4m3/.e5m2 (ptxas 13.0 also assembles it on the sm_100f and sm_101f families; the spec names sm_120a)',
    anyOf: [
      { target: 'sm_100a', ptx: ptxOnArchSpecific },
      { target: 'sm_101a', ptx: ptxOnArchSpecific },
      { target: 'sm_100f', ptx: '8.8' },
      { target: 'sm_101f', ptx: '8.8' },
      { target: 'sm_120a', ptx: '8.7' },
      { target: 'sm_120f', ptx: '8.8' },
    ],
  };
}

const KIND_FP6_FP4: MatrixRequirement = {
  feature: '.e3m2, .e2m3 and .e2m1 alternate floating point type mma (.kind::f8f6f4)',
  anyOf: [
    { target: 'sm_120a', ptx: '8.7' },
    { target: 'sm_120f', ptx: '8.8' },
  ],
};

const WGMMA: MatrixRequirement = {
  feature: 'wgmma.mma_async',
  anyOf: [{ target: 'sm_90a', ptx: '8.0' }],
};

// --- mma.sync.aligned ---------------------------------------------------------------------

const LAYOUTS: readonly MatrixLayout[] = ['row', 'col'];
const FP8_TYPES = ['e4m3', 'e5m2'] as const;
const F8F6F4_TYPES = ['e4m3', 'e5m2', 'e3m2', 'e2m3', 'e2m1'] as const;
const ROUNDINGS: readonly (RoundingMode | null)[] = [null, 'rn', 'rz', 'rm', 'rp'];

interface MmaSpec {
  readonly shape: MatrixShape;
  readonly alayout?: MatrixLayout;
  readonly blayout?: MatrixLayout;
  readonly dtype: AccumulatorType;
  readonly atype: MatrixInputType;
  readonly btype: MatrixInputType;
  readonly ctype: AccumulatorType;
  readonly kind?: MmaKind;
  readonly rounding?: RoundingMode | null;
  readonly requirements: readonly MatrixRequirement[];
  readonly documented?: boolean;
}

function shapeText({ m, n, k }: MatrixShape): string {
  return `m${m}n${n}k${k}`;
}

function mmaForm(spec: MmaSpec): MmaForm {
  const { shape, dtype, atype, btype, ctype } = spec;
  const alayout = spec.alayout ?? 'row';
  const blayout = spec.blayout ?? 'col';
  const kind = spec.kind ?? null;
  const rounding = spec.rounding ?? null;
  const text = [
    'mma.sync.aligned',
    shapeText(shape),
    alayout,
    blayout,
    ...(kind ? [`kind::${kind}`] : []),
    dtype,
    atype,
    btype,
    ctype,
    ...(rounding ? [rounding] : []),
  ].join('.');
  const threads = shape.m === 8 && atype === 'f16' ? 8 : 32;
  return {
    instruction: 'mma',
    text,
    shape,
    alayout,
    blayout,
    kind,
    rounding,
    blockScale: null,
    dtype,
    atype,
    btype,
    ctype,
    threadsPerProduct: threads,
    fragments: {
      a: fragment(shape.m, shape.k, threads, atype),
      b: fragment(shape.k, shape.n, threads, btype),
      c: fragment(shape.m, shape.n, threads, ctype),
      d: fragment(shape.m, shape.n, threads, dtype),
    },
    requirements: spec.requirements,
    documented: spec.documented ?? true,
  };
}

const m8n8k4: MatrixShape = { m: 8, n: 8, k: 4 };
const m16n8k4: MatrixShape = { m: 16, n: 8, k: 4 };
const m16n8k8: MatrixShape = { m: 16, n: 8, k: 8 };
const m16n8k16: MatrixShape = { m: 16, n: 8, k: 16 };
const m16n8k32: MatrixShape = { m: 16, n: 8, k: 32 };

function* mmaSpecs(): Generator<MmaSpec> {
  // .f16: m8n8k4 in any layout ("When .ctype is .f32, .dtype must also be .f32"); m16n8k8 and
  // m16n8k16 .row.col with .dtype = .ctype (ptxas: ".dtype must be '.f16' when .ctype is '.f16'").
  const m8n8k4F16 = baseline('.f16 floating point type mma with .m8n8k4 shape', 70, '6.4');
  for (const [dtype, ctype] of [
    ['f16', 'f16'],
    ['f32', 'f16'],
    ['f32', 'f32'],
  ] as const)
    for (const alayout of LAYOUTS)
      for (const blayout of LAYOUTS)
        yield {
          shape: m8n8k4,
          alayout,
          blayout,
          dtype,
          atype: 'f16',
          btype: 'f16',
          ctype,
          requirements: [m8n8k4F16],
        };
  for (const acc of ['f16', 'f32'] as const) {
    yield {
      shape: m16n8k8,
      dtype: acc,
      atype: 'f16',
      btype: 'f16',
      ctype: acc,
      requirements: [baseline('.f16 floating point type mma with .m16n8k8 shape', 75, '6.5')],
    };
    yield {
      shape: m16n8k16,
      dtype: acc,
      atype: 'f16',
      btype: 'f16',
      ctype: acc,
      requirements: [baseline('.f16 floating point type mma with .m16n8k16 shape', 80, '7.0')],
    };
  }
  // .bf16 (m16n8k8, m16n8k16) and .tf32 (m16n8k4, m16n8k8): .f32 accumulators only.
  const bf16 = baseline('.bf16 alternate floating point type mma', 80, '7.0');
  const tf32 = baseline('.tf32 alternate floating point type mma', 80, '7.0');
  yield {
    shape: m16n8k4,
    dtype: 'f32',
    atype: 'tf32',
    btype: 'tf32',
    ctype: 'f32',
    requirements: [tf32],
  };
  yield {
    shape: m16n8k8,
    dtype: 'f32',
    atype: 'tf32',
    btype: 'tf32',
    ctype: 'f32',
    requirements: [tf32],
  };
  yield {
    shape: m16n8k8,
    dtype: 'f32',
    atype: 'bf16',
    btype: 'bf16',
    ctype: 'f32',
    requirements: [bf16],
  };
  yield {
    shape: m16n8k16,
    dtype: 'f32',
    atype: 'bf16',
    btype: 'bf16',
    ctype: 'f32',
    requirements: [bf16],
  };
  // .f64: m8n8k4 on sm_80, the larger shapes on sm_90; each with or without a rounding modifier.
  for (const shape of [m8n8k4, m16n8k4, m16n8k8, m16n8k16]) {
    const requirement =
      shape === m8n8k4
        ? baseline('.f64 floating point type mma with .m8n8k4 shape', 80, '7.0')
        : baseline(
            '.f64 floating point type mma with .m16n8k4, .m16n8k8 and .m16n8k16 shapes',
            90,
            '7.8',
          );
    for (const rounding of ROUNDINGS)
      yield {
        shape,
        dtype: 'f64',
        atype: 'f64',
        btype: 'f64',
        ctype: 'f64',
        rounding,
        requirements: [requirement],
      };
  }
  // .e4m3 / .e5m2 without .kind: m16n8k32 .f32 from PTX ISA 8.4, .f16 and m16n8k16 from 8.7.
  for (const shape of [m16n8k16, m16n8k32])
    for (const acc of ['f16', 'f32'] as const)
      for (const atype of FP8_TYPES)
        for (const btype of FP8_TYPES)
          yield {
            shape,
            dtype: acc,
            atype,
            btype,
            ctype: acc,
            requirements: [
              shape === m16n8k32 && acc === 'f32'
                ? baseline('.e4m3 and .e5m2 alternate floating point type mma', 89, '8.4')
                : baseline(
                    'shape .m16n8k16 and .f16 dtype/ctype with .e4m3/.e5m2 alternate floating point type mma',
                    89,
                    '8.7',
                  ),
            ],
          };
  // .kind::f8f6f4: m16n8k32 with any pair of the five types; m16n8k16 with FP8 types only.
  for (const shape of [m16n8k32, m16n8k16])
    for (const acc of ['f16', 'f32'] as const)
      for (const atype of F8F6F4_TYPES)
        for (const btype of F8F6F4_TYPES) {
          const fp8Only =
            (FP8_TYPES as readonly string[]).includes(atype) &&
            (FP8_TYPES as readonly string[]).includes(btype);
          if (shape === m16n8k16 && !fp8Only) continue;
          yield {
            shape,
            dtype: acc,
            atype,
            btype,
            ctype: acc,
            kind: 'f8f6f4',
            requirements: [
              fp8Only
                ? kindFp8Requirement(shape === m16n8k32 && acc === 'f32' ? '8.6' : '8.7')
                : KIND_FP6_FP4,
            ],
            documented: shape === m16n8k32,
          };
        }
}

export const MMA_FORMS: readonly MmaForm[] = [...mmaSpecs()].map(mmaForm);

// --- wgmma.mma_async ------------------------------------------------------------------------

/** N = 8, 16, …, 256 (9.7.15.2: every dense floating-point shape is m64nNk{8,16,32}). */
export const WGMMA_N: readonly number[] = Array.from({ length: 32 }, (_, i) => 8 * (i + 1));

/** Warpgroup: the 128 threads of four warps hold the fragments. */
const WARPGROUP = 128;

function wgmmaForm(
  n: number,
  k: number,
  dtype: AccumulatorType,
  atype: MatrixInputType,
  btype: MatrixInputType,
): WgmmaForm {
  const shape = { m: 64, n, k };
  return {
    instruction: 'wgmma',
    text: `wgmma.mma_async.sync.aligned.${shapeText(shape)}.${dtype}.${atype}.${btype}`,
    shape,
    dtype,
    atype,
    btype,
    ctype: dtype,
    aSources: ['descriptor', 'registers'],
    transpose: atype === 'f16' || atype === 'bf16',
    fragments: {
      a: fragment(64, k, WARPGROUP, atype),
      d: fragment(64, n, WARPGROUP, dtype),
    },
    requirements: [WGMMA],
    documented: true,
  };
}

function* wgmmaForms(): Generator<WgmmaForm> {
  for (const n of WGMMA_N) {
    yield wgmmaForm(n, 16, 'f16', 'f16', 'f16');
    yield wgmmaForm(n, 16, 'f32', 'f16', 'f16');
    yield wgmmaForm(n, 16, 'f32', 'bf16', 'bf16');
    yield wgmmaForm(n, 8, 'f32', 'tf32', 'tf32');
    for (const dtype of ['f16', 'f32'] as const)
      for (const atype of FP8_TYPES)
        for (const btype of FP8_TYPES) yield wgmmaForm(n, 32, dtype, atype, btype);
  }
}

export const WGMMA_FORMS: readonly WgmmaForm[] = [...wgmmaForms()];

export const MATRIX_FORMS: readonly MatrixForm[] = [...MMA_FORMS, ...WGMMA_FORMS];

const byText = new Map(MATRIX_FORMS.map((f) => [f.text, f]));

/** The form written exactly as its `text` (canonical spelling), or undefined. */
export function findMatrixForm(text: string): MatrixForm | undefined {
  return byText.get(text.trim());
}

/** Why a form is not available on a target at a PTX ISA version (empty: it is). */
export interface MatrixFormGap {
  readonly feature: string;
  /** The options, none of which the target and version meet. */
  readonly anyOf: readonly RequirementOption[];
}

/**
 * Whether `.target target` at `.version ptx` assembles the form: the version accepts the
 * target, and every requirement has an option the target provides at that version or later.
 */
export function matrixFormAvailability(
  form: MatrixForm,
  target: Target | string,
  ptx: PtxVersion,
): {
  readonly available: boolean;
  readonly targetAccepted: boolean;
  readonly gaps: readonly MatrixFormGap[];
} {
  const t = typeof target === 'string' ? findTarget(target) : target;
  if (!t) return { available: false, targetAccepted: false, gaps: [] };
  const targetAccepted = ptxAcceptsTarget(t, ptx);
  const gaps = form.requirements
    .filter(
      (r) =>
        !r.anyOf.some((o) => {
          const need = findTarget(o.target);
          return need !== undefined && targetProvides(t, need) && comparePtx(ptx, o.ptx) >= 0;
        }),
    )
    .map((r) => ({ feature: r.feature, anyOf: r.anyOf }));
  return { available: targetAccepted && gaps.length === 0, targetAccepted, gaps };
}
