/** cvt's semantics, one group (family.ts). */
import { convert } from './convert.ts';
import type { ConvertSemantics } from './family.ts';

export const convertFamily: ConvertSemantics = { family: 'convert', operations: { convert } };
