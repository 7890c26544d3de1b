import { memo, useLayoutEffect, useMemo, useRef } from 'react';
import type { FormatName } from '../catalog/formats.ts';
import type { Form, Place, RegisterName } from '../catalog/instruction.ts';
import { FORMATS, hexOf } from '../engine/format.ts';
import { readElementText, registerPlaces } from '../engine/register-text.ts';
import { elementWord } from '../present/element-word.ts';
import { storedValueText } from '../present/stored-text.ts';
import {
  elementReadout,
  holdsOobNaN,
  neighbours,
  OOB_NAN_BITS,
  quickPicks,
} from '../state/element-view.ts';
import { bitsAt, registerHex, withBitsAt } from '../state/registers.ts';
import type { StoredNote } from '../state/store.ts';
import { BitFields, type BitRun } from './BitFields.tsx';
import { CommitField, type FieldParse } from './CommitField.tsx';
import { NeighbourButtons } from './NeighbourButtons.tsx';
import { Readout } from './Readout.tsx';
import { RegisterFields } from './RegisterFields.tsx';
import { Term } from './Term.tsx';

export interface RegisterEditorProps {
  readonly form: Form;
  /** A source register of the form, or its destination d. */
  readonly name: RegisterName;
  readonly title: string;
  readonly register: bigint;
  /** Absent for the result: then the editor is read-only. */
  readonly onChange?: (register: bigint, stored?: StoredNote) => void;
  /**
   * The form has .oob and this is a or b, the operands it tests: an element holding the OOB-NaN
   * pattern is named so, and the quick picks offer it.
   */
  readonly oobTested?: boolean;
}

const range = (r: { hi: number; lo: number }) => (r.hi === r.lo ? `${r.hi}` : `${r.hi}:${r.lo}`);

/**
 * One register of any form and width (8 to 64 bits): its hex and binary, then each element by
 * its place — an x2 register's lanes (lane 0 in bits 15:0), cvt's packed elements (element 0 in
 * the upper bits, as its Semantics block numbers them), the padding beside a 6-bit value or
 * below .tf32 — with its sign, exponent and mantissa bits, value field, quick picks, neighbours
 * and readouts. rbits shows which of its bits each element's .rs rounding reads.
 */
export const RegisterEditor = memo(function RegisterEditor(props: RegisterEditorProps) {
  const { form, name, title, register, onChange, oobTested = false } = props;
  const width = form.registers.find((r) => r.name === name)!.bits;
  // Element editors get a setter that does not change with the register, so an edit in one
  // element leaves the others' (memoized) editors alone; it reads the register of the last commit.
  const registerNow = useRef(register);
  useLayoutEffect(() => {
    registerNow.current = register;
  });
  const setRange = useMemo(
    () =>
      onChange
        ? (r: Place['slot'], bits: bigint, stored?: StoredNote) =>
            onChange(withBitsAt(registerNow.current, r, bits), stored)
        : undefined,
    [onChange],
  );
  const places = registerPlaces(form, name);
  const single =
    places.length === 1 && places[0]!.place.slot.hi - places[0]!.place.slot.lo + 1 === width;
  return (
    <section
      className={`panel editor${onChange ? '' : ' result'}`}
      aria-label={title}
      data-testid={`editor-${name}`}
    >
      <h3>{title}</h3>
      <RegisterFields
        name={name}
        hex={registerHex(register, width)}
        binary={register.toString(2).padStart(width, '0')}
        width={width}
        onChange={onChange}
        wideHex={width > 32}
      />
      {name === 'rbits' ? (
        <RandomBits form={form} register={register} onChange={onChange} />
      ) : (
        <div className="lanes">
          {places.map(({ place, elements }, i) => (
            <ElementEditor
              key={`${place.slot.hi}:${place.slot.lo}`}
              form={form}
              name={name}
              place={place}
              index={elements[0]!}
              slot={bitsAt(register, place.slot)}
              single={single}
              explainPadding={i === 0}
              setRange={setRange}
              oobTested={oobTested}
            />
          ))}
        </div>
      )}
    </section>
  );
});

/**
 * Where an element goes or comes from, where that is another place than its own (a conversion
 * writes into other bits than it reads): "→ d[15:8]", "← a".
 */
