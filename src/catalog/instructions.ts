import type { InstrType, Modifier, Opcode, Requirement } from './types.ts';

/**
 * The spec as data: one record per instruction of PTX ISA sections 9.7.4 (half precision) and
 * 9.7.5 (mixed precision). Each record keeps the syntax lines as written in the spec, broken
 * into modifier slots in the spec's order; `forms.ts` generates every concrete form from them.
 */

/** One `{.x}` or `.x` position in a syntax line. A slot with several options is a choice. */
export interface Slot {
  readonly name: string;
  readonly options: readonly Modifier[];
  readonly optional: boolean;
  /** The modifier that applies when an optional slot is left out (`.rn` for `{.rnd}`). */
  readonly default?: Modifier;
}

export interface SyntaxLine {
  /** The line exactly as the spec prints it (for a ptxas line: written in the spec's style). */
  readonly text: string;
  readonly types: readonly InstrType[];
  readonly slots: readonly Slot[];
  /**
   * `ptxas`: the spec has no such line, but ptxas 13.0 assembles its forms (assembler-notes.ts
   * says where). The spec documents no behaviour for them; the engine evaluates them under the
   * decision `ptxas-only-forms`. Absent: the line is the spec's.
   */
  readonly origin?: 'ptxas';
}

export type CornerInput = '-inf' | '-subnormal' | '-0' | '+0' | '+subnormal' | '+inf' | 'nan';
export type CornerResult = '+0.0' | '-0.0' | '+1.0' | '-1.0' | '+inf' | 'nan' | 'input';

export interface CornerCaseTable {
  readonly title: string;
  readonly types: readonly InstrType[];
  /** Modifiers the table is stated for (e.g. `.ftz` for `ex2.approx.ftz.bf16`). */
  readonly rows: readonly { readonly input: CornerInput; readonly result: CornerResult }[];
}

export interface ErrorBound {
  readonly types: readonly InstrType[];
  readonly kind: 'absolute' | 'relative';
  /** The bound is 2^log2. */
  readonly log2: number;
  readonly text: string;
}

export interface InstructionRecord {
  readonly opcode: Opcode;
  readonly family: 'half' | 'mixed';
  readonly section: string;
  readonly title: string;
  readonly anchor: string;
  readonly lines: readonly SyntaxLine[];
  readonly requirements: readonly Requirement[];
  /** The spec's semantics pseudo-code for one lane. */
  readonly semantics: string;
  readonly notes: readonly string[];
  readonly cornerCases?: readonly CornerCaseTable[];
  readonly errorBounds?: readonly ErrorBound[];
}

const F16S: readonly InstrType[] = ['f16', 'f16x2'];
const BF16S: readonly InstrType[] = ['bf16', 'bf16x2'];
const HALVES: readonly InstrType[] = ['f16', 'f16x2', 'bf16', 'bf16x2'];
const MIXED: readonly InstrType[] = ['f32.f16', 'f32.bf16'];

const opt = (name: string, ...options: Modifier[]): Slot => ({ name, options, optional: true });
const req = (name: string, ...options: Modifier[]): Slot => ({ name, options, optional: false });
const rndHalfOptional: Slot = { name: 'rnd', options: ['rn'], optional: true, default: 'rn' };
const rndHalfMandatory = req('rnd', 'rn');
const rndAllOptional: Slot = {
  name: 'rnd',
  options: ['rn', 'rz', 'rm', 'rp'],
  optional: true,
  default: 'rn',
};
const rndAllMandatory = req('rnd', 'rn', 'rz', 'rm', 'rp');
const FTZ = opt('ftz', 'ftz');
const SAT = opt('sat', 'sat');

const HALF_BASE = 'https://docs.nvidia.com/cuda/parallel-thread-execution/#';
const PTX_NOTE_SUBNORMAL_F16 =
  'By default, subnormal numbers are supported. .ftz on .f16/.f16x2 flushes subnormal inputs and results to sign-preserving zero.';
