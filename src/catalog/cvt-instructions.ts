/**
 * `cvt` between floating-point formats (PTX ISA 9.7.9.21) as data: the syntax lines as the spec
 * prints them, broken into modifier slots, with the restrictions of its notes, and the target /
 * PTX ISA requirements. cvt-forms.ts generates every concrete form from them. Integer types
 * (`.u8` … `.s64`) are outside this catalog: only float-to-float conversions are listed.
 *
 * Where ptxas 13.0 and the text differ, the catalog follows ptxas and assembler-notes.ts says
 * so (`cvt-…` notes); each such place is marked "ptxas:" below.
 */
import type { CvtModifier, CvtType } from './cvt-types.ts';
import type { PtxVersion } from './ptx-versions.ts';

export interface CvtSlot {
  readonly name: string;
  readonly options: readonly CvtModifier[];
  readonly optional: boolean;
  /** The rounding that applies when an optional rounding slot is left out. */
  readonly default?: CvtModifier;
}

/** One syntax line, for one (dtype, atype) pair: the general lines are expanded per pair. */
export interface CvtSyntaxLine {
  /** The line as the spec prints it (shared by the pairs of a general line). */
  readonly text: string;
  readonly dtype: CvtType;
  readonly atype: CvtType;
  readonly slots: readonly CvtSlot[];
  /** `d, a, b, rbits` for the .rs x2 lines, `d, {a, b, e, f}, rbits` for the x4 lines, … */
  readonly operands: 'd, a' | 'd, a, b' | 'd, a, b, rbits' | 'd, {a, b, e, f}, rbits';
  /**
   * `ptxas`: the spec has no such line, but ptxas 13.0 assembles its forms (assembler note
   * cvt-e2m1x2-from-f16x2); evaluated under the decision ptxas-only-forms.
   */
  readonly origin?: 'ptxas';
}

/** What a requirement is about: the form's types and modifiers. */
export interface CvtFacts {
  readonly dtype: CvtType;
  readonly atype: CvtType;
  readonly modifiers: readonly CvtModifier[];
}

/**
 * One row of the Target ISA Notes / PTX ISA Notes. The target is either "sm_N or higher" (sm),
 * a choice of (sm, PTX) pairs (e4m3x2/e5m2x2: sm_89 from 8.1, sm_90 from 7.8), or a list of
 * architecture- and family-specific targets (`targets`: the feature exists on those only).
 */
export interface CvtRequirement {
  /** The feature in the spec's words. */
  readonly feature: string;
  readonly ptx: PtxVersion;
  readonly target:
    | { readonly kind: 'baseline'; readonly sm: number }
    | {
        readonly kind: 'either';
        readonly options: readonly { readonly sm: number; readonly ptx: PtxVersion }[];
      }
    | { readonly kind: 'only'; readonly targets: readonly string[] };
  readonly applies: (form: CvtFacts) => boolean;
}

export interface CvtRecord {
  readonly opcode: 'cvt';
  readonly section: string;
  readonly title: string;
  readonly anchor: string;
  readonly lines: readonly CvtSyntaxLine[];
  readonly requirements: readonly CvtRequirement[];
  /** The Semantics block, as the spec gives it. */
  readonly semantics: string;
  readonly notes: readonly string[];
}

const opt = (name: string, ...options: CvtModifier[]): CvtSlot => ({
  name,
  options,
  optional: true,
});
const req = (name: string, ...options: CvtModifier[]): CvtSlot => ({
  name,
  options,
  optional: false,
});

const FRND = ['rn', 'rz', 'rm', 'rp'] as const;
const FRND2 = ['rn', 'rz'] as const;
const FRND3 = ['rz', 'rp'] as const;
const IRND = ['rni', 'rzi', 'rmi', 'rpi'] as const;
const SCALARS = ['f16', 'bf16', 'f32', 'f64'] as const;
type Scalar = (typeof SCALARS)[number];
const WIDTH: Record<Scalar, number> = { f16: 16, bf16: 16, f32: 32, f64: 64 };