function movedTo(form: Form, name: RegisterName, index: number): string | null {
  const element = form.elements.find((e) => e.index === index)!;
  const dest = element.dest;
  const input = element.inputs[0]!;
  if (input.slot.hi === dest.slot.hi && input.slot.lo === dest.slot.lo) return null;
  const width = (n: string) => form.registers.find((r) => r.name === n)!.bits;
  const at = (p: Place) =>
    p.slot.lo === 0 && p.slot.hi === width(p.operand) - 1
      ? p.operand
      : `${p.operand}[${range(p.slot)}]`;
  return name === 'd' ? `← ${element.inputs.map(at).join(', ')}` : `→ ${at(dest)}`;
}

/** The runs of an element's slot: padding above or below its value, then the value's fields. */
function runsOf(place: Place): BitRun[] {
  const f = FORMATS[place.format];
  const off = place.value.lo - place.slot.lo;
  const runs: BitRun[] = [];
  if (place.value.hi < place.slot.hi)
    runs.push({
      name: 'padding',
      from: place.slot.hi - place.slot.lo,
      to: place.value.hi - place.slot.lo + 1,
    });
  const top = f.width - 1;
  if (f.signed) runs.push({ name: 'sign', from: top + off, to: top + off });
  runs.push({ name: 'exponent', from: (f.signed ? top - 1 : top) + off, to: f.manBits + off });
  if (f.manBits > 0) runs.push({ name: 'mantissa', from: f.manBits - 1 + off, to: off });
  if (place.value.lo > place.slot.lo) runs.push({ name: 'padding', from: off - 1, to: 0 });
  return runs;
}

/** An element's value field: bits of the format's width, or a value rounded to the format. */
function valueParser(format: FormatName): (text: string) => FieldParse {
  const f = FORMATS[format];
  return (text) => {
    const r = readElementText(text, f);
    if (!r.ok) return { ok: false, message: r.error.message };
    return r.written === 'value'
      ? { ok: true, bits: r.bits, stored: storedValueText(r.value, hexOf(r.bits, f.width)) }
      : { ok: true, bits: r.bits };
  };
}

/** One element: its bits, value field, quick picks, neighbours and readouts. */
const ElementEditor = memo(function ElementEditor({
  form,
  name,
  place,
  index,
  slot,
  single,
  explainPadding,
  setRange,
  oobTested,
}: {
  form: Form;
  name: RegisterName;
  place: Place;
  /** The element's number (lane i, or cvt's element i). */
  index: number;
  /** The slot's bits (value and padding). */
  slot: bigint;
  /** The register holds just this value: no heading of its own. */
  single: boolean;
  explainPadding: boolean;
  setRange: ((r: Place['slot'], bits: bigint, stored?: StoredNote) => void) | undefined;
  oobTested: boolean;
}) {
  const format = place.format;
  const f = FORMATS[format];
  const valueRange = { hi: place.value.hi - place.slot.lo, lo: place.value.lo - place.slot.lo };
  const bits = bitsAt(slot, valueRange);
  const r = elementReadout(bits, format);
  const { up, down } = neighbours(bits, format);
  const word = elementWord(form);
  const prefix = single ? name : `${name} ${word} ${index}`;
  const setValue = setRange
    ? (b: bigint, stored?: StoredNote) => setRange(place.value, b, stored)
    : undefined;
  const parse = useMemo(() => valueParser(format), [format]);
  const oobNaN = oobTested && holdsOobNaN(bits, format);
  const moved = movedTo(form, name, index);
  const slotWidth = place.slot.hi - place.slot.lo + 1;
  const padding = explainPadding && slotWidth > f.width;
  return (
    <div className="lane" data-testid={`${name}-lane${index}`} data-format={format}>
      {(!single || moved) && (
        <h4>
          {single ? `.${format}` : `${word[0]!.toUpperCase()}${word.slice(1)} ${index}`}{' '}
          <span className="muted">
            ({single ? '' : `bits ${range(place.slot)}`}
            {single ? moved : moved ? `, .${format} ${moved}` : ''})
          </span>
        </h4>
      )}
      <BitFields
        label={prefix}
        bits={slot}
        width={slotWidth}
        runs={runsOf(place)}
        firstBit={place.slot.lo}
        onChange={setRange ? (b) => setRange(place.slot, b) : undefined}
      />
      {padding && (
        <p className="muted padding-note" data-testid={`${name}-padding-note${index}`}>
          {format === 'tf32'
            ? '.tf32 sits in the upper 19 bits of its .b32; the 13 bits below are zero.'
            : `A ${f.width}-bit value sits in the low bits of its byte; the ${slotWidth - f.width} bits above are padding, zero in a result (nonzero padding in a source is ignored).`}
        </p>
      )}
      {setValue && (
        <div className="lane-controls">
          <CommitField
            label={`${prefix} value`}
            value={r.fieldText}
            testId={`${name}-value${index}`}
            parse={parse}
            onCommit={setValue}
            wide={f.width > 32}
            keepTyped
          />
          <label className="field">
            Quick pick
            <select
              value=""
              data-testid={`${name}-pick${index}`}
              onChange={(e) => {
                if (e.target.value !== '') setValue(BigInt(e.target.value));
              }}
            >
              <option value="">choose…</option>
              {quickPicks(format).map((p) => (
                <option key={p.name} value={p.bits.toString()}>
                  {p.name}
                </option>
              ))}
              {oobTested && f.width === 16 && (
                <option value={OOB_NAN_BITS.toString()}>OOB-NaN ({hexOf(OOB_NAN_BITS, 16)})</option>
              )}
            </select>
          </label>
          <NeighbourButtons
            prefix={prefix}
            onDown={() => setValue(down)}
            onUp={() => setValue(up)}
            hasDown={down !== bits}
            hasUp={up !== bits}
            whyNone={(direction) =>
              r.nan ? 'A NaN has no next value' : `${r.className} has no next value ${direction}`
            }
          />
        </div>
      )}
      <Readout
        classText={
          oobNaN ? (
            <>
              <Term id="oob">OOB-NaN</Term> pattern ({hexOf(bits, 16)})
            </>
          ) : (
            <ClassText readout={r} />
          )
        }
        values={r}
        testIdOf={(row) => `${name}-${row}${index}`}
      />
    </div>
  );
});