const SAT_NOTE = '.sat clamps the result to [0.0, 1.0]; NaN results are flushed to +0.0.';

/** add, sub and mul share one shape in 9.7.4. */
function halfBinaryArith(
  opcode: 'add' | 'sub' | 'mul',
  section: string,
  title: string,
  operator: string,
): InstructionRecord {
  return {
    opcode,
    family: 'half',
    section,
    title,
    anchor: `${HALF_BASE}half-precision-floating-point-instructions-${opcode}`,
    lines: [
      {
        text: `${opcode}{.rnd}{.ftz}{.sat}.f16   d, a, b;`,
        types: ['f16'],
        slots: [rndHalfOptional, FTZ, SAT],
      },
      {
        text: `${opcode}{.rnd}{.ftz}{.sat}.f16x2 d, a, b;`,
        types: ['f16x2'],
        slots: [rndHalfOptional, FTZ, SAT],
      },
      { text: `${opcode}{.rnd}.bf16   d, a, b;`, types: ['bf16'], slots: [rndHalfOptional] },
      { text: `${opcode}{.rnd}.bf16x2 d, a, b;`, types: ['bf16x2'], slots: [rndHalfOptional] },
    ],
    requirements: [
      { feature: `${opcode}.{f16,f16x2}`, sm: 53, ptx: '4.2', types: F16S },
      { feature: `${opcode}{.rnd}.{bf16,bf16x2}`, sm: 90, ptx: '7.8', types: BF16S },
    ],
    semantics: `d = a ${operator} b;   // x2: d[i] = fA[i] ${operator} fB[i] for i = 0, 1`,
    notes: [
      'The default rounding modifier is .rn (round to nearest even).',
      PTX_NOTE_SUBNORMAL_F16,
      SAT_NOTE,
      'Half-precision instructions return an unspecified NaN.',
    ],
  };
}

/** neg and abs share one shape in 9.7.4; they differ in the PTX ISA version of .f16 and the semantics. */
function signOnly(
  opcode: 'neg' | 'abs',
  section: string,
  title: string,
  f16Ptx: string,
  semantics: string,
): InstructionRecord {
  return {
    opcode,
    family: 'half',
    section,
    title,
    anchor: `${HALF_BASE}half-precision-floating-point-instructions-${opcode}`,
    lines: [
      { text: `${opcode}{.ftz}.f16    d, a;`, types: ['f16'], slots: [FTZ] },
      { text: `${opcode}{.ftz}.f16x2  d, a;`, types: ['f16x2'], slots: [FTZ] },
      { text: `${opcode}.bf16         d, a;`, types: ['bf16'], slots: [] },
      { text: `${opcode}.bf16x2       d, a;`, types: ['bf16x2'], slots: [] },
    ],
    requirements: [
      { feature: `${opcode}.{f16,f16x2}`, sm: 53, ptx: f16Ptx, types: F16S },
      { feature: `${opcode}.{bf16,bf16x2}`, sm: 80, ptx: '7.0', types: BF16S },
    ],
    semantics,
    notes: [
      PTX_NOTE_SUBNORMAL_F16,
      'NaN inputs yield an unspecified NaN. Future implementations may preserve the payload and change only the sign bit.',
    ],
  };
}

