import { memo, useLayoutEffect, useMemo, useRef } from 'react';
import type { CvtElement, CvtForm, ElementFormatName, ElementPlace } from '../catalog/index.ts';
import {
  elementNeighbours,
  elementQuickPicks,
  elementReadout,
  fieldsOf,
  valueWidth,
} from '../state/cvt-element-view.ts';
import { parseCvtElementText } from '../engine/cvt-operand-text.ts';
import { elementBits, registerHex, withBits, withElement } from '../state/cvt-operands.ts';
import type { StoredNote } from '../state/store.ts';
import { CommitField } from './CommitField.tsx';
import { NeighbourButtons } from './NeighbourButtons.tsx';
import { Readout } from './Readout.tsx';
import { RegisterFields } from './RegisterFields.tsx';
import { BitFields, type BitRun } from './BitFields.tsx';
import { Term } from './Term.tsx';

/** Which register an editor shows: a source of the form, or its destination d. */
export type CvtRegisterName = 'a' | 'b' | 'e' | 'f' | 'rbits' | 'd';

export interface CvtRegisterEditorProps {
  readonly form: CvtForm;
  readonly name: CvtRegisterName;
  readonly title: string;
  readonly register: bigint;
  readonly width: number;
  /** Absent for the result: then the editor is read-only. */
  readonly onChange?: (register: bigint, stored?: StoredNote) => void;
}

/** A register's bits as read from its hex or binary field: cvt's registers are BigInt. */
const asBigInt = (bits: bigint): bigint => bits;

const bitRange = (r: { hi: number; lo: number }) => (r.hi === r.lo ? `${r.hi}` : `${r.hi}:${r.lo}`);

/** The elements this register holds, in the Semantics block's order, with their places. */
function placesOf(
  form: CvtForm,
  name: CvtRegisterName,
): { element: CvtElement; place: ElementPlace }[] {
  const out = form.elements
    .map((element) => ({ element, place: name === 'd' ? element.dest : element.source }))
    .filter(({ place }) => place.operand === name);
  return out.sort((x, y) => y.place.slot.hi - x.place.slot.hi);
}

/**
 * One cvt register of any width (8 to 64 bits, BigInt): its hex and binary, then element by
 * element in the order the Semantics block gives (`a` in the upper bits) each element's padding,
 * sign, exponent and mantissa bits, its value and readouts. rbits shows which of its bits each
 * element's .rs rounding reads.
 */
export const CvtRegisterEditor = memo(function CvtRegisterEditor(props: CvtRegisterEditorProps) {
  const { form, name, title, register, width, onChange } = props;
  // Element editors get a setter that does not change with the register, so an edit in one
  // element leaves the others' (memoized) editors alone; it reads the register of the last commit.
  const registerNow = useRef(register);
  useLayoutEffect(() => {
    registerNow.current = register;
  });
  const setSlot = useMemo(
    () =>
      onChange
        ? (hi: number, lo: number, bits: bigint, stored?: StoredNote) =>
            onChange(withBits(registerNow.current, hi, lo, bits), stored)
        : undefined,
    [onChange],
  );
  const places = placesOf(form, name);
  const hex = registerHex(register, width);
  const bin = register.toString(2).padStart(width, '0');
  return (
    <section
      className={`panel editor cvt-editor${onChange ? '' : ' result'}`}
      aria-label={title}
      data-testid={`editor-${name}`}
    >
      <h3>{title}</h3>
      <RegisterFields<bigint>
        name={name}
        hex={hex}
        binary={bin}
        width={width}
        fromBits={asBigInt}
        onChange={onChange}
        wideHex={width > 32}
      />
      {name === 'rbits' ? (
        <RandomBits form={form} register={register} onChange={onChange} />
      ) : (
        <div className="lanes cvt-elements">
          {places.map(({ element, place }, i) => {
            const slotWidth = place.slot.hi - place.slot.lo + 1;
            const slot = (register >> BigInt(place.slot.lo)) & ((1n << BigInt(slotWidth)) - 1n);
            return (
              <ElementEditor
                key={element.index}
                name={name}
                element={element}
                place={place}
                slot={slot}
                single={places.length === 1 && slotWidth === width}
                // The padding is explained once per register.
                explainPadding={i === 0}
                setSlot={setSlot}
              />
            );
          })}
        </div>
      )}
    </section>
  );
});

/** What an element is in the conversion: "a[15:8] → d[15:8]" or "d[15:8] ← a[15:8]". */
function roleOf(name: CvtRegisterName, element: CvtElement): string {
  const src = `${element.source.operand}[${bitRange(element.source.slot)}]`;
  const dst = `d[${bitRange(element.dest.slot)}]`;
  return name === 'd' ? `${dst} ← ${src}` : `${src} → ${dst}`;
}

/** The runs of an element's slot: padding above or below its value, then the value's fields. */
function runsOf(place: ElementPlace): BitRun[] {
  const off = place.value.lo - place.slot.lo;
  const runs: BitRun[] = [];
  if (place.value.hi < place.slot.hi)
    runs.push({
      name: 'padding',
      from: place.slot.hi - place.slot.lo,
      to: place.value.hi - place.slot.lo + 1,
    });
  for (const f of fieldsOf(place.format))
    runs.push({ name: f.name, from: f.from + off, to: f.to + off });
  if (place.value.lo > place.slot.lo) runs.push({ name: 'padding', from: off - 1, to: 0 });
  return runs;
}

