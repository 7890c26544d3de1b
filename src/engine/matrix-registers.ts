/**
 * A matrix form's registers from its elements and back: A's row and B's column as k patterns
 * each, C's element as one. An element is a pattern of its format's width (e2m1 4 bits, e2m3 6,
 * e4m3 8, f16 16, f64 64), except a tf32 element, which is its whole .b32 register: its low 13
 * bits, which the instruction ignores, stay in the register below the value (form.elements
 * places each element in its container: catalog/layout.ts).
 */
import type { Form, Place } from '../catalog/instruction.ts';
import type { Registers } from './pipeline.ts';

/** A row of A, a column of B (k patterns each) and C's element. */
export interface MatrixElements {
  readonly a: readonly bigint[];
  readonly b: readonly bigint[];
  readonly c: bigint;
}

export interface MatrixElementError {
  readonly code: 'operand';
  /** The list (a, b) or the element (c) at fault, and the element's index in it. */
  readonly operand: 'a' | 'b' | 'c';
  readonly index: number | null;
  readonly message: string;
}

/**
 * Whether an element is given as its whole container: tf32's .b32, and a UE4M3 scale's byte,
 * whose sign bit the instruction ignores (tensor-cores.md, "Block scaling").
 */
const givenWhole = (place: Place) => place.format === 'tf32' || place.format === 'ue4m3';

/** Bits an element is given in: its place's value bits, or its whole container. */
function givenBits(place: Place): number {
  return givenWhole(place)
    ? place.slot.hi - place.slot.lo + 1
    : place.value.hi - place.value.lo + 1;
}

/** A matrix form's lists: A's row, B's column, C's element, a block-scaled form's scales. */
export type MatrixOperand = 'a' | 'b' | 'c' | 'scale_a' | 'scale_b';

/** The places of A's row, B's column, C's element or the scales, in order. */
export function placesOf(form: Form, operand: MatrixOperand): readonly Place[] {
  return form.elements[0]!.inputs.filter((p) => p.operand === operand);
}

/** Where an element's given bits go in its register: its value, or its whole container. */
export function givenPlace(place: Place): { readonly lo: number; readonly width: number } {
  return { lo: givenWhole(place) ? place.slot.lo : place.value.lo, width: givenBits(place) };
}

/** The registers of a matrix form holding these elements, or what is wrong with them. */
export function matrixRegisters(
  form: Form,
  elements: MatrixElements,
):
  | { readonly ok: true; readonly registers: Registers }
  | { readonly ok: false; readonly error: MatrixElementError } {
  if (!form.matrix) throw new Error(`not a matrix form: ${form.text}`);
  const k = form.matrix.shape.k;
  const registers: Record<'a' | 'b' | 'c', bigint> = { a: 0n, b: 0n, c: 0n };
  for (const operand of ['a', 'b', 'c'] as const) {
    const given = operand === 'c' ? [elements.c] : elements[operand];
    const places = placesOf(form, operand);
    if (!Array.isArray(given) || given.length !== places.length)
      return {
        ok: false,
        error: {
          code: 'operand',
          operand,
          index: null,
          message: `${form.text} takes ${k} elements of ${operand}; got ${Array.isArray(given) ? given.length : 'none'}`,
        },
      };
    for (const [i, place] of places.entries()) {
      const bits = given[i];
      const width = givenBits(place);
      if (typeof bits !== 'bigint' || bits < 0n || bits >= 1n << BigInt(width))
        return {
          ok: false,
          error: {
            code: 'operand',
            operand,
            index: operand === 'c' ? null : i,
            message: `${operand === 'c' ? 'c' : `${operand}[${i}]`} must be a ${width}-bit pattern of .${place.format}${place.format === 'tf32' ? ' (its .b32 register)' : ''}; got ${String(bits)}`,
          },
        };
      const at = place.format === 'tf32' ? place.slot.lo : place.value.lo;
      registers[operand] |= bits << BigInt(at);
    }
  }
  return { ok: true, registers };
}

/** The elements a matrix form's registers hold, in the same convention (tf32: the .b32). */
export function matrixElements(form: Form, registers: Registers): MatrixElements {
  const read = (place: Place) => {
    const reg = registers[place.operand as 'a' | 'b' | 'c'] ?? 0n;
    const lo = place.format === 'tf32' ? place.slot.lo : place.value.lo;
    return (reg >> BigInt(lo)) & ((1n << BigInt(givenBits(place))) - 1n);
  };
  return {
    a: placesOf(form, 'a').map(read),
    b: placesOf(form, 'b').map(read),
    c: read(placesOf(form, 'c')[0]!),
  };
}