function minMax(opcode: 'min' | 'max', section: string, title: string): InstructionRecord {
  const cmp = opcode === 'min' ? '<' : '>';
  const slots = (ftz: boolean): Slot[] => [
    ...(ftz ? [FTZ] : []),
    opt('NaN', 'NaN'),
    opt('xorsign.abs', 'xorsign.abs'),
  ];
  return {
    opcode,
    family: 'half',
    section,
    title,
    anchor: `${HALF_BASE}half-precision-floating-point-instructions-${opcode}`,
    lines: [
      {
        text: `${opcode}{.ftz}{.NaN}{.xorsign.abs}.f16      d, a, b;`,
        types: ['f16'],
        slots: slots(true),
      },
      {
        text: `${opcode}{.ftz}{.NaN}{.xorsign.abs}.f16x2    d, a, b;`,
        types: ['f16x2'],
        slots: slots(true),
      },
      {
        text: `${opcode}{.NaN}{.xorsign.abs}.bf16           d, a, b;`,
        types: ['bf16'],
        slots: slots(false),
      },
      {
        text: `${opcode}{.NaN}{.xorsign.abs}.bf16x2         d, a, b;`,
        types: ['bf16x2'],
        slots: slots(false),
      },
    ],
    requirements: [
      { feature: `${opcode}`, sm: 80, ptx: '7.0' },
      { feature: `${opcode}.xorsign.abs`, sm: 86, ptx: '7.2', modifier: 'xorsign.abs' },
    ],
    semantics: [
      'if (.xorsign) { xorsign = getSignBit(a) ^ getSignBit(b); if (.abs) { a = |a|; b = |b|; } }',
      'if (isNaN(a) && isNaN(b))              d = NaN;',
      'if (.NaN && (isNaN(a) || isNaN(b)))    d = NaN;',
      'else if (isNaN(a))                     d = b;',
      'else if (isNaN(b))                     d = a;',
      `else                                   d = (a ${cmp} b) ? a : b;`,
      'if (.xorsign && !isNaN(d)) setSignBit(d, xorsign);',
    ].join('\n'),
    notes: [
      'If .NaN is specified, the result is canonical NaN if either input is NaN.',
      '.xorsign and .abs must be specified together; .xorsign uses the sign bits before .abs.',
      `If the result of ${opcode} is NaN, .xorsign and .abs are ignored.`,
      'If both inputs are 0.0, then +0.0 > -0.0.',
      PTX_NOTE_SUBNORMAL_F16,
    ],
  };
}

function mixedAddSub(opcode: 'add' | 'sub', section: string, title: string): InstructionRecord {
  const op = opcode === 'add' ? '+' : '-';
  return {
    opcode,
    family: 'mixed',
    section,
    title,
    anchor: `${HALF_BASE}mixed-precision-floating-point-instructions-${opcode}`,
    lines: [
      {
        text: `${opcode}{.rnd}{.sat}.f32.atype  d, a, c;`,
        types: MIXED,
        slots: [rndAllOptional, SAT],
      },
    ],
    requirements: [{ feature: `${opcode}.f32.{f16/bf16}`, sm: 100, ptx: '8.6' }],
    semantics: `d = convert(a) ${op} c;`,
    notes: [
      'a is converted exactly from .atype to .f32; the result is rounded once to .f32.',
      'The default rounding modifier is .rn.',
      'Subnormal numbers are supported.',
      SAT_NOTE,
    ],
  };
}

