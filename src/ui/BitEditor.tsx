import { memo, useLayoutEffect, useMemo, useRef } from 'react';
import type { FormatName } from '../catalog/index.ts';
import { FORMATS, nextDown, nextUp } from '../engine/index.ts';
import { describeStored, parseOperandText, type OperandShape } from '../engine/operand-text.ts';
import {
  holdsOobNaN,
  laneBits,
  laneOf,
  laneReadout,
  OOB_NAN_BITS,
  quickPicks,
  withLane,
} from '../state/bit-view.ts';
import type { StoredNote } from '../state/store.ts';
import { formatBits } from '../state/url-codec.ts';
import { BitFields, type BitRun } from './BitFields.tsx';
import { CommitField, type FieldParse } from './CommitField.tsx';
import { NeighbourButtons } from './NeighbourButtons.tsx';
import { Readout } from './Readout.tsx';
import { RegisterFields } from './RegisterFields.tsx';
import { Term } from './Term.tsx';

export interface BitEditorProps {
  /** Operand name: a, b, c, or d for the result. */
  name: string;
  title: string;
  register: number;
  width: 16 | 32;
  lanes: 1 | 2;
  format: FormatName;
  /** Absent for the result: then the editor is read-only. */
  onChange?: (register: number, stored?: StoredNote) => void;
  /**
   * The form has .oob and this is a or b, the operands it tests: a lane holding the OOB-NaN
   * pattern is named so, and the quick picks offer it.
   */
  oobTested?: boolean;
}

/** Operand text for a register or one lane, by the project's one rule (0x/0b bits, or a value). */
function fieldParser(shape: OperandShape): (text: string) => FieldParse {
  return (text) => {
    const r = parseOperandText(text, shape);
    if (!r.ok) return r;
    return r.value
      ? { ok: true, bits: r.bits, stored: describeStored(r.bits, shape, r.value) }
      : { ok: true, bits: r.bits };
  };
}

/** One register: its hex and binary, then per lane the sign/exponent/mantissa fields and readouts. */
export const BitEditor = memo(function BitEditor(props: BitEditorProps) {
  const { name, title, register, width, lanes, format, onChange, oobTested = false } = props;
  // Lane editors get a setter that does not change with the register, so an edit in one lane
  // leaves the other lane's (memoized) editor alone; it reads the register as of the last commit.
  const registerNow = useRef(register);
  useLayoutEffect(() => {
    registerNow.current = register;
  });
  const setLaneBits = useMemo(
    () =>
      onChange
        ? (lane: 0 | 1, bits: number, stored?: StoredNote) =>
            onChange(withLane(registerNow.current, lanes, lane, bits), stored)
        : undefined,
    [onChange, lanes],
  );
  const hex = formatBits(register, width);
  const bin = register.toString(2).padStart(width, '0');
  // Lane 0 (bits 15:0) first, as the steps and the reproduce program list lanes.
  const laneOrder: readonly (0 | 1)[] = lanes === 2 ? [0, 1] : [0];
  return (
    <section
      className={`panel editor${onChange ? '' : ' result'}`}
      aria-label={title}
      data-testid={`editor-${name}`}
    >
      <h3>{title}</h3>
      <RegisterFields
        name={name}
        hex={hex}
        binary={bin}
        width={width}
        fromBits={Number}
        onChange={onChange}
      />
      <div className="lanes">
        {laneOrder.map((i) => (
          <LaneEditor
            key={i}
            name={name}
            bits={laneOf(register, lanes, i)}
            lanes={lanes}
            format={format}
            lane={i}
            setLaneBits={setLaneBits}
            oobTested={oobTested}
          />
        ))}
      </div>
    </section>
  );
});