const GENERAL_I = 'cvt{.irnd}{.ftz}{.sat}.dtype.atype         d, a;  // integer rounding';
const GENERAL_F = 'cvt{.frnd}{.ftz}{.sat}.dtype.atype         d, a;  // fp rounding';

/**
 * The general lines restricted to `.f16 .bf16 .f32 .f64`, one line per (dtype, atype), with the
 * modifiers the notes allow for that pair:
 *  - "Integer rounding is required … for same-size float-to-float conversions where the value
 *    is rounded to an integer": `.irnd`, optional. ptxas: only for the same type (not
 *    cvt.rni.f16.bf16, which is same-size).
 *  - "Rounding modifier is mandatory … when destination type is smaller than source type";
 *    "Floating-point rounding is illegal in all other instances". ptxas: also optional between
 *    f16 and bf16 (same size), and optional when widening from bf16 (the spec's own example
 *    `cvt.f64.bf16.rp`); not allowed on the other widenings (cvt.f32.f16) or the same type.
 *  - ".ftz can only be specified when either .dtype or .atype is .f32".
 *  - ".sat … Applies to .f16, .f32, and .f64 types": both types among those (no .bf16).
 */
function generalLines(): CvtSyntaxLine[] {
  const lines: CvtSyntaxLine[] = [];
  for (const dtype of SCALARS) {
    for (const atype of SCALARS) {
      const ftz = dtype === 'f32' || atype === 'f32' ? [opt('ftz', 'ftz')] : [];
      const sat = dtype !== 'bf16' && atype !== 'bf16' ? [opt('sat', 'sat')] : [];
      if (dtype === atype) {
        lines.push({
          text: GENERAL_I,
          dtype,
          atype,
          slots: [opt('irnd', ...IRND), ...ftz, ...sat],
          operands: 'd, a',
        });
        continue;
      }
      const narrowing = WIDTH[dtype] < WIDTH[atype];
      const sameSize = WIDTH[dtype] === WIDTH[atype];
      // Left out between f16 and bf16, where values can be lost, the rounding is .rn (decision
      // cvt-default-rounding); widening from bf16 is exact, whatever the modifier says.
      const rnd = narrowing
        ? [req('frnd', ...FRND)]
        : sameSize
          ? [{ ...opt('frnd', ...FRND), default: 'rn' as const }]
          : atype === 'bf16'
            ? [opt('frnd', ...FRND)]
            : [];
      lines.push({
        text: GENERAL_F,
        dtype,
        atype,
        slots: [...rnd, ...ftz, ...sat],
        operands: 'd, a',
      });
    }
  }
  return lines;
}

const RELU = opt('relu', 'relu');
const SATFINITE_OPT = opt('satfinite', 'satfinite');
const SATFINITE = req('satfinite', 'satfinite');

function line(
  text: string,
  dtype: CvtType,
  atype: CvtType,
  slots: CvtSlot[],
  operands: CvtSyntaxLine['operands'] = 'd, a',
): CvtSyntaxLine {
  return { text, dtype, atype, slots, operands };
}

const F8X2 = ['e4m3x2', 'e5m2x2'] as const;
const F6X2 = ['e2m3x2', 'e3m2x2'] as const;
const F8X4 = ['e4m3x4', 'e5m2x4'] as const;
const F6X4 = ['e2m3x4', 'e3m2x4'] as const;