export const INSTRUCTIONS: readonly InstructionRecord[] = [
  halfBinaryArith('add', '9.7.4.1', 'Half Precision Floating Point Instructions: add', '+'),
  halfBinaryArith('sub', '9.7.4.2', 'Half Precision Floating Point Instructions: sub', '-'),
  halfBinaryArith('mul', '9.7.4.3', 'Half Precision Floating Point Instructions: mul', '*'),
  {
    opcode: 'fma',
    family: 'half',
    section: '9.7.4.4',
    title: 'Half Precision Floating Point Instructions: fma',
    anchor: `${HALF_BASE}half-precision-floating-point-instructions-fma`,
    lines: [
      {
        text: 'fma.rnd{.ftz}{.sat}.f16     d, a, b, c;',
        types: ['f16'],
        slots: [rndHalfMandatory, FTZ, SAT],
      },
      {
        text: 'fma.rnd{.ftz}{.sat}.f16x2   d, a, b, c;',
        types: ['f16x2'],
        slots: [rndHalfMandatory, FTZ, SAT],
      },
      {
        text: 'fma.rnd{.ftz}.relu.f16      d, a, b, c;',
        types: ['f16'],
        slots: [rndHalfMandatory, FTZ, req('relu', 'relu')],
      },
      {
        text: 'fma.rnd{.ftz}.relu.f16x2    d, a, b, c;',
        types: ['f16x2'],
        slots: [rndHalfMandatory, FTZ, req('relu', 'relu')],
      },
      {
        text: 'fma.rnd{.relu}.bf16         d, a, b, c;',
        types: ['bf16'],
        slots: [rndHalfMandatory, opt('relu', 'relu')],
      },
      {
        text: 'fma.rnd{.relu}.bf16x2       d, a, b, c;',
        types: ['bf16x2'],
        slots: [rndHalfMandatory, opt('relu', 'relu')],
      },
      {
        text: 'fma.rnd.oob.{relu}.type     d, a, b, c;',
        types: HALVES,
        slots: [rndHalfMandatory, req('oob', 'oob'), opt('relu', 'relu')],
      },
      {
        text: 'fma.{rz,rm,rp}{.oob}{.relu}.{bf16,bf16x2}  d, a, b, c;',
        types: BF16S,
        slots: [req('rnd', 'rz', 'rm', 'rp'), opt('oob', 'oob'), opt('relu', 'relu')],
        origin: 'ptxas',
      },
      {
        text: 'fma.rn.oob.sat.{f16,f16x2}  d, a, b, c;',
        types: F16S,
        slots: [rndHalfMandatory, req('oob', 'oob'), req('sat', 'sat')],
        origin: 'ptxas',
      },
    ],
    requirements: [
      { feature: 'fma.{f16,f16x2}', sm: 53, ptx: '4.2', types: F16S },
      { feature: 'fma.relu.{f16,f16x2}', sm: 80, ptx: '7.0', types: F16S, modifier: 'relu' },
      { feature: 'fma{.relu}.{bf16,bf16x2}', sm: 80, ptx: '7.0', types: BF16S },
      { feature: 'fma.oob', sm: 90, ptx: '8.1', modifier: 'oob' },
    ],
    semantics: 'd = a * b + c;   // x2: d[i] = fA[i] * fB[i] + fC[i] for i = 0, 1 (one rounding)',
    notes: [
      'fma computes a * b + c with no loss of precision in the intermediate product and addition, then rounds once.',
      'The rounding modifier is mandatory; .rn is the only one allowed.',
      PTX_NOTE_SUBNORMAL_F16,
      SAT_NOTE,
      '.relu clamps the result to 0 if negative; a NaN result is converted to canonical NaN.',
      '.oob clamps the result to +0.0 if either operand is OOB-NaN, independently for each SIMD lane.',
    ],
  },
  signOnly('neg', '9.7.4.5', 'Half Precision Floating Point Instructions: neg', '6.0', 'd = -a;'),
  signOnly('abs', '9.7.4.6', 'Half Precision Floating Point Instructions: abs', '6.5', 'd = |a|;'),
  minMax('min', '9.7.4.7', 'Half Precision Floating Point Instructions: min'),
  minMax('max', '9.7.4.8', 'Half Precision Floating Point Instructions: max'),
  {
    opcode: 'tanh',
    family: 'half',
    section: '9.7.4.9',
    title: 'Half Precision Floating Point Instructions: tanh',
    anchor: `${HALF_BASE}half-precision-floating-point-instructions-tanh`,
    lines: [{ text: 'tanh.approx.type d, a;', types: HALVES, slots: [req('approx', 'approx')] }],
    requirements: [
      { feature: 'tanh.approx.{f16,f16x2}', sm: 75, ptx: '7.0', types: F16S },
      { feature: 'tanh.approx.{bf16,bf16x2}', sm: 90, ptx: '7.8', types: BF16S },
    ],
    semantics: 'd = tanh(a)',
    notes: [
      'tanh.approx implements an approximate hyperbolic tangent in the target format.',
      'Subnormal numbers are supported.',
    ],
    cornerCases: [
      {
        title: 'Results of tanh for corner-case inputs',
        types: HALVES,
        rows: [
          { input: '-inf', result: '-1.0' },
          { input: '-0', result: '-0.0' },
          { input: '+0', result: '+0.0' },
          { input: '+inf', result: '+1.0' },
          { input: 'nan', result: 'nan' },
        ],
      },
    ],
    errorBounds: [
      {
        types: F16S,
        kind: 'absolute',
        log2: -10.987,
        text: 'The maximum absolute error for .f16 type is 2^-10.987.',
      },
      {
        types: BF16S,
        kind: 'absolute',
        log2: -8,
        text: 'The maximum absolute error for .bf16 type is 2^-8.',
      },
    ],
  },
  {
    opcode: 'ex2',
    family: 'half',
    section: '9.7.4.10',
    title: 'Half Precision Floating Point Instructions: ex2',
    anchor: `${HALF_BASE}half-precision-floating-point-instructions-ex2`,
    lines: [
      { text: 'ex2.approx.atype     d, a;', types: F16S, slots: [req('approx', 'approx')] },
      {
        text: 'ex2.approx.ftz.btype d, a;',
        types: BF16S,
        slots: [req('approx', 'approx'), req('ftz', 'ftz')],
      },
    ],
    requirements: [
      { feature: 'ex2.approx.{f16,f16x2}', sm: 75, ptx: '7.0', types: F16S },
      { feature: 'ex2.approx.ftz.{bf16,bf16x2}', sm: 90, ptx: '7.8', types: BF16S },
    ],
    semantics: 'd = 2 ^ a',
    notes: [
      'ex2.approx implements a fast approximation to 2^a.',
      'For .f16, subnormal inputs are supported. ex2.approx.ftz.bf16 flushes subnormal inputs and results to sign-preserving zero.',
    ],
    cornerCases: [
      {
        title: 'Results of ex2.approx.ftz.bf16 for corner-case inputs',
        types: BF16S,
        rows: [
          { input: '-inf', result: '+0.0' },
          { input: '-subnormal', result: '+1.0' },
          { input: '-0', result: '+1.0' },
          { input: '+0', result: '+1.0' },
          { input: '+subnormal', result: '+1.0' },
          { input: '+inf', result: '+inf' },
          { input: 'nan', result: 'nan' },
        ],
      },
      {
        title: 'Results of ex2.approx.f16 for corner-case inputs',
        types: F16S,
        rows: [
          { input: '-inf', result: '+0.0' },
          { input: '-0', result: '+1.0' },
          { input: '+0', result: '+1.0' },
          { input: '+inf', result: '+inf' },
          { input: 'nan', result: 'nan' },
        ],
      },
    ],
    errorBounds: [
      {
        types: F16S,
        kind: 'relative',
        log2: -9.9,
        text: 'The maximum relative error for .f16 type is 2^-9.9.',
      },
      {
        types: BF16S,
        kind: 'relative',
        log2: -7,
        text: 'The maximum relative error for .bf16 type is 2^-7.',
      },
    ],
  },
  mixedAddSub('add', '9.7.5.1', 'Mixed Precision Floating Point Instructions: add'),
  mixedAddSub('sub', '9.7.5.2', 'Mixed Precision Floating Point Instructions: sub'),
  {
    opcode: 'fma',
    family: 'mixed',
    section: '9.7.5.3',
    title: 'Mixed Precision Floating Point Instructions: fma',
    anchor: `${HALF_BASE}mixed-precision-floating-point-instructions-fma`,
    lines: [
      {
        text: 'fma.rnd{.sat}.f32.abtype  d, a, b, c;',
        types: MIXED,
        slots: [rndAllMandatory, SAT],
      },
    ],
    requirements: [{ feature: 'fma.f32.{f16/bf16}', sm: 100, ptx: '8.6' }],
    semantics: 'd = convert(a) * convert(b) + c;',
    notes: [
      'The product of a and b and the addition of c are computed to infinite precision, then rounded once to .f32 with .rnd.',
      'The rounding modifier is mandatory (no default).',
      'Subnormal numbers are supported.',
      SAT_NOTE,
    ],
  },
];
