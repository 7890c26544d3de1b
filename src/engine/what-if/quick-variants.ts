/**
 * One-click variants of a form, the ones the catalog has, each with what it changes (data: the
 * words are src/present's).
 *
 *   arithmetic   each other IEEE rounding, .ftz on or off, f16 ↔ bf16, the mixed .f32 form of
 *                the same operation (and back), and the unfused sequence of an fma
 *   cvt          the same conversion into each other destination format with the same source and
 *                element count (with the modifiers that form needs where it cannot take A's),
 *                each other rounding, .satfinite and .relu on or off
 *   tensor core  the same shape with the other accumulator, with A and B in each other input
 *                format of the same k, and the other instruction of the same k and types
 *                (mma ↔ wgmma.mma_async) — B of a tensor-core form takes a row and a column of
 *                the same k (matrix-fit.ts)
 */
import { FORMS, MATRIX_FORMS, findForm } from '../../catalog/all-forms.ts';
import type { FormatName } from '../../catalog/formats.ts';
import type { Form } from '../../catalog/instruction.ts';
import {
  IEEE_ROUNDINGS,
  ROUNDINGS,
  type AnyModifier,
  type Rounding,
} from '../../catalog/modifiers.ts';
import { resolveForm } from '../pipeline.ts';
import { unfusedPlan } from './unfused-sequence.ts';

export type VariantChange =
  | { readonly kind: 'rounding'; readonly rounding: Rounding }
  | { readonly kind: 'modifier'; readonly modifier: AnyModifier; readonly on: boolean }
  /** The arithmetic's type: f16 ↔ bf16, or to and from the mixed .f32 form. */
  | { readonly kind: 'type'; readonly type: string }
  /** cvt into another format; `adds`: modifiers that form has and A has not. */
  | {
      readonly kind: 'destination';
      readonly format: FormatName;
      readonly type: string;
      readonly adds: readonly AnyModifier[];
    }
  | { readonly kind: 'unfused' }
  /** A tensor-core form's types (D, A, B, C as written), the shape and instruction kept. */
  | { readonly kind: 'matrix-types'; readonly types: string }
  /** The other tensor-core instruction (mma, wgmma.mma_async) with this shape, k and types kept. */
  | { readonly kind: 'matrix-instruction'; readonly opcode: string; readonly shape: string };

export interface QuickVariant {
  /** An instruction's canonical text, or 'unfused'. */
  readonly variant: string;
  readonly change: VariantChange;
}

function collector(form: Form) {
  const out: QuickVariant[] = [];
  const push = (change: VariantChange, found: Form | undefined) => {
    if (found && found.text !== form.text && !out.some((v) => v.variant === found.text))
      out.push({ variant: found.text, change });
  };
  return { out, push };
}

function arithmeticVariants(form: Form): QuickVariant[] {
  const { out, push } = collector(form);
  const ieee = IEEE_ROUNDINGS as readonly string[];
  const mods = form.modifiers.filter((m) => !ieee.includes(m));
  const text = (rounding: string | null, modifiers: readonly string[], type: string) =>
    findForm([form.opcode, ...(rounding ? [rounding] : []), ...modifiers, type].join('.'));
  for (const mode of IEEE_ROUNDINGS)
    if (mode !== form.rounding)
      push({ kind: 'rounding', rounding: mode }, text(mode, mods, form.type));
  const ftz = form.modifiers.includes('ftz');
  push(
    { kind: 'modifier', modifier: 'ftz', on: !ftz },
    text(form.rounding, ftz ? mods.filter((m) => m !== 'ftz') : ['ftz', ...mods], form.type),
  );
  const swapped = form.type.includes('bf16')
    ? form.type.replace('bf16', 'f16')
    : form.type.replace('f16', 'bf16');
  push({ kind: 'type', type: swapped }, text(form.rounding, mods, swapped));
  if (form.family === 'half' && !form.type.endsWith('x2'))
    push(
      { kind: 'type', type: `f32.${form.type}` },
      text(
        form.rounding ?? 'rn',
        mods.filter((m) => m !== 'ftz'),
        `f32.${form.type}`,
      ),
    );
  if (form.family === 'mixed') {
    const half = form.type.slice(4);
    push({ kind: 'type', type: half }, text(form.rounding, mods, half));
  }
  if (unfusedPlan(form).ok) out.push({ variant: 'unfused', change: { kind: 'unfused' } });
  return out;
}

const sameSet = (x: readonly string[], y: readonly string[]) =>
  x.length === y.length && x.every((m) => y.includes(m));

/** A cvt's destination and source types as written: `e4m3x2.f32` → e4m3x2, f32. */
function cvtTypes(form: Form): { dtype: string; atype: string } {
  const dot = form.type.indexOf('.');
  return { dtype: form.type.slice(0, dot), atype: form.type.slice(dot + 1) };
}

