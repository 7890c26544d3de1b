import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { cvtQuickVariants, parseCvtVariant } from '../engine/what-if/cvt-compare.ts';
import { useCvtForm } from '../state/any-form.ts';
import { useStore } from '../state/store.ts';
import './compare.css';

/**
 * What if, for conversions: choose B, another cvt form, run on the same source values as A.
 * One click for the same conversion into each other destination format (e4m3 ↔ e5m2 ↔ e2m1 …),
 * each other rounding mode and .satfinite/.relu on or off; any cvt form by typing it.
 */
export function CvtComparePicker() {
  const form = useCvtForm();
  const vs = useStore((s) => s.vs);
  const setVs = useStore((s) => s.setVs);
  const quick = useMemo(() => (form ? cvtQuickVariants(form) : []), [form]);
  const ids = useId();
  if (!form) return null;
  return (
    <section
      className="panel compare-picker"
      aria-labelledby={`${ids}-h`}
      data-testid="compare-picker"
    >
      <h2 id={`${ids}-h`}>Compare with B (what if…)</h2>
      <p className="muted picker-legend">
        B converts the same source values as {vs === null ? 'the instruction' : 'A'}, carried over
        by value into its source format.
      </p>
      {quick.length > 0 && (
        <div className="quick-variants" role="group" aria-label="Quick variants">
          {quick.map((q) => (
            <button
              key={q.variant}
              type="button"
              aria-pressed={vs === q.variant}
              title={q.variant}
              data-testid={`vs-quick-${q.variant}`}
              onClick={() => setVs(vs === q.variant ? null : q.variant)}
            >
              {q.label}
            </button>
          ))}
        </div>
      )}
      <CvtVariantText />
      {vs !== null && (
        <button type="button" data-testid="vs-stop" onClick={() => setVs(null)}>
          Stop comparing
        </button>
      )}
    </section>
  );
}

/** B typed: a cvt form (any spelling the parser reads). */
function CvtVariantText() {
  const vs = useStore((s) => s.vs);
  const setVs = useStore((s) => s.setVs);
  const [draft, setDraft] = useState(vs ?? '');
  const id = useId();
  const typedSinceFocus = useRef(false);
  useEffect(() => {
    setDraft((d) => {
      const parsed = parseCvtVariant(d);
      return !('error' in parsed) && parsed.form.text === vs ? d : (vs ?? '');
    });
  }, [vs]);
  const parsed = draft.trim() === '' ? null : parseCvtVariant(draft);
  const error = parsed && 'error' in parsed ? parsed.error : null;
  return (
    <div className="instr-text">
      <label htmlFor={id}>B: type a cvt form</label>
      <input
        id={id}
        className="mono"
        spellCheck={false}
        autoComplete="off"
        placeholder="e.g. cvt.rn.satfinite.e5m2x2.f32"
        value={draft}
        aria-invalid={error !== null}
        aria-describedby={error ? `${id}-err` : undefined}
        data-testid="vs-text"
        onChange={(e) => {
          setDraft(e.target.value);
          const p = parseCvtVariant(e.target.value);
          if (!('error' in p) && p.form.text !== vs) {
            setVs(p.form.text, typedSinceFocus.current ? 'replace' : 'push');
            typedSinceFocus.current = true;
          }
        }}
        onFocus={() => {
          typedSinceFocus.current = false;
        }}
      />
      {error && (
        <p id={`${id}-err`} className="field-error" role="alert" data-testid="vs-error">
          {error}
          {vs !== null ? '; still comparing with ' : ''}
          {vs !== null && <code>{vs}</code>}
        </p>
      )}
    </div>
  );
}
