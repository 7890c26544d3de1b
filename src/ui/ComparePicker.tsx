import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { findForm } from '../catalog/index.ts';
import { parseVariant, quickVariants, variantText } from '../engine/what-if/compare.ts';
import { unfusedPlan } from '../engine/what-if/unfused.ts';
import { useForm, useStore } from '../state/store.ts';
import { FormPickers } from './InstructionPicker.tsx';
import './compare.css';

/**
 * What if: choose B, evaluated on the same operand values as the instruction (A). One click for
 * the usual questions (another rounding mode, .ftz, f16 ↔ bf16, the mixed form, an fma's
 * mul-then-add), or any form by typing it or with the same pickers as A's.
 */
export function ComparePicker() {
  const form = useForm();
  const vs = useStore((s) => s.vs);
  const setVs = useStore((s) => s.setVs);
  const quick = useMemo(() => quickVariants(form), [form]);
  const bForm = vs !== null && vs !== 'unfused' ? findForm(vs) : undefined;
  const ids = useId();
  // An fma whose unfused sequence does not exist says so instead of offering it.
  const plan = form.opcode === 'fma' ? unfusedPlan(form) : null;
  return (
    <section
      className="panel compare-picker"
      aria-labelledby={`${ids}-h`}
      data-testid="compare-picker"
    >
      <h2 id={`${ids}-h`}>Compare with B (what if…)</h2>
      <p className="muted picker-legend">
        B runs on the same operand values as {vs === null ? 'the instruction' : 'A'}, carried over
        by value into its formats.
      </p>
      {quick.length > 0 && (
        <div className="quick-variants" role="group" aria-label="Quick variants">
          {quick.map((q) => (
            <button
              key={q.variant}
              type="button"
              aria-pressed={vs === q.variant}
              title={q.variant === 'unfused' ? undefined : q.variant}
              data-testid={`vs-quick-${q.variant}`}
              onClick={() => setVs(vs === q.variant ? null : q.variant)}
            >
              {q.label}
            </button>
          ))}
        </div>
      )}
      {plan && !plan.ok && (
        <p className="note" data-testid="unfused-refused">
          No unfused variant: {plan.reason}.
        </p>
      )}
      <VariantText />
      {bForm && <FormPickers form={bForm} onPick={setVs} labelPrefix="B " />}
      {vs !== null && (
        <button type="button" data-testid="vs-stop" onClick={() => setVs(null)}>
          Stop comparing
        </button>
      )}
    </section>
  );
}

/** B typed: an instruction (any spelling the parser reads) or `unfused`. */
function VariantText() {
  const vs = useStore((s) => s.vs);
  const setVs = useStore((s) => s.setVs);
  const [draft, setDraft] = useState(vs ?? '');
  const id = useId();
  // One history entry per typing session, as for the instruction's own field.
  const typedSinceFocus = useRef(false);
  // Follow picks made elsewhere, unless the draft already says the same variant.
  useEffect(() => {
    setDraft((d) => {
      const parsed = parseVariant(d);
      return !('error' in parsed) && variantText(parsed) === vs ? d : (vs ?? '');
    });
  }, [vs]);
  const parsed = draft.trim() === '' ? null : parseVariant(draft);
  const error = parsed && 'error' in parsed ? parsed.error : null;
  return (
    <div className="instr-text">
      <label htmlFor={id}>B: type an instruction, or unfused</label>
      <input
        id={id}
        className="mono"
        spellCheck={false}
        autoComplete="off"
        placeholder="e.g. fma.rn.bf16 or unfused"
        value={draft}
        aria-invalid={error !== null}
        aria-describedby={error ? `${id}-err` : undefined}
        data-testid="vs-text"
        onChange={(e) => {
          setDraft(e.target.value);
          const p = parseVariant(e.target.value);
          if (!('error' in p) && variantText(p) !== vs) {
            setVs(variantText(p), typedSinceFocus.current ? 'replace' : 'push');
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