function cvtVariants(form: Form): QuickVariant[] {
  const { out, push } = collector(form);
  const { atype } = cvtTypes(form);
  const destOf = (f: Form) => f.elements[0]!.dest.format;
  const rounding = form.rounding !== null && form.modifiers.includes(form.rounding);
  const others = form.modifiers.filter((m) => m !== form.rounding);
  // Other destination formats: the form with A's modifiers, else the closest the catalog has.
  const byDest = new Map<FormatName, Form[]>();
  for (const f of FORMS) {
    if (f.family !== 'convert' || cvtTypes(f).atype !== atype) continue;
    if (f.elements.length !== form.elements.length || destOf(f) === destOf(form)) continue;
    byDest.set(destOf(f), [...(byDest.get(destOf(f)) ?? []), f]);
  }
  for (const [dest, forms] of byDest) {
    const overlap = (f: Form) =>
      (f.rounding === form.rounding ? 10 : 0) -
      f.modifiers.filter((m) => !form.modifiers.includes(m)).length -
      form.modifiers.filter((m) => !f.modifiers.includes(m)).length;
    const best = [...forms].sort((x, y) => overlap(y) - overlap(x))[0]!;
    push(
      {
        kind: 'destination',
        format: dest,
        type: cvtTypes(best).dtype,
        adds: best.modifiers.filter((m) => !form.modifiers.includes(m)),
      },
      best,
    );
  }
  const withModifiers = (mods: readonly string[]) =>
    FORMS.find((f) => f.family === 'convert' && f.type === form.type && sameSet(f.modifiers, mods));
  if (rounding)
    for (const mode of ROUNDINGS)
      if (mode !== form.rounding)
        push({ kind: 'rounding', rounding: mode }, withModifiers([mode, ...others]));
  for (const m of ['satfinite', 'relu'] as const) {
    const on = form.modifiers.includes(m);
    push(
      { kind: 'modifier', modifier: m, on: !on },
      withModifiers(on ? form.modifiers.filter((x) => x !== m) : [...form.modifiers, m]),
    );
  }
  return out;
}

/** A tensor-core form's types as written: D, A, B, C (wgmma's C is D). */
const matrixTypesText = (f: Form) => {
  const t = f.matrix!.types;
  return `${t.d}.${t.a}.${t.b}.${t.c}`;
};

/** The shape as written: `m16n8k16`. */
const shapeText = (f: Form) => {
  const { m, n, k } = f.matrix!.shape;
  return `m${m}n${n}k${k}`;
};

function matrixVariants(form: Form): QuickVariant[] {
  const { out, push } = collector(form);
  const m = form.matrix!;
  const sameKind = (f: Form) =>
    f.matrix!.kind === m.kind &&
    f.matrix!.layouts?.a === m.layouts?.a &&
    f.matrix!.layouts?.b === m.layouts?.b;
  const siblings = MATRIX_FORMS.filter(
    (f) =>
      f.opcode === form.opcode &&
      shapeText(f) === shapeText(form) &&
      sameKind(f) &&
      f.modifiers.every((x) => form.modifiers.includes(x)) &&
      f.modifiers.length === form.modifiers.length,
  );
  const withTypes = (d: string, a: string, b: string, c: string) =>
    siblings.find((f) => matrixTypesText(f) === `${d}.${a}.${b}.${c}`);
  const { d, a, b, c } = m.types;
  // The other accumulator (D and C together).
  for (const acc of ['f16', 'f32'])
    if (acc !== d || acc !== c) {
      const found = withTypes(acc, a, b, acc);
      if (found) push({ kind: 'matrix-types', types: matrixTypesText(found) }, found);
    }
  // A and B in each other input format, the accumulator kept.
  for (const input of new Set(siblings.map((f) => f.matrix!.types.a)))
    if (input !== a || input !== b) {
      const found = withTypes(d, input, input, c);
      if (found) push({ kind: 'matrix-types', types: matrixTypesText(found) }, found);
    }
  // f64: each other rounding (.rn, the default, written out).
  if (form.rounding !== null)
    for (const mode of IEEE_ROUNDINGS)
      if (mode !== form.rounding)
        push(
          { kind: 'rounding', rounding: mode },
          MATRIX_FORMS.find(
            (f) =>
              f.opcode === form.opcode &&
              shapeText(f) === shapeText(form) &&
              matrixTypesText(f) === matrixTypesText(form) &&
              f.modifiers.includes(mode),
          ),
        );
  // The other instruction: the same k and types (wgmma's C is its D), its narrowest shape.
  const other = MATRIX_FORMS.find(
    (f) =>
      f.opcode !== form.opcode &&
      f.matrix!.shape.k === m.shape.k &&
      f.matrix!.kind === null &&
      m.kind === null &&
      matrixTypesText(f) === matrixTypesText(form) &&
      (f.matrix!.layouts === null ||
        (f.matrix!.layouts.a === 'row' && f.matrix!.layouts.b === 'col')),
  );
  if (other)
    push({ kind: 'matrix-instruction', opcode: other.opcode, shape: shapeText(other) }, other);
  return out;
}

/** The one-click variants of a form (see the top). */
export function quickVariants(formOrText: Form | string): QuickVariant[] {
  const form = resolveForm(formOrText);
  if (form.matrix) return matrixVariants(form);
  return form.family === 'convert' ? cvtVariants(form) : arithmeticVariants(form);
}
