import type { Form } from '../catalog/instruction.ts';

/** What an element is called: a lane of the arithmetic's x2 forms, an element of cvt's and mma's. */
export function elementWord(form: Form): 'lane' | 'element' {
  return form.family === 'convert' || form.family === 'matrix' ? 'element' : 'lane';
}