/** One lane's fields, controls and readouts; memoized on the lane's own bits. */
const LaneEditor = memo(function LaneEditor({
  name,
  bits,
  lanes,
  format,
  lane,
  setLaneBits,
  oobTested,
}: {
  name: string;
  bits: number;
  lanes: 1 | 2;
  format: FormatName;
  lane: 0 | 1;
  /** Absent for the result (read-only). */
  setLaneBits: ((lane: 0 | 1, bits: number, stored?: StoredNote) => void) | undefined;
  oobTested: boolean;
}) {
  const f = FORMATS[format];
  const setLane = setLaneBits
    ? (b: number, stored?: StoredNote) => setLaneBits(lane, b, stored)
    : undefined;
  const r = laneReadout(bits, format);
  const oobNaN = oobTested && holdsOobNaN(bits, format);
  const prefix = lanes === 2 ? `${name} lane ${lane}` : name;
  const up = nextUp(bits, f);
  const down = nextDown(bits, f);
  const parse = useMemo(() => fieldParser({ format, lanes: 1, bits: f.width }), [format, f.width]);
  return (
    <div className="lane" data-testid={`${name}-lane${lane}`}>
      {lanes === 2 && (
        <h4>
          Lane {lane} <span className="muted">({laneBits(lane)})</span>
        </h4>
      )}
      <BitFields
        label={prefix}
        bits={BigInt(bits)}
        width={f.width}
        runs={laneRuns(format)}
        onChange={setLane ? (b) => setLane(Number(b)) : undefined}
      />
      {setLane && (
        <div className="lane-controls">
          <CommitField
            label={`${prefix} value`}
            value={r.fieldText}
            testId={`${name}-value${lane}`}
            parse={parse}
            onCommit={setLane}
          />
          <label className="field">
            Quick pick
            <select
              value=""
              data-testid={`${name}-pick${lane}`}
              onChange={(e) => {
                if (e.target.value !== '') setLane(Number(e.target.value));
              }}
            >
              <option value="">choose…</option>
              {quickPicks(format).map((p) => (
                <option key={p.name} value={p.bits}>
                  {p.name}
                </option>
              ))}
              {oobTested && (
                <option value={OOB_NAN_BITS}>OOB-NaN ({formatBits(OOB_NAN_BITS, 16)})</option>
              )}
            </select>
          </label>
          <NeighbourButtons
            prefix={prefix}
            onDown={() => setLane(down)}
            onUp={() => setLane(up)}
            hasDown={down !== bits}
            hasUp={up !== bits}
            whyNone={(direction) => noNeighbour(r.className, direction)}
          />
        </div>
      )}
      <Readout
        classText={
          oobNaN ? (
            <>
              <Term id="oob">OOB-NaN</Term> pattern ({formatBits(bits, 16)})
            </>
          ) : (
            <ClassText className={r.className} canonical={r.canonicalNaN} />
          )
        }
        values={r}
        testIdOf={(row) => `${name}-${row}${lane}`}
      />
    </div>
  );
});

/** A class name, with "subnormal" and "canonical NaN" explained where they appear. */
function ClassText({ className, canonical }: { className: string; canonical: boolean }) {
  const [sign, ...rest] = className.split(' ');
  const kind = rest.join(' ');
  if (kind === 'subnormal')
    return (
      <>
        {sign} <Term id="subnormal" />
      </>
    );
  if (canonical)
    return (
      <>
        {className}, the <Term id="canonical-nan" />
      </>
    );
  return <>{className}</>;
}

/** Why a step button is disabled: NaN has no neighbours, an infinity none beyond itself. */
function noNeighbour(className: string, direction: 'up' | 'down'): string {
  return /nan/i.test(className)
    ? 'A NaN has no next value'
    : `${className} has no next value ${direction}`;
}

/** A lane's bits in its three fields: sign, exponent, mantissa. */
function laneRuns(format: FormatName): BitRun[] {
  const { width, manBits } = FORMATS[format];
  return [
    { name: 'sign', from: width - 1, to: width - 1 },
    { name: 'exponent', from: width - 2, to: manBits },
    { name: 'mantissa', from: manBits - 1, to: 0 },
  ];
}
