/**
 * A tensor-core form's row of A and column of B in a link: `a=0x3c00,0x4000,…` — k elements,
 * comma-separated, each bits of its format's width (a tf32 element: its .b32 register, as
 * `ptxf eval` and `ptxf batch` take them), or a value by the one rule of operand text
 * (`a=1,0.5,-2,…`), rounded to the element's format (a notice names each element a value could
 * not be stored in exactly). A link may also give
 * the whole register (`a=0x…`) or one value for every element (`a=1`), as for any register. A
 * block-scaled form's scales of the row and of the column are lists too, one per chunk, under
 * the names `sa` and `sb` (`sa=0x7f,0x80`).
 */
import type { Form, SourceName } from '../catalog/instruction.ts';
import { hexOf } from '../engine/format.ts';
import { placesOf, givenPlace } from '../engine/matrix-registers.ts';
import { isElementList, readMatrixList } from '../engine/matrix-text.ts';
import { elementStoredText } from '../present/stored-text.ts';
import { registerHex } from './registers.ts';

type ListRegister = 'a' | 'b' | 'scale_a' | 'scale_b';

/**
 * The longest row or column a link reads: k = 64 elements (block-scaled e2m1) of up to 19
 * characters and a comma each — an f64 element's bits are 0x and 16 digits, so m16n8k16 f64 is
 * 303 characters, m16n8k64 e2m1 255.
 */
export const MATRIX_LIST_MAX_LENGTH = 64 * 20;

/** Whether a register of the form is written in links as a list of its elements. */
export function isListRegister(form: Form, name: SourceName): name is ListRegister {
  return (
    form.matrix !== null &&
    form.matrix !== undefined &&
    (name === 'a' || name === 'b' || name === 'scale_a' || name === 'scale_b')
  );
}

/** A link's parameter for a register: its name, or `sa` / `sb` for a block-scaled form's scales. */
export function linkParam(name: SourceName): string {
  return name === 'scale_a' ? 'sa' : name === 'scale_b' ? 'sb' : name;
}

/** A row, column or scale list as a link writes it: each element's bits, lower-case hex of its width. */
export function matrixListParam(form: Form, name: ListRegister, register: bigint): string {
  return placesOf(form, name)
    .map((p) => {
      const { lo, width } = givenPlace(p);
      return hexOf((register >> BigInt(lo)) & ((1n << BigInt(width)) - 1n), width);
    })
    .join(',');
}

/**
 * A row or column from a link's list, or null where the text is not a list (it is then read as
 * a register's text); a list that cannot be read gives the start value with a notice.
 */
export function readMatrixListParam(
  form: Form,
  name: ListRegister,
  text: string,
  start: bigint,
  // url-registers.ts's RegisterNotes, written out: that module reads lists through this one.
  notes: { readonly ignored: string[]; readonly stored: string[] },
): bigint | null {
  if (!isElementList(text)) return null;
  const r = readMatrixList(
    form,
    name,
    text.split(',').map((s) => s.trim()),
  );
  if (!r.ok) {
    const width = form.registers.find((x) => x.name === name)!.bits;
    notes.ignored.push(`operand ${name}: ${r.error.message}; using ${registerHex(start, width)}`);
    return start;
  }
  // As `ptxf eval` says: only the elements a value could not be stored in exactly.
  for (const s of r.stored.filter((x) => !x.value.exact))
    notes.stored.push(
      `${name}[${s.index}] = ${s.value.text}: ${elementStoredText(s.value, s.bits, s.width)}`,
    );
  return r.bits;
}
