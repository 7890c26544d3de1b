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
import { CommitField, type FieldParse } from './CommitField.tsx';
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
  const parse = useMemo(() => fieldParser({ format, lanes, bits: width }), [format, lanes, width]);
  // Lane 0 (bits 15:0) first, as the steps and the reproduce program list lanes.
  const laneOrder: readonly (0 | 1)[] = lanes === 2 ? [0, 1] : [0];
  return (
    <section
      className={`panel editor${onChange ? '' : ' result'}`}
      aria-label={title}
      data-testid={`editor-${name}`}
    >
      <h3>{title}</h3>
      <div className="register-fields">
        {onChange ? (
          <>
            <CommitField
              label={`${name} hex`}
              value={hex}
              parse={parse}
              onCommit={onChange}
              testId={`${name}-hex`}
            />
            <CommitField
              label={`${name} binary`}
              value={`0b${bin}`}
              parse={parse}
              onCommit={onChange}
              testId={`${name}-bin`}
              wide
            />
          </>
        ) : (
          <p className="result-hex">
            <span>{name} =</span>{' '}
            <output className="mono" data-testid="result-bits">
              {hex}
            </output>
          </p>
        )}
      </div>
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
      <BitFields label={prefix} bits={bits} format={format} onChange={setLane} />
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
          <div className="step-buttons" role="group" aria-label={`${prefix}: step to a neighbour`}>
            <button
              type="button"
              onClick={() => setLane(down)}
              disabled={down === bits}
              title={down === bits ? noNeighbour(r.className, 'down') : undefined}
              aria-label={`${prefix}: next down`}
            >
              ▼ next down
            </button>
            <button
              type="button"
              onClick={() => setLane(up)}
              disabled={up === bits}
              title={up === bits ? noNeighbour(r.className, 'up') : undefined}
              aria-label={`${prefix}: next up`}
            >
              ▲ next up
            </button>
          </div>
        </div>
      )}
      <dl className="readout">
        <div>
          <dt>class</dt>
          <dd data-testid={`${name}-class${lane}`}>
            {oobNaN ? (
              <>
                <Term id="oob">OOB-NaN</Term> pattern ({formatBits(bits, 16)})
              </>
            ) : (
              <ClassText className={r.className} canonical={r.canonicalNaN} />
            )}
          </dd>
        </div>
        <div>
          <dt>exact value</dt>
          <dd className="mono exact" data-testid={`${name}-exact${lane}`}>
            {r.exact}
          </dd>
        </div>
        <div>
          <dt>shortest decimal giving these bits</dt>
          <dd className="mono" data-testid={`${name}-shortest${lane}`}>
            {r.shortest}
          </dd>
        </div>
        <div>
          <dt>
            exponent (<Term id="bias">bias</Term>)
          </dt>
          <dd className="mono" data-testid={`${name}-exponent${lane}`}>
            {r.exponentText}
          </dd>
        </div>
        <div>
          <dt>significand</dt>
          <dd className="mono">{r.significand ?? '—'}</dd>
        </div>
        <div>
          <dt>
            <Term id="ulp">ulp</Term> here
          </dt>
          <dd className="mono" data-testid={`${name}-ulp${lane}`}>
            {r.ulp ?? '—'}
          </dd>
        </div>
      </dl>
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

/**
 * The bits of one lane in three labelled fields. Each bit is a toggle button showing 0 or 1;
 * press and drag paints the pressed bit's new value over the others; arrow keys move between
 * bits (one tab stop per lane).
 */
function BitFields({
  label,
  bits,
  format,
  onChange,
}: {
  label: string;
  bits: number;
  format: FormatName;
  onChange?: (bits: number) => void;
}) {
  const f = FORMATS[format];
  // A drag in progress: the value it paints, the bit it painted last and the lane bits it has
  // written (the next pointer event may come before the re-render that shows them).
  const paint = useRef<{ value: 0 | 1; last: number; bits: number } | null>(null);
  const group = useRef<HTMLDivElement>(null);
  const width = f.width;
  const bitAt = (i: number) => Math.floor(bits / 2 ** i) % 2;
  const setBit = (i: number, v: 0 | 1) => {
    if (!onChange || bitAt(i) === v) return;
    onChange(v ? bits + 2 ** i : bits - 2 ** i);
  };
  /** Paints bits from..to (inclusive, either order) with `v` over `from`, returning the new bits. */
  const painted = (start: number, from: number, to: number, v: 0 | 1) => {
    let next = start;
    for (let i = Math.min(from, to); i <= Math.max(from, to); i++) {
      const set = Math.floor(next / 2 ** i) % 2 === 1;
      if (v && !set) next += 2 ** i;
      if (!v && set) next -= 2 ** i;
    }
    return next;
  };
  const fields: { name: string; from: number; to: number }[] = [
    { name: 'sign', from: width - 1, to: width - 1 },
    { name: 'exponent', from: width - 2, to: f.manBits },
    { name: 'mantissa', from: f.manBits - 1, to: 0 },
  ];
  const focusBit = (i: number) => {
    const clamped = Math.max(0, Math.min(width - 1, i));
    group.current?.querySelector<HTMLElement>(`[data-bit="${clamped}"]`)?.focus();
  };
  const stopPaint = () => {
    paint.current = null;
    window.removeEventListener('pointerup', stopPaint);
  };
  return (
    <div className="bitfields" ref={group} role="group" aria-label={`${label} bits`}>
      {fields.map((field) => (
        <div key={field.name} className={`bitfield ${field.name}`}>
          <span className="field-label">
            {field.name}
            <span className="muted"> ({field.from - field.to + 1})</span>
          </span>
          <div className="bits">
            {Array.from({ length: field.from - field.to + 1 }, (_, k) => field.from - k).map(
              (i) => {
                const v = bitAt(i);
                const aria = `${label} ${field.name} bit ${i}`;
                if (!onChange) {
                  return (
                    <span key={i} className={`bit v${v}`} aria-label={`${aria}: ${v}`} role="img">
                      {v}
                    </span>
                  );
                }
                return (
                  <button
                    key={i}
                    type="button"
                    className={`bit v${v}`}
                    data-bit={i}
                    tabIndex={i === width - 1 ? 0 : -1}
                    aria-pressed={v === 1}
                    aria-label={aria}
                    onPointerDown={(e) => {
                      if (e.button !== 0) return;
                      (e.currentTarget as HTMLElement).releasePointerCapture?.(e.pointerId);
                      const value = v ? 0 : 1;
                      paint.current = { value, last: i, bits: painted(bits, i, i, value) };
                      setBit(i, value);
                      window.addEventListener('pointerup', stopPaint);
                    }}
                    onPointerEnter={() => {
                      const p = paint.current;
                      if (p === null || !onChange) return;
                      // A fast drag skips buttons: paint the whole run since the last one.
                      const next = painted(p.bits, p.last, i, p.value);
                      paint.current = { ...p, last: i, bits: next };
                      if (next !== p.bits) onChange(next);
                    }}
                    onClick={(e) => {
                      // Pointer presses toggle on pointerdown; this is the keyboard's Enter/Space.
                      if (e.detail === 0) setBit(i, v ? 0 : 1);
                    }}
                    onKeyDown={(e) => {
                      const move = { ArrowLeft: i + 1, ArrowRight: i - 1, Home: width - 1, End: 0 }[
                        e.key
                      ];
                      if (move !== undefined) {
                        e.preventDefault();
                        focusBit(move);
                      }
                    }}
                  >
                    {v}
                  </button>
                );
              },
            )}
          </div>
        </div>
      ))}
    </div>
  );
}
