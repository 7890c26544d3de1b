/**
 * The spec's own words for the rules every instruction of a section shares — how operands are
 * read, what each modifier does, each rounding, how the result is written — as the trace cites
 * them. Half precision (9.7.4) and mixed precision (9.7.5) state them per instruction in the same
 * words; cvt (9.7.9.21) in its Floating Point Notes; mma and wgmma in their Description.
 */
import type { Family } from './instruction.ts';
import type { Rounding } from './modifiers.ts';

export interface SectionRules {
  /** How the inputs are read: one value, a packed pair, elements of several registers. */
  readonly inputs: { readonly single: string; readonly packed: string; readonly several: string };
  readonly ftz: string;
  readonly oob: string;
  readonly sat: string;
  readonly relu: string;
  readonly satfinite: string;
  readonly rounding: Readonly<Record<Rounding, string>>;
  readonly write: string;
}

const INTEGER_ROUNDING = 'round to an integral value, stored in floating-point format';

const ARITHMETIC: SectionRules = {
  inputs: {
    single: 'operands are read as single values',
    packed:
      'forms input vectors by half word values from source operands: lane 0 = bits [0:15], lane 1 = bits [16:31]',
    several: 'operands are read as single values',
  },
  ftz: '.ftz flushes subnormal inputs and results to sign-preserving zero',
  oob: '.oob clamps the result to 0 if either of the operands is OOB NaN, independently for each SIMD lane',
  sat: '.sat clamps the result to [0.0, 1.0]. NaN results are flushed to +0.0f.',
  relu: '.relu clamps the result to 0 if negative. NaN result is converted to canonical NaN.',
  satfinite: '.satfinite clamps the result to the largest finite value',
  rounding: {
    rn: '.rn: mantissa LSB rounds to nearest even',
    rz: '.rz: mantissa LSB rounds towards zero',
    rm: '.rm: mantissa LSB rounds towards negative infinity',
    rp: '.rp: mantissa LSB rounds towards positive infinity',
    rna: '.rna: rounding to nearest, with ties away from zero',
    rs: '.rs: stochastic rounding',
    rni: `.rni: ${INTEGER_ROUNDING}`,
    rzi: `.rzi: ${INTEGER_ROUNDING}`,
    rmi: `.rmi: ${INTEGER_ROUNDING}`,
    rpi: `.rpi: ${INTEGER_ROUNDING}`,
  },
  write: 'writes the resulting value into the destination register',
};

const CONVERT: SectionRules = {
  inputs: {
    single: 'd = convert(a)',
    packed:
      'each input value of a is converted; the value from the upper bits of a is stored in the upper bits of d',
    several: 'each input is converted; the value converted from a is stored in the upper bits of d',
  },
  ftz: '.ftz flushes single-precision subnormal inputs and results to sign-preserving zero',
  oob: '',
  sat: '.sat limits the result to the range [0.0, 1.0]. NaN results are flushed to positive zero.',
  relu: '.relu clamps the result to 0 if negative. NaN results are converted to canonical NaN.',
  satfinite:
    '.satfinite: NaN input gives NaN in the destination format (positive MAX_NORM where it has none); beyond MAX_NORM gives sign-preserved MAX_NORM (positive MAX_NORM for .ue8m0x2)',
  rounding: {
    rn: '.rn: rounding to nearest, with ties to even',
    rna: '.rna: rounding to nearest, with ties away from zero',
    rz: '.rz: rounding toward zero',
    rm: '.rm: rounding toward negative infinity',
    rp: '.rp: rounding toward positive infinity',
    rs: '.rs: rounded toward zero or away from zero by the carry out of the integer addition of the supplied random bits (rbits) to the discarded bits of mantissa',
    rni: `.rni: ${INTEGER_ROUNDING}`,
    rzi: `.rzi: ${INTEGER_ROUNDING}`,
    rmi: `.rmi: ${INTEGER_ROUNDING}`,
    rpi: `.rpi: ${INTEGER_ROUNDING}`,
  },
  write: 'the converted value is stored in its bits of d; padding bits are zero',
};

/**
 * mma (9.7.14.5.14) and wgmma (9.7.15.5.2): one element of D = A*B+C, from A's row and B's
 * column; only the .f64 forms name roundings ("Precision and rounding"), which the rounding
 * entries give for every mode.
 */
const MATRIX: SectionRules = {
  inputs: {
    single: 'D = A*B+C: one element of D from a row of A, a column of B and the element of C',
    packed: 'D = A*B+C: one element of D from a row of A, a column of B and the element of C',
    several: 'D = A*B+C: one element of D from a row of A, a column of B and the element of C',
  },
  ftz: '',
  oob: '',
  sat: '',
  relu: '',
  satfinite: '',
  rounding: {
    ...ARITHMETIC.rounding,
    rn: '.rn: mantissa LSB rounds to nearest even. This is the default.',
  },
  write: 'the element of D',
};

export function sectionRules(family: Family): SectionRules {
  return family === 'convert' ? CONVERT : family === 'matrix' ? MATRIX : ARITHMETIC;
}