/** A class name, with "subnormal", "canonical NaN" and MAX_NORM explained where they appear. */
function ClassText({ readout: r }: { readout: ReturnType<typeof elementReadout> }) {
  const [sign, ...rest] = r.className.split(' ');
  const kind = rest.join(' ');
  if (kind === 'subnormal')
    return (
      <>
        {sign} <Term id="subnormal" />
      </>
    );
  if (r.canonicalNaN)
    return (
      <>
        {r.className}, the <Term id="canonical-nan" />
      </>
    );
  if (r.maxNorm && kind === 'normal')
    return (
      <>
        {r.className}, <Term id="max-norm" />
      </>
    );
  return <>{r.className}</>;
}

/** rbits: its 32 bits, and for each element the bits its .rs rounding adds (decision cvt-rs-rbits). */
function RandomBits({
  form,
  register,
  onChange,
}: {
  form: Form;
  register: bigint;
  onChange?: (register: bigint, stored?: StoredNote) => void;
}) {
  // Each element's random bits, and the bits no element reads, from bit 31 down.
  const runs: BitRun[] = [];
  let next = 31;
  const used = form.elements.filter((e) => e.rbits).sort((x, y) => y.rbits!.hi - x.rbits!.hi);
  for (const e of used) {
    const r = e.rbits!;
    if (r.hi < next) runs.push({ name: 'padding', label: 'unused', from: next, to: r.hi + 1 });
    runs.push({ name: 'random', label: `for ${e.inputs[0]!.operand}`, from: r.hi, to: r.lo });
    next = r.lo - 1;
  }
  if (next >= 0) runs.push({ name: 'padding', label: 'unused', from: next, to: 0 });
  return (
    <div className="rbits">
      <BitFields label="rbits" bits={register} width={32} runs={runs} onChange={onChange} />
      <ul className="rbits-use" data-testid="rbits-use">
        {form.elements
          .filter((e) => e.rbits)
          .map((e) => {
            const r = e.rbits!;
            const count = r.hi - r.lo + 1;
            return (
              <li key={e.index}>
                element {e.index} ({e.inputs[0]!.operand} → d[{range(e.dest.slot)}]): rbits[
                {range(r)}] ={' '}
                <span className="mono">{bitsAt(register, r).toString(2).padStart(count, '0')}</span>{' '}
                ({count} bits)
              </li>
            );
          })}
      </ul>
      <p className="muted">
        Which bits go to which element is not printed in the spec&apos;s text (only in its figures):{' '}
        <a href="#decision-cvt-rs-rbits">the layout this page follows</a>.
      </p>
    </div>
  );
}
