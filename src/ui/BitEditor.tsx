import { memo, useLayoutEffect, useMemo, useRef } from 'react';
import type { FormatName } from '../catalog/index.ts';
import { DEFAULT_ENGINE_OPTIONS, FORMATS, nextDown, nextUp, parseValue } from '../engine/index.ts';
import { laneOf, laneReadout, quickPicks, withLane } from '../state/bit-view.ts';
import { formatBits, parseBinaryBits, parseHexBits } from '../state/url-codec.ts';
import { CommitField } from './CommitField.tsx';

export interface BitEditorProps {
  /** Operand name: a, b, c, or d for the result. */
  name: string;
  title: string;
  register: number;
  width: 16 | 32;
  lanes: 1 | 2;
  format: FormatName;
  /** Absent for the result: then the editor is read-only. */
  onChange?: (register: number) => void;
  /**
   * OOB-NaN marks per lane: when the form has .oob (`applies`), or when a lane is marked anyway
   * (a link or an earlier form), so that the mark, which changes the result, can be seen and
   * cleared.
   */
  oob?: {
    marks: readonly [boolean, boolean];
    toggle: (lane: 0 | 1, on: boolean) => void;
    applies: boolean;
  };
}

/** One register: its hex and binary, then per lane the sign/exponent/mantissa fields and readouts. */
export const BitEditor = memo(function BitEditor(props: BitEditorProps) {
  const { name, title, register, width, lanes, format, onChange, oob } = props;
  // Lane editors get a setter that does not change with the register, so an edit in one lane
  // leaves the other lane's (memoized) editor alone; it reads the register as of the last commit.
  const registerNow = useRef(register);
  useLayoutEffect(() => {
    registerNow.current = register;
  });
  const setLaneBits = useMemo(
    () =>
      onChange
        ? (lane: 0 | 1, bits: number) => onChange(withLane(registerNow.current, lanes, lane, bits))
        : undefined,
    [onChange, lanes],
  );
  const hex = formatBits(register, width);
  const bin = register.toString(2).padStart(width, '0');
  const parserOf = (parse: typeof parseHexBits) => (text: string) => {
    const r = parse(text, width);
    return typeof r === 'number'
      ? { ok: true as const, bits: r }
      : { ok: false as const, message: r };
  };
  const laneOrder = lanes === 2 ? [1, 0] : [0];
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
              parse={parserOf(parseHexBits)}
              onCommit={onChange}
              testId={`${name}-hex`}
            />
            <CommitField
              label={`${name} binary`}
              value={`0b${bin}`}
              parse={parserOf(parseBinaryBits)}
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
            bits={laneOf(register, lanes, i as 0 | 1)}
            lanes={lanes}
            format={format}
            lane={i as 0 | 1}
            setLaneBits={setLaneBits}
            oobMarked={oob ? oob.marks[i as 0 | 1] : undefined}
            toggleOob={oob?.toggle}
            oobApplies={oob?.applies ?? false}
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
  oobMarked,
  toggleOob,
  oobApplies,
}: {
  name: string;
  bits: number;
  lanes: 1 | 2;
  format: FormatName;
  lane: 0 | 1;
  /** Absent for the result (read-only). */
  setLaneBits: ((lane: 0 | 1, bits: number) => void) | undefined;
  /** Undefined when the form has no .oob. */
  oobMarked: boolean | undefined;
  /** The form has .oob (otherwise a mark only makes the lane the OOB-NaN pattern). */
  oobApplies: boolean;
  toggleOob: ((lane: 0 | 1, on: boolean) => void) | undefined;
}) {
  const f = FORMATS[format];
  const setLane = setLaneBits ? (b: number) => setLaneBits(lane, b) : undefined;
  const marked = oobMarked ?? false;
  // A marked lane is read as the OOB-NaN pattern, whatever its bits: the readouts say what the
  // engine reads; the bit fields keep the register's own bits for when the mark is cleared.
  const oobBits = DEFAULT_ENGINE_OPTIONS.oobNanBits;
  const own = laneReadout(bits, format);
  const r = marked ? laneReadout(oobBits, format) : own;
  const prefix = lanes === 2 ? `${name} lane ${lane}` : name;
  const up = nextUp(bits, f);
  const down = nextDown(bits, f);
  return (
    <div className="lane" data-testid={`${name}-lane${lane}`}>
      {lanes === 2 && (
        <h4>
          Lane {lane} <span className="muted">(bits {lane === 1 ? '31:16' : '15:0'})</span>
        </h4>
      )}
      <BitFields label={prefix} bits={bits} format={format} onChange={setLane} />
      {setLane && (
        <div className="lane-controls">
          <CommitField
            label={`${prefix} value`}
            value={r.shortest}
            testId={`${name}-value${lane}`}
            parse={(text) => {
              const p = parseValue(text, f);
              return p.ok ? { ok: true, bits: p.bits } : { ok: false, message: p.error.message };
            }}
            onCommit={setLane}
          />
          <label className="field">
            Quick pick
            <select
              value=""
              data-testid={`${name}-pick${lane}`}
              onChange={(e) => {
                const pick = e.target.value;
                if (pick === 'oob') toggleOob?.(lane, true);
                else if (pick !== '') setLane(Number(pick));
              }}
            >
              <option value="">choose…</option>
              {quickPicks(format).map((p) => (
                <option key={p.name} value={p.bits}>
                  {p.name}
                </option>
              ))}
              {oobApplies && toggleOob && <option value="oob">OOB-NaN (marks the lane)</option>}
            </select>
          </label>
          <div className="step-buttons" role="group" aria-label={`${prefix}: step to a neighbour`}>
            <button
              type="button"
              onClick={() => setLane(down)}
              disabled={down === bits}
              title={down === bits ? noNeighbour(own.className, 'down') : undefined}
              aria-label={`${prefix}: next down`}
            >
              ▼ next down
            </button>
            <button
              type="button"
              onClick={() => setLane(up)}
              disabled={up === bits}
              title={up === bits ? noNeighbour(own.className, 'up') : undefined}
              aria-label={`${prefix}: next up`}
            >
              ▲ next up
            </button>
          </div>
          {oobMarked !== undefined && toggleOob && (
            <label className="oob">
              <input
                type="checkbox"
                checked={marked}
                onChange={(e) => toggleOob(lane, e.target.checked)}
              />
              OOB-NaN
            </label>
          )}
        </div>
      )}
      {marked && (
        <p className="note" data-testid={`${name}-oob-note${lane}`}>
          {oobApplies
            ? `Marked OOB-NaN: the lane is read as ${formatBits(oobBits, 16)}, a NaN that .oob recognises; the bits shown come back when the mark is cleared.`
            : `Marked OOB-NaN, but this form has no .oob: the lane is read as the OOB-NaN pattern ${formatBits(oobBits, 16)}, a plain NaN. Clear the mark to use the bits shown.`}
        </p>
      )}
      <dl className="readout">
        <div>
          <dt>class</dt>
          <dd data-testid={`${name}-class${lane}`}>
            {marked ? `OOB-NaN (marked; ${r.className})` : r.className}
          </dd>
        </div>
        <div>
          <dt>value</dt>
          <dd className="mono" data-testid={`${name}-shortest${lane}`}>
            {r.shortest}
          </dd>
        </div>
        <div>
          <dt>exact</dt>
          <dd className="mono exact">{r.exact}</dd>
        </div>
        <div>
          <dt>exponent</dt>
          <dd className="mono">{r.exponent ?? '—'}</dd>
        </div>
        <div>
          <dt>significand</dt>
          <dd className="mono">{r.significand ?? '—'}</dd>
        </div>
      </dl>
    </div>
  );
});

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