/** One element: its bits, value field, quick picks, neighbours and readouts. */
const ElementEditor = memo(function ElementEditor({
  name,
  element,
  place,
  slot,
  single,
  explainPadding,
  setSlot,
}: {
  name: CvtRegisterName;
  element: CvtElement;
  place: ElementPlace;
  /** The slot's bits (value and padding). */
  slot: bigint;
  /** The register holds just this value: no heading of its own. */
  single: boolean;
  explainPadding: boolean;
  setSlot: ((hi: number, lo: number, bits: bigint, stored?: StoredNote) => void) | undefined;
}) {
  const format: ElementFormatName = place.format;
  const slotWidth = place.slot.hi - place.slot.lo + 1;
  const local: ElementPlace = {
    ...place,
    slot: { hi: slotWidth - 1, lo: 0 },
    value: { hi: place.value.hi - place.slot.lo, lo: place.value.lo - place.slot.lo },
  };
  const bits = elementBits(slot, local);
  const width = valueWidth(format);
  const r = elementReadout(bits, format);
  const { up, down } = elementNeighbours(bits, format);
  const prefix = `${name}[${bitRange(place.slot)}]`;
  const id = `${name}-e${element.index}`;
  const setValue = setSlot
    ? (b: bigint, stored?: StoredNote) =>
        setSlot(place.slot.hi, place.slot.lo, withElement(slot, local, b), stored)
    : undefined;
  const parse = useMemo(
    () => (text: string) => parseCvtElementText(text, format, width),
    [format, width],
  );
  const padding = explainPadding && runsOf(place).some((run) => run.name === 'padding');
  return (
    <div className="lane cvt-element" data-testid={id} data-format={format}>
      <h4>
        {single ? `.${format}` : `Element ${element.index}: .${format}`}{' '}
        <span className="muted">({roleOf(name, element)})</span>
      </h4>
      <BitFields
        label={prefix}
        bits={slot}
        width={slotWidth}
        runs={runsOf(place)}
        firstBit={place.slot.lo}
        onChange={setSlot ? (b) => setSlot(place.slot.hi, place.slot.lo, b) : undefined}
      />
      {padding && (
        <p className="muted cvt-padding-note" data-testid={`${id}-padding-note`}>
          {format === 'tf32'
            ? '.tf32 sits in the upper 19 bits of its .b32; the 13 bits below are zero.'
            : `A 6-bit value sits in the low bits of its byte; the ${slotWidth - width} bits above are padding, zero in a result (nonzero padding in a source is ignored).`}
        </p>
      )}
      {setValue && (
        <div className="lane-controls">
          <CommitField<bigint>
            label={`${prefix} value`}
            value={r.fieldText}
            testId={`${id}-value`}
            parse={parse}
            onCommit={setValue}
            wide={width > 32}
          />
          <label className="field">
            Quick pick
            <select
              value=""
              data-testid={`${id}-pick`}
              onChange={(e) => {
                if (e.target.value !== '') setValue(BigInt(e.target.value));
              }}
            >
              <option value="">choose…</option>
              {elementQuickPicks(format).map((p) => (
                <option key={p.name} value={p.bits.toString()}>
                  {p.name}
                </option>
              ))}
            </select>
          </label>
          <NeighbourButtons
            prefix={prefix}
            onDown={() => setValue(down)}
            onUp={() => setValue(up)}
            hasDown={down !== bits}
            hasUp={up !== bits}
          />
        </div>
      )}
      <Readout
        classText={
          <>
            {r.className}
            {r.canonicalNaN && ', the canonical NaN'}
            {r.maxNorm && (
              <>
                , <Term id="max-norm" />
              </>
            )}
          </>
        }
        values={r}
        testIdOf={(row) => (row === 'class' || row === 'exact' ? `${id}-${row}` : undefined)}
      />
    </div>
  );
});

/** rbits: its 32 bits, and for each element the bits its .rs rounding adds (decision cvt-rs-rbits). */
function RandomBits({
  form,
  register,
  onChange,
}: {
  form: CvtForm;
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
    runs.push({ name: 'random', label: `for ${e.source.operand}`, from: r.hi, to: r.lo });
    next = r.lo - 1;
  }
  if (next >= 0) runs.push({ name: 'padding', label: 'unused', from: next, to: 0 });
  return (
    <div className="cvt-rbits">
      <BitFields label="rbits" bits={register} width={32} runs={runs} onChange={onChange} />
      <ul className="cvt-rbits-use" data-testid="rbits-use">
        {form.elements
          .filter((e) => e.rbits)
          .map((e) => {
            const r = e.rbits!;
            const count = r.hi - r.lo + 1;
            const value = (register >> BigInt(r.lo)) & ((1n << BigInt(count)) - 1n);
            return (
              <li key={e.index}>
                element {e.index} ({e.source.operand} → d[{bitRange(e.dest.slot)}]): rbits[
                {bitRange(r)}] ={' '}
                <span className="mono">{value.toString(2).padStart(count, '0')}</span> ({count}{' '}
                bits)
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
