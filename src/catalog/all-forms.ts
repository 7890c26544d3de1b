/**
 * Every form of the catalog in the one instruction model (instruction.ts), generated from the
 * records (records/): the half- and mixed-precision arithmetic and the conversions, each written
 * as registers, elements, modifiers, rounding and the rows of the Target / PTX ISA Notes that
 * apply to it.
 *
 * An opcode's forms are generated the first time something asks for one of them (findForm,
 * formsOfOpcode, sourceOf): the page's first load generates the default instruction's opcode, not
 * the cvt and tensor-core forms (three quarters of the catalog, all generated on every load when
 * importing the catalog generated every form). The complete lists
 * (FORMS, MATRIX_FORMS, ALL_FORMS) are generated when first read (lazy-list.ts), in the order of
 * the records as before.
 */
import { generateForms, type GeneratedForm } from './generate.ts';
import type { Form } from './instruction.ts';
import { lazyList } from './lazy-list.ts';
import { RECORDS } from './records/index.ts';

/** Every opcode of the records, the longest first, so that a form's text finds its own. */
const OPCODES_LONGEST_FIRST: readonly string[] = [...new Set(RECORDS.map((r) => r.opcode))].sort(
  (x, y) => y.length - x.length,
);

const generatedByOpcode = new Map<string, readonly GeneratedForm[]>();
const byText = new Map<string, GeneratedForm>();

/**
 * An opcode's forms with their records and syntax lines, generated once; the records of one
 * opcode (add's half- and mixed-precision) together, as one generation over every record did.
 */
function generatedOf(opcode: string): readonly GeneratedForm[] {
  let generated = generatedByOpcode.get(opcode);
  if (!generated) {
    generated = generateForms(RECORDS.filter((r) => r.opcode === opcode));
    generatedByOpcode.set(opcode, generated);
    for (const g of generated) byText.set(g.form.text, g);
  }
  return generated;
}

/** The opcode a form's text starts with (`wgmma.mma_async` before `mma`), if any. */
function opcodeOfText(text: string): string | undefined {
  return OPCODES_LONGEST_FIRST.find((o) => text === o || text.startsWith(`${o}.`));
}

/** Every form of an opcode, in the catalog's order (empty for an opcode it does not have). */
export function formsOfOpcode(opcode: string): readonly Form[] {
  return generatedOf(opcode).map((g) => g.form);
}

/** Every generated form in the order of the records, those `keep` takes. */
function inRecordOrder(keep: (g: GeneratedForm) => boolean): Form[] {
  return RECORDS.flatMap((record) =>
    generatedOf(record.opcode)
      .filter((g) => g.record === record && keep(g))
      .map((g) => g.form),
  );
}

/** Every arithmetic and cvt form: the arithmetic's, then the conversions'. */
export const FORMS: readonly Form[] = lazyList(() =>
  inRecordOrder((g) => g.form.family !== 'matrix'),
);

/**
 * Every tensor-core form (mma, wgmma.mma_async), from the matrix records. The engine, the CLI
 * and hw/mma take them (findForm finds them); the page's pickers and links, which iterate FORMS,
 * do not offer them yet.
 */
export const MATRIX_FORMS: readonly Form[] = lazyList(() =>
  inRecordOrder((g) => g.form.family === 'matrix'),
);

/** Every form of the catalog: FORMS, then MATRIX_FORMS. */
export const ALL_FORMS: readonly Form[] = lazyList(() => [...FORMS, ...MATRIX_FORMS]);

export function findForm(text: string): Form | undefined {
  const opcode = opcodeOfText(text);
  if (opcode === undefined) return undefined;
  generatedOf(opcode);
  return byText.get(text)?.form;
}

/** The record and the syntax line a form of FORMS comes from. */
export function sourceOf(form: Form): GeneratedForm {
  generatedOf(form.opcode);
  const generated = byText.get(form.text);
  if (!generated || generated.form !== form) throw new Error(`not a catalog form: ${form.text}`);
  return generated;
}
