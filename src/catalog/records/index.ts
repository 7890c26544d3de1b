/** Every instruction record of the catalog, in the order their forms are generated. */
import type { InstructionRecord } from '../record.ts';
import { ARITHMETIC_RECORDS } from './arithmetic.ts';
import { CVT_RECORD } from './convert.ts';
import { MATRIX_RECORDS } from './matrix.ts';

export const RECORDS: readonly InstructionRecord[] = [
  ...ARITHMETIC_RECORDS,
  CVT_RECORD,
  ...MATRIX_RECORDS,
];
