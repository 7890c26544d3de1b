import { formsOfOpcode } from '../catalog/all-forms.ts';
import type { Form } from '../catalog/instruction.ts';
import { ALL_OPCODES, PARSER_OPCODES } from '../catalog/vocabulary.ts';

/**
 * What the page's pickers offer for the tensor-core forms (mma, wgmma.mma_async), straight from
 * the catalog's matrix forms: the opcodes, an opcode's shapes (with the `.kind` a shape is
 * written with), and the forms of a shape — their layouts and types — to pick one from.
 */

/** The tensor-core opcodes, in the catalog's order. */
export const MATRIX_OPCODES: readonly string[] = PARSER_OPCODES.filter(
  (o) => !ALL_OPCODES.includes(o),
);

/** The form an opcode opens on when it is picked: f16 inputs into an f32 accumulator. */
export const MATRIX_OPENING_FORMS: Readonly<Record<string, string>> = {
  mma: 'mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32',
  'wgmma.mma_async': 'wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16',
};

/** A form's shape as the picker names it: `m16n8k32`, `m16n8k32 kind::f8f6f4`. */
export function shapeOf(form: Form): string {
  const m = form.matrix!;
  const shape = `m${m.shape.m}n${m.shape.n}k${m.shape.k}`;
  return m.kind ? `${shape} kind::${m.kind}` : shape;
}

/** The shapes of an opcode's forms, in the catalog's order. */
export function shapesOf(opcode: string): readonly string[] {
  return [...new Set(formsOfOpcode(opcode).map(shapeOf))];
}

/** The forms of an opcode with this shape. */
export function formsOfShape(opcode: string, shape: string): readonly Form[] {
  return formsOfOpcode(opcode).filter((f) => shapeOf(f) === shape);
}

/**
 * What tells a shape's forms apart: the form's text after its opcode, shape and `.kind` — the
 * layouts, the types and any rounding (`row.col.f32.f16.f16.f32`, `row.col.f64.f64.f64.f64.rn`).
 */
export function formChoiceText(form: Form): string {
  const m = form.matrix!;
  const shape = `m${m.shape.m}n${m.shape.n}k${m.shape.k}`;
  const fixed = new Set(['sync', 'aligned', shape, ...(m.kind ? [`kind::${m.kind}`] : [])]);
  return form.text
    .slice(form.opcode.length + 1)
    .split('.')
    .filter((token) => !fixed.has(token))
    .join('.');
}

/**
 * Another shape of the current form's opcode: the form of that shape with the same layouts and
 * types where there is one, else the one with the same types, else the shape's first.
 */
export function switchShape(current: Form, shape: string): Form {
  const forms = formsOfShape(current.opcode, shape);
  if (forms.length === 0) throw new Error(`${current.opcode} has no shape ${shape}`);
  return (
    forms.find((f) => formChoiceText(f) === formChoiceText(current)) ??
    forms.find((f) => f.type === current.type) ??
    forms[0]!
  );
}
