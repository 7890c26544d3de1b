/**
 * The half-precision (PTX ISA 9.7.4) and mixed-precision (9.7.5) floating-point instructions:
 * one record each, its syntax lines as the spec prints them, broken into modifier slots in the
 * spec's order. An x2 type holds two elements, lane 0 in bits 15…0 of every register ("forms
 * input vectors by half word values from source operands"); a mixed type `.f32.atype` reads a
 * and b in the 16-bit .atype and c and d in .f32.
 */
import type { InstructionRecord, RecordRequirement, Slot } from '../record.ts';
import { opt, optWithDefault, req, syntaxLine } from './syntax.ts';

const F16S = ['f16', 'f16x2'];
const BF16S = ['bf16', 'bf16x2'];
const HALVES = ['f16', 'f16x2', 'bf16', 'bf16x2'];
const MIXED = ['f32.f16', 'f32.bf16'];

const rndHalfOptional = optWithDefault('rnd', 'rn', 'rn');
const rndHalfMandatory = req('rnd', 'rn');
const rndAllOptional = optWithDefault('rnd', 'rn', 'rn', 'rz', 'rm', 'rp');
const rndAllMandatory = req('rnd', 'rn', 'rz', 'rm', 'rp');
const FTZ = opt('ftz', 'ftz');
const SAT = opt('sat', 'sat');

const HALF_LAYOUT = { order: 'low-first' } as const;
/** Mixed precision: d and c are .f32, a and b hold the 16-bit .atype. */
const MIXED_LAYOUT = { order: 'low-first', registers: { c: 'dtype' } } as const;
/** Measured by the spelling probes of tests/ptxas: these may be written more than once. */
const REPEATABLE = ['approx', 'sat', 'relu', 'NaN'] as const;

const BASE = 'https://docs.nvidia.com/cuda/parallel-thread-execution/#';
const PTX_NOTE_SUBNORMAL_F16 =
  'By default, subnormal numbers are supported. .ftz on .f16/.f16x2 flushes subnormal inputs and results to sign-preserving zero.';
const SAT_NOTE = '.sat clamps the result to [0.0, 1.0]; NaN results are flushed to +0.0.';

/** "feature needs sm_N or higher and PTX ISA V", for the forms of these types or this modifier. */
function needs(
  feature: string,
  sm: number,
  ptx: string,
  on: { types?: readonly string[]; modifier?: 'relu' | 'oob' | 'xorsign.abs' } = {},
): RecordRequirement {
  const when = {
    ...(on.types ? { types: on.types } : {}),
    ...(on.modifier ? { withAny: [on.modifier] } : {}),
  };
  return {
    feature,
    subject: on.modifier ? { modifier: on.modifier } : 'instruction',
    ptx,
    target: { kind: 'baseline', sm },
    ...(on.types || on.modifier ? { when: [when] } : {}),
  };
}

function half(
  opcode: InstructionRecord['operation'],
  section: string,
  rest: Pick<InstructionRecord, 'lines' | 'requirements'> &
    Partial<Pick<InstructionRecord, 'cornerCases' | 'errorBounds'>> & {
      semantics: string;
      notes: readonly string[];
    },
): InstructionRecord {
  const { semantics, notes, ...record } = rest;
  return {
    opcode,
    operation: opcode,
    family: 'half',
    section: {
      section,
      title: `Half Precision Floating Point Instructions: ${opcode}`,
      anchor: `${BASE}half-precision-floating-point-instructions-${opcode}`,
      semantics,
      notes,
    },
    typeGrammar: { kind: 'one' },
    layout: HALF_LAYOUT,
    repeatable: REPEATABLE,
    ...record,
  };
}

/** add, sub and mul share one shape in 9.7.4. */
function halfBinaryArith(opcode: 'add' | 'sub' | 'mul', section: string, operator: string) {
  const slots = [rndHalfOptional, FTZ, SAT];
  return half(opcode, section, {
    lines: [
      syntaxLine(`${opcode}{.rnd}{.ftz}{.sat}.f16   d, a, b;`, ['f16'], slots),
      syntaxLine(`${opcode}{.rnd}{.ftz}{.sat}.f16x2 d, a, b;`, ['f16x2'], slots),
      syntaxLine(`${opcode}{.rnd}.bf16   d, a, b;`, ['bf16'], [rndHalfOptional]),
      syntaxLine(`${opcode}{.rnd}.bf16x2 d, a, b;`, ['bf16x2'], [rndHalfOptional]),
    ],
    requirements: [
      needs(`${opcode}.{f16,f16x2}`, 53, '4.2', { types: F16S }),
      needs(`${opcode}{.rnd}.{bf16,bf16x2}`, 90, '7.8', { types: BF16S }),
    ],
    semantics: `d = a ${operator} b;   // x2: d[i] = fA[i] ${operator} fB[i] for i = 0, 1`,
    notes: [
      'The default rounding modifier is .rn (round to nearest even).',
      PTX_NOTE_SUBNORMAL_F16,
      SAT_NOTE,
      'Half-precision instructions return an unspecified NaN.',
    ],
  });
}