function specialLines(): CvtSyntaxLine[] {
  const rnd2 = req('frnd2', ...FRND2);
  const rs = req('rs', 'rs');
  const rn = req('rn', 'rn');
  return [
    line('cvt.frnd2{.relu}{.satfinite}.f16.f32       d, a;', 'f16', 'f32', [
      rnd2,
      RELU,
      SATFINITE_OPT,
    ]),
    line(
      'cvt.frnd2{.relu}{.satfinite}.f16x2.f32     d, a, b;',
      'f16x2',
      'f32',
      [rnd2, RELU, SATFINITE_OPT],
      'd, a, b',
    ),
    line(
      'cvt.rs{.relu}{.satfinite}.f16x2.f32        d, a, b, rbits;',
      'f16x2',
      'f32',
      [rs, RELU, SATFINITE_OPT],
      'd, a, b, rbits',
    ),
    line('cvt.frnd2{.relu}{.satfinite}.bf16.f32      d, a;', 'bf16', 'f32', [
      rnd2,
      RELU,
      SATFINITE_OPT,
    ]),
    line(
      'cvt.frnd2{.relu}{.satfinite}.bf16x2.f32    d, a, b;',
      'bf16x2',
      'f32',
      [rnd2, RELU, SATFINITE_OPT],
      'd, a, b',
    ),
    line(
      'cvt.rs{.relu}{.satfinite}.bf16x2.f32       d, a, b, rbits;',
      'bf16x2',
      'f32',
      [rs, RELU, SATFINITE_OPT],
      'd, a, b, rbits',
    ),
    line('cvt.rna{.satfinite}.tf32.f32               d, a;', 'tf32', 'f32', [
      req('rna', 'rna'),
      SATFINITE_OPT,
    ]),
    line('cvt.frnd2{.satfinite}{.relu}.tf32.f32      d, a;', 'tf32', 'f32', [
      rnd2,
      SATFINITE_OPT,
      RELU,
    ]),
    ...F8X2.flatMap((t) => [
      line(
        'cvt.rn.satfinite{.relu}.f8x2type.f32       d, a, b;',
        t,
        'f32',
        [rn, SATFINITE, RELU],
        'd, a, b',
      ),
      line('cvt.rn.satfinite{.relu}.f8x2type.f16x2     d, a;', t, 'f16x2', [rn, SATFINITE, RELU]),
      line('cvt.rn.{.relu}.f16x2.f8x2type              d, a;', 'f16x2', t, [rn, RELU]),
    ]),
    ...F8X4.map((t) =>
      line(
        'cvt.rs{.relu}.satfinite.f8x4type.f32       d, {a, b, e, f}, rbits;',
        t,
        'f32',
        [rs, RELU, SATFINITE],
        'd, {a, b, e, f}, rbits',
      ),
    ),
    line(
      'cvt.rn.satfinite{.relu}.f4x2type.f32       d, a, b;',
      'e2m1x2',
      'f32',
      [rn, SATFINITE, RELU],
      'd, a, b',
    ),
    line('cvt.rn{.relu}.f16x2.f4x2type               d, a;', 'f16x2', 'e2m1x2', [rn, RELU]),
    {
      ...line('cvt.rn.satfinite{.relu}.e2m1x2.f16x2      d, a;', 'e2m1x2', 'f16x2', [
        rn,
        SATFINITE,
        RELU,
      ]),
      origin: 'ptxas',
    },
    line(
      'cvt.rs{.relu}.satfinite.f4x4type.f32       d, {a, b, e, f}, rbits;',
      'e2m1x4',
      'f32',
      [rs, RELU, SATFINITE],
      'd, {a, b, e, f}, rbits',
    ),
    ...F6X2.flatMap((t) => [
      line(
        'cvt.rn.satfinite{.relu}.f6x2type.f32       d, a, b;',
        t,
        'f32',
        [rn, SATFINITE, RELU],
        'd, a, b',
      ),
      line('cvt.rn{.relu}.f16x2.f6x2type               d, a;', 'f16x2', t, [rn, RELU]),
    ]),
    ...F6X4.map((t) =>
      line(
        'cvt.rs{.relu}.satfinite.f6x4type.f32       d, {a, b, e, f}, rbits;',
        t,
        'f32',
        [rs, RELU, SATFINITE],
        'd, {a, b, e, f}, rbits',
      ),
    ),
    line(
      'cvt.frnd3{.satfinite}.ue8m0x2.f32          d, a, b;',
      'ue8m0x2',
      'f32',
      [req('frnd3', ...FRND3), SATFINITE_OPT],
      'd, a, b',
    ),
    line('cvt.frnd3{.satfinite}.ue8m0x2.bf16x2       d, a;', 'ue8m0x2', 'bf16x2', [
      req('frnd3', ...FRND3),
      SATFINITE_OPT,
    ]),
    line('cvt.rn.bf16x2.ue8m0x2                      d, a;', 'bf16x2', 'ue8m0x2', [rn]),
  ];
}

