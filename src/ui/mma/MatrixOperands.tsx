import { useMemo } from 'react';
import type { Form, Place } from '../../catalog/instruction.ts';
import { FORMATS, hexOf } from '../../engine/format.ts';
import { placesOf } from '../../engine/matrix-registers.ts';
import { readMatrixList } from '../../engine/matrix-text.ts';
import { readElementText } from '../../engine/register-text.ts';
import { shortestDecimal } from '../../engine/stored-value.ts';
import { elementStoredText, storedValueText } from '../../present/stored-text.ts';
import { bitsAt, withBitsAt } from '../../state/registers.ts';
import { useStore } from '../../state/store.ts';
import { useForm } from '../../state/form.ts';
import { CommitField, type FieldParse } from '../CommitField.tsx';
import { RegisterEditor } from '../RegisterEditor.tsx';
import { MatrixModel } from './MatrixModel.tsx';
import './matrix.css';

/**
 * A tensor-core form's one output element d = c + Σ a_i·b_i: A's row and B's column as k element
 * fields each (a value or bits per element, or the whole row pasted as a list), C's element in
 * the page's register editor, a block-scaled form's scales of the row and of the column as lists
 * too, and the model the target computes it by, with what-if.
 */
export default function MatrixOperands() {
  const form = useForm();
  const m = form.matrix!;
  const c = form.registers.find((r) => r.name === 'c')!;
  const cBits = useStore((s) => s.registers.c);
  const setRegister = useStore((s) => s.setRegister);
  const onC = useMemo(
    () => (bits: bigint, stored?: Parameters<typeof setRegister>[2]) =>
      setRegister('c', bits, stored),
    [setRegister],
  );
  return (
    <div className="operands matrix-operands" data-testid="matrix-operands">
      <p className="muted field-help" data-testid="field-help">
        One element of D = A × B + C ({m.shape.m} × {m.shape.n}, k = {m.shape.k}): d = c + Σ a_i·b_i
        over a row of A and a column of B. Each element takes a value such as <code>1.5</code>,{' '}
        <code>-0</code>, <code>1e-3</code>, <code>inf</code> or <code>nan</code>, rounded to its
        format by round-to-nearest-even, or its bits with <code>0x</code>/<code>0b</code>; the list
        field takes the whole row, commas or spaces between the elements. Enter commits.
      </p>
      {m.blockScale ? (
        <p className="muted field-help" data-testid="block-scale-help">
          Block scaling (.kind::{m.blockScale.kind}, .scale_vec::{m.blockScale.scaleVec}): d = c + Σ
          (a_i·SF_A)·(b_i·SF_B), the row and the column each in {m.blockScale.chunks} chunk
          {m.blockScale.chunks > 1 ? 's' : ''} of {m.shape.k / m.blockScale.chunks} elements with a
          .{m.blockScale.stype} scale each
          {m.blockScale.stype === 'ue4m3' ? ' (its sign bit is ignored)' : ''}: the scales the
          selectors {'{byte-id, thread-id}'} pick for this row and column.
        </p>
      ) : null}
      <MatrixVector form={form} operand="a" title="Row of A" />
      <MatrixVector form={form} operand="b" title="Column of B" />
      {m.blockScale ? (
        <>
          <MatrixVector form={form} operand="scale_a" title="Scales of A's row (SF_A)" />
          <MatrixVector form={form} operand="scale_b" title="Scales of B's column (SF_B)" />
        </>
      ) : null}
      <RegisterEditor
        form={form}
        name="c"
        title={`Element of C (.${c.type}, ${c.bits} bits)`}
        register={cBits}
        onChange={onC}
      />
      <MatrixModel form={form} />
    </div>
  );
}

/** The elements of a list as typed: separated by commas, or by spaces where there is no comma. */
export function splitList(text: string): string[] {
  const t = text.trim();
  return (t.includes(',') ? t.split(',') : t.split(/\s+/)).map((s) => s.trim());
}

/** An element's value as its field shows it: the shortest decimal that reads back to its bits. */
function elementText(register: bigint, place: Place): string {
  return shortestDecimal(bitsAt(register, place.value), FORMATS[place.format]);
}

/** An element's field: bits of its format's width, or a value rounded to the format. */
function elementParser(place: Place): (text: string) => FieldParse {
  const f = FORMATS[place.format];
  return (text) => {
    const r = readElementText(text, f);
    if (!r.ok) return { ok: false, message: r.error.message };
    return r.written === 'value'
      ? { ok: true, bits: r.bits, stored: storedValueText(r.value, hexOf(r.bits, f.width)) }
      : { ok: true, bits: r.bits };
  };
}

/** What a list field holds: a row, a column, or a block-scaled form's scales. */
const LIST_WORD = { a: 'row', b: 'column', scale_a: 'scales', scale_b: 'scales' } as const;

/** A row of A, a column of B or their scales: the whole list in one field, then each element's. */
function MatrixVector({
  form,
  operand,
  title,
}: {
  form: Form;
  operand: 'a' | 'b' | 'scale_a' | 'scale_b';
  title: string;
}) {
  const register = useStore((s) => s.registers[operand]);
  const setRegister = useStore((s) => s.setRegister);
  const places = placesOf(form, operand);
  const format = places[0]!.format;
  const listText = places.map((p) => elementText(register, p)).join(', ');
  const parseList = (text: string): FieldParse => {
    const r = readMatrixList(form, operand, splitList(text));
    if (!r.ok) return { ok: false, message: r.error.message };
    // What a value stored, said for those it could not be stored in exactly.
    const inexact = r.stored
      .filter((s) => !s.value.exact)
      .map((s) => `${operand}[${s.index}]: ${elementStoredText(s.value, s.bits, s.width)}`);
    return inexact.length > 0
      ? { ok: true, bits: r.bits, stored: inexact.join('; ') }
      : { ok: true, bits: r.bits };
  };
  return (
    <section
      className="panel editor matrix-vector"
      aria-label={title}
      data-testid={`editor-${operand}`}
    >
      <h3>
        {title} ({places.length} .{format} elements)
      </h3>
      <CommitField
        label={`${operand}: the whole ${LIST_WORD[operand]}`}
        value={listText}
        parse={parseList}
        onCommit={(bits, stored) => setRegister(operand, bits, stored)}
        testId={`${operand}-list`}
        wide
      />
      <div className="matrix-elements">
        {places.map((place, i) => (
          <CommitField
            key={i}
            label={`${operand}[${i}] ${hexOf(bitsAt(register, place.value), FORMATS[format].width)}`}
            value={elementText(register, place)}
            parse={elementParser(place)}
            onCommit={(bits, stored) =>
              setRegister(
                operand,
                withBitsAt(useStore.getState().registers[operand], place.value, bits),
                stored,
              )
            }
            testId={`${operand}-el${i}`}
          />
        ))}
      </div>
    </section>
  );
}