/** neg and abs share one shape in 9.7.4; they differ in the PTX ISA version of .f16 and the semantics. */
function signOnly(opcode: 'neg' | 'abs', section: string, f16Ptx: string, semantics: string) {
  return half(opcode, section, {
    lines: [
      syntaxLine(`${opcode}{.ftz}.f16    d, a;`, ['f16'], [FTZ]),
      syntaxLine(`${opcode}{.ftz}.f16x2  d, a;`, ['f16x2'], [FTZ]),
      syntaxLine(`${opcode}.bf16         d, a;`, ['bf16'], []),
      syntaxLine(`${opcode}.bf16x2       d, a;`, ['bf16x2'], []),
    ],
    requirements: [
      needs(`${opcode}.{f16,f16x2}`, 53, f16Ptx, { types: F16S }),
      needs(`${opcode}.{bf16,bf16x2}`, 80, '7.0', { types: BF16S }),
    ],
    semantics,
    notes: [
      PTX_NOTE_SUBNORMAL_F16,
      'NaN inputs yield an unspecified NaN. Future implementations may preserve the payload and change only the sign bit.',
    ],
  });
}

function minMax(opcode: 'min' | 'max', section: string) {
  const cmp = opcode === 'min' ? '<' : '>';
  const slots = (ftz: boolean): Slot[] => [
    ...(ftz ? [FTZ] : []),
    opt('NaN', 'NaN'),
    opt('xorsign.abs', 'xorsign.abs'),
  ];
  return half(opcode, section, {
    lines: [
      syntaxLine(`${opcode}{.ftz}{.NaN}{.xorsign.abs}.f16      d, a, b;`, ['f16'], slots(true)),
      syntaxLine(`${opcode}{.ftz}{.NaN}{.xorsign.abs}.f16x2    d, a, b;`, ['f16x2'], slots(true)),
      syntaxLine(`${opcode}{.NaN}{.xorsign.abs}.bf16           d, a, b;`, ['bf16'], slots(false)),
      syntaxLine(`${opcode}{.NaN}{.xorsign.abs}.bf16x2         d, a, b;`, ['bf16x2'], slots(false)),
    ],
    requirements: [
      needs(`${opcode}`, 80, '7.0'),
      needs(`${opcode}.xorsign.abs`, 86, '7.2', { modifier: 'xorsign.abs' }),
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
  });
}

function mixed(
  opcode: 'add' | 'sub' | 'fma',
  section: string,
  rest: Pick<InstructionRecord, 'lines' | 'requirements'> & {
    semantics: string;
    notes: readonly string[];
  },
): InstructionRecord {
  const { semantics, notes, ...record } = rest;
  return {
    opcode,
    operation: opcode,
    family: 'mixed',
    section: {
      section,
      title: `Mixed Precision Floating Point Instructions: ${opcode}`,
      anchor: `${BASE}mixed-precision-floating-point-instructions-${opcode}`,
      semantics,
      notes,
    },
    typeGrammar: { kind: 'mixed' },
    layout: MIXED_LAYOUT,
    repeatable: REPEATABLE,
    ...record,
  };
}

function mixedAddSub(opcode: 'add' | 'sub', section: string) {
  const op = opcode === 'add' ? '+' : '-';
  return mixed(opcode, section, {
    lines: [syntaxLine(`${opcode}{.rnd}{.sat}.f32.atype  d, a, c;`, MIXED, [rndAllOptional, SAT])],
    requirements: [needs(`${opcode}.f32.{f16/bf16}`, 100, '8.6')],
    semantics: `d = convert(a) ${op} c;`,
    notes: [
      'a is converted exactly from .atype to .f32; the result is rounded once to .f32.',
      'The default rounding modifier is .rn.',
      'Subnormal numbers are supported.',
      SAT_NOTE,
    ],
  });
}

const halfFma = half('fma', '9.7.4.4', {
  lines: [
    syntaxLine('fma.rnd{.ftz}{.sat}.f16     d, a, b, c;', ['f16'], [rndHalfMandatory, FTZ, SAT]),
    syntaxLine('fma.rnd{.ftz}{.sat}.f16x2   d, a, b, c;', ['f16x2'], [rndHalfMandatory, FTZ, SAT]),
    syntaxLine(
      'fma.rnd{.ftz}.relu.f16      d, a, b, c;',
      ['f16'],
      [rndHalfMandatory, FTZ, req('relu', 'relu')],
    ),
    syntaxLine(
      'fma.rnd{.ftz}.relu.f16x2    d, a, b, c;',
      ['f16x2'],
      [rndHalfMandatory, FTZ, req('relu', 'relu')],
    ),
    syntaxLine(
      'fma.rnd{.relu}.bf16         d, a, b, c;',
      ['bf16'],
      [rndHalfMandatory, opt('relu', 'relu')],
    ),
    syntaxLine(
      'fma.rnd{.relu}.bf16x2       d, a, b, c;',
      ['bf16x2'],
      [rndHalfMandatory, opt('relu', 'relu')],
    ),
    syntaxLine('fma.rnd.oob.{relu}.type     d, a, b, c;', HALVES, [
      rndHalfMandatory,
      req('oob', 'oob'),
      opt('relu', 'relu'),
    ]),
    syntaxLine(
      'fma.{rz,rm,rp}{.oob}{.relu}.{bf16,bf16x2}  d, a, b, c;',
      BF16S,
      [req('rnd', 'rz', 'rm', 'rp'), opt('oob', 'oob'), opt('relu', 'relu')],
      'ptxas',
    ),
    syntaxLine(
      'fma.rn.oob.sat.{f16,f16x2}  d, a, b, c;',
      F16S,
      [rndHalfMandatory, req('oob', 'oob'), req('sat', 'sat')],
      'ptxas',
    ),
  ],
  requirements: [
    needs('fma.{f16,f16x2}', 53, '4.2', { types: F16S }),
    needs('fma.relu.{f16,f16x2}', 80, '7.0', { types: F16S, modifier: 'relu' }),
    needs('fma{.relu}.{bf16,bf16x2}', 80, '7.0', { types: BF16S }),
    needs('fma.oob', 90, '8.1', { modifier: 'oob' }),
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
});

const tanh = half('tanh', '9.7.4.9', {
  lines: [syntaxLine('tanh.approx.type d, a;', HALVES, [req('approx', 'approx')])],
  requirements: [
    needs('tanh.approx.{f16,f16x2}', 75, '7.0', { types: F16S }),
    needs('tanh.approx.{bf16,bf16x2}', 90, '7.8', { types: BF16S }),
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
});

const ex2 = half('ex2', '9.7.4.10', {
  lines: [
    syntaxLine('ex2.approx.atype     d, a;', F16S, [req('approx', 'approx')]),
    syntaxLine('ex2.approx.ftz.btype d, a;', BF16S, [req('approx', 'approx'), req('ftz', 'ftz')]),
  ],
  requirements: [
    needs('ex2.approx.{f16,f16x2}', 75, '7.0', { types: F16S }),
    needs('ex2.approx.ftz.{bf16,bf16x2}', 90, '7.8', { types: BF16S }),
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
});

const mixedFma = mixed('fma', '9.7.5.3', {
  lines: [syntaxLine('fma.rnd{.sat}.f32.abtype  d, a, b, c;', MIXED, [rndAllMandatory, SAT])],
  requirements: [needs('fma.f32.{f16/bf16}', 100, '8.6')],
  semantics: 'd = convert(a) * convert(b) + c;',
  notes: [
    'The product of a and b and the addition of c are computed to infinite precision, then rounded once to .f32 with .rnd.',
    'The rounding modifier is mandatory (no default).',
    'Subnormal numbers are supported.',
    SAT_NOTE,
  ],
});

/** In the order of the spec's sections: every form is generated in this order. */
export const ARITHMETIC_RECORDS: readonly InstructionRecord[] = [
  halfBinaryArith('add', '9.7.4.1', '+'),
  halfBinaryArith('sub', '9.7.4.2', '-'),
  halfBinaryArith('mul', '9.7.4.3', '*'),
  halfFma,
  signOnly('neg', '9.7.4.5', '6.0', 'd = -a;'),
  signOnly('abs', '9.7.4.6', '6.5', 'd = |a|;'),
  minMax('min', '9.7.4.7'),
  minMax('max', '9.7.4.8'),
  tanh,
  ex2,
  mixedAddSub('add', '9.7.5.1'),
  mixedAddSub('sub', '9.7.5.2'),
  mixedFma,
];