const has = (f: CvtFacts, m: CvtModifier) => f.modifiers.includes(m);
const either = (f: CvtFacts, ...types: CvtType[]) =>
  types.includes(f.dtype) || types.includes(f.atype);

/**
 * The architectures of the FP4/FP6/UE8M0 conversions: sm_100a, sm_101a (renamed sm_110a in PTX
 * ISA 9.0), sm_120a, and from PTX ISA 8.8 the families sm_100f, sm_101f (sm_110f), sm_120f.
 * Family targets exist only from PTX ISA 8.8 (sm_110f from 9.0), so their own PTX ISA version
 * carries the "from 8.8".
 */
const MX_TARGETS = ['sm_100a', 'sm_101a', 'sm_120a', 'sm_100f', 'sm_101f', 'sm_120f', 'sm_110f'];

/** The rows of the Target ISA Notes and PTX ISA Notes for float-to-float conversions. */
const REQUIREMENTS: readonly CvtRequirement[] = [
  {
    feature: '.relu modifier and {.f16x2, .bf16, .bf16x2, .tf32} destination formats',
    target: { kind: 'baseline', sm: 80 },
    ptx: '7.0',
    applies: (f) => has(f, 'relu') || ['f16x2', 'bf16', 'bf16x2', 'tf32'].includes(f.dtype),
  },
  {
    feature: 'cvt.f32.bf16',
    target: { kind: 'baseline', sm: 80 },
    ptx: '7.1',
    applies: (f) => f.dtype === 'f32' && f.atype === 'bf16',
  },
  {
    feature: 'cvt.bf16.{f16/f64/bf16}, cvt.{f16/f64}.bf16 and cvt.tf32.f32.{relu}.{rn/rz}',
    target: { kind: 'baseline', sm: 90 },
    ptx: '7.8',
    applies: (f) =>
      (f.dtype === 'bf16' && ['f16', 'f64', 'bf16'].includes(f.atype)) ||
      (['f16', 'f64'].includes(f.dtype) && f.atype === 'bf16') ||
      (f.dtype === 'tf32' && (has(f, 'rn') || has(f, 'rz'))),
  },
  {
    feature: '.ftz qualifier for cvt.f32.bf16',
    target: { kind: 'baseline', sm: 90 },
    ptx: '7.8',
    applies: (f) => f.dtype === 'f32' && f.atype === 'bf16' && has(f, 'ftz'),
  },
  {
    feature: 'cvt with .e4m3x2/.e5m2x2 (sm_90 from PTX ISA 7.8, sm_89 from 8.1)',
    target: {
      kind: 'either',
      options: [
        { sm: 89, ptx: '8.1' },
        { sm: 90, ptx: '7.8' },
      ],
    },
    ptx: '7.8',
    applies: (f) => either(f, 'e4m3x2', 'e5m2x2'),
  },
  {
    // ptxas: '.satfinite' requires sm_70, where the notes name no target (assembler note
    // cvt-satfinite-sm70); relu and the bf16/x2/tf32 types raise it to sm_80.
    feature: 'cvt.satfinite.{f16, bf16, f16x2, bf16x2, tf32}.f32',
    target: { kind: 'baseline', sm: 70 },
    ptx: '8.1',
    applies: (f) =>
      has(f, 'satfinite') && ['f16', 'bf16', 'f16x2', 'bf16x2', 'tf32'].includes(f.dtype),
  },
  {
    feature: 'cvt.{rn/rz}.satfinite.tf32.f32',
    target: { kind: 'baseline', sm: 100 },
    ptx: '8.6',
    applies: (f) => f.dtype === 'tf32' && has(f, 'satfinite') && !has(f, 'rna'),
  },
  {
    feature:
      'cvt with .e2m1x2/.e2m3x2/.e3m2x2/.ue8m0x2 (sm_100a, sm_101a, sm_120a; sm_100f, sm_101f, sm_120f from PTX ISA 8.8; sm_110f)',
    target: { kind: 'only', targets: MX_TARGETS },
    ptx: '8.6',
    applies: (f) => either(f, 'e2m1x2', 'e2m3x2', 'e3m2x2', 'ue8m0x2'),
  },
  {
    feature: '.rs rounding mode and cvt.rs{.e2m1x4/.e4m3x4/.e5m2x4/.e3m2x4/.e2m3x4}.f32',
    target: { kind: 'only', targets: ['sm_100a', 'sm_103a'] },
    ptx: '8.7',
    applies: (f) => has(f, 'rs'),
  },
];

