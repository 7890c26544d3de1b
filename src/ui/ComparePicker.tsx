import { useId, useMemo } from 'react';
import { findForm } from '../catalog/index.ts';
import { parseVariant, quickVariants, variantText } from '../engine/what-if/compare.ts';
import { unfusedPlan } from '../engine/what-if/unfused.ts';
import { useForm, useStore } from '../state/store.ts';
import { FormPickers } from './InstructionPicker.tsx';
import { QuickVariants, StopComparing, VariantText } from './VariantControls.tsx';
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
      <QuickVariants quick={quick} />
      {plan && !plan.ok && (
        <p className="note" data-testid="unfused-refused">
          No unfused variant: {plan.reason}.
        </p>
      )}
      <VariantText
        read={readVariant}
        label="B: type an instruction, or unfused"
        placeholder="e.g. fma.rn.bf16 or unfused"
      />
      {bForm && <FormPickers form={bForm} onPick={setVs} labelPrefix="B " />}
      <StopComparing />
    </section>
  );
}

/** B typed: an instruction (any spelling the parser reads) or `unfused`, as its canonical text. */
function readVariant(text: string): { vs: string } | { error: string } {
  const parsed = parseVariant(text);
  return 'error' in parsed ? parsed : { vs: variantText(parsed) };
}
