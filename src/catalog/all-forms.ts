/**
 * Every form of the catalog in the one instruction model (instruction.ts), generated from the
 * records (records/): the half- and mixed-precision arithmetic and the conversions, each written
 * as registers, elements, modifiers, rounding and the rows of the Target / PTX ISA Notes that
 * apply to it.
 */
import { generateForms, type GeneratedForm } from './generate.ts';
import type { Form } from './instruction.ts';
import { RECORDS } from './records/index.ts';

const GENERATED: readonly GeneratedForm[] = generateForms(RECORDS);

/** Every arithmetic and cvt form: the arithmetic's, then the conversions'. */
export const FORMS: readonly Form[] = GENERATED.filter((g) => g.form.family !== 'matrix').map(
  (g) => g.form,
);

/**
 * Every tensor-core form (mma, wgmma.mma_async), from the matrix records. The engine, the CLI
 * and hw/mma take them (findForm finds them); the page's pickers and links, which iterate FORMS,
 * do not offer them yet.
 */
export const MATRIX_FORMS: readonly Form[] = GENERATED.filter(
  (g) => g.form.family === 'matrix',
).map((g) => g.form);

/** Every form of the catalog: FORMS, then MATRIX_FORMS. */
export const ALL_FORMS: readonly Form[] = [...FORMS, ...MATRIX_FORMS];

const byText = new Map(GENERATED.map((g) => [g.form.text, g]));

export function findForm(text: string): Form | undefined {
  return byText.get(text)?.form;
}

/** The record and the syntax line a form of FORMS comes from. */
export function sourceOf(form: Form): GeneratedForm {
  const generated = byText.get(form.text);
  if (!generated || generated.form !== form) throw new Error(`not a catalog form: ${form.text}`);
  return generated;
}