const SEMANTICS = `if (/* inst type is .f16x2 or .bf16x2 */) {
    d[31:16] = convert(a);
    d[15:0]  = convert(b);
} else if (/* inst destination type is .e5m2x2 or .e4m3x2 or .ue8m0x2 */) {
    d[15:8] = convert(a);
    d[7:0]  = convert(b);
} else if (/* inst destination type is .e2m1x2 */) {
    d[7:4] = convert(a);
    d[3:0] = convert(b);
} else if (/* inst destination type is .e2m3x2 or .e3m2x2 */) {
    d[15:14] = 0;
    d[13:8] = convert(a);
    d[7:6] = 0;
    d[5:0] = convert(b);
} else if (/* inst destination type is .e2m1x4 */) {
    d[15:12] = convert(a);
    d[11:8] = convert(b);
    d[7:4] = convert(e);
    d[3:0] = convert(f);
} else if (/* inst destination type is .e4m3x4 or .e5m2x4 */) {
    d[31:24] = convert(a);
    d[23:16] = convert(b);
    d[15:8] = convert(e);
    d[7:0] = convert(f);
} else if (/* inst destination type is .e2m3x4 or .e3m2x4 */) {
    d[31:30] = 0;
    d[29:24] = convert(a);
    d[23:22] = 0;
    d[21:16] = convert(b);
    d[15:14] = 0;
    d[13:8] = convert(e);
    d[7:6] = 0;
    d[5:0] = convert(f);
} else {
    d = convert(a);
}`;

export const CVT_RECORD: CvtRecord = {
  opcode: 'cvt',
  section: '9.7.9.21',
  title: 'Data Movement and Conversion Instructions: cvt',
  anchor:
    'https://docs.nvidia.com/cuda/parallel-thread-execution/#data-movement-and-conversion-instructions-cvt',
  lines: [...generalLines(), ...specialLines()],
  requirements: REQUIREMENTS,
  semantics: SEMANTICS,
  notes: [
    '.rn: rounding to nearest, with ties to even. .rna: ties away from zero. .rz: toward zero. .rm: toward negative infinity. .rp: toward positive infinity.',
    '.rs: the result is rounded toward zero or away from zero by the carry out of the integer addition of the supplied random bits (rbits) to the discarded bits of the mantissa.',
    '.rni, .rzi, .rmi, .rpi: round to an integral value (nearest even, toward zero, toward -inf, toward +inf), stored in floating-point format.',
    '.ftz flushes single-precision (.f32) subnormal inputs and results to sign-preserving zero.',
    '.sat limits the result to the range [0.0, 1.0]; NaN results are flushed to positive zero. Applies to .f16, .f32 and .f64.',
    '.relu clamps the result to 0 if negative; NaN results are converted to canonical NaN.',
    '.satfinite: a NaN input gives NaN in the destination format (positive MAX_NORM for .e2m1x2, .e2m3x2, .e3m2x2 and their x4 forms); an input whose magnitude exceeds MAX_NORM gives sign-preserved MAX_NORM (positive MAX_NORM for .ue8m0x2, which has no sign).',
    'For cvt.f32.bf16, NaN input yields unspecified NaN.',
  ],
};
