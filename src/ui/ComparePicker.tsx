import { useCallback, useId, useMemo } from 'react';
import { findForm } from '../catalog/all-forms.ts';
import { quickVariants } from '../engine/what-if/quick-variants.ts';
import { unfusedPlan } from '../engine/what-if/unfused-sequence.ts';
import { quickVariantLabel, refusalText } from '../present/compare-text.ts';
import { useStore } from '../state/store.ts';
import { useForm } from '../state/form.ts';
import { variantFor } from '../state/variant.ts';
import { FormPickers } from './InstructionPicker.tsx';
import { QuickVariants, StopComparing, VariantText } from './VariantControls.tsx';
import './compare.css';
import { setVs } from '../state/edits.ts';

/**
 * What if: choose B, run on the same values as the instruction (A), carried over by value into
 * B's formats. One click for the usual questions (another rounding, .ftz, f16 ↔ bf16, the mixed
 * form, an fma's mul-then-add; a conversion into each other format, .satfinite and .relu), or
 * any form of the catalog — a cvt beside an add too — by typing it or with the same pickers as
 * A's.
 */
export function ComparePicker() {
  const form = useForm();
  const vs = useStore((s) => s.vs);
  const quick = useMemo(
    () =>
      quickVariants(form).map((q) => ({ variant: q.variant, label: quickVariantLabel(q.change) })),
    [form],
  );
  const bForm = vs !== null && vs !== 'unfused' ? findForm(vs) : undefined;
  const ids = useId();
  // An fma whose unfused sequence does not exist says so instead of offering it.
  const plan = form.operation === 'fma' ? unfusedPlan(form) : null;
  const conversion = form.operation === 'convert';
  // No unfused sequence for a conversion or a tensor core: B is typed or picked.
  const formsOnly = conversion || form.matrix !== undefined;
  const read = useCallback((text: string) => variantFor(form.text, text), [form]);
  return (
    <section
      className="panel compare-picker"
      aria-labelledby={`${ids}-h`}
      data-testid="compare-picker"
    >
      <h2 id={`${ids}-h`}>Compare with B (what if…)</h2>
      <p className="muted picker-legend">
        B runs on the same values as {vs === null ? 'the instruction' : 'A'}, carried over by value
        into its formats.
      </p>
      <QuickVariants quick={quick} />
      {plan && !plan.ok && (
        <p className="note" data-testid="unfused-refused">
          No unfused variant: {refusalText(plan.refusal)}.
        </p>
      )}
      <VariantText
        read={read}
        label={formsOnly ? 'B: type an instruction' : 'B: type an instruction, or unfused'}
        placeholder={
          form.matrix
            ? `e.g. ${quick[0]?.variant ?? form.text}`
            : conversion
              ? 'e.g. cvt.rn.satfinite.e5m2x2.f32'
              : 'e.g. fma.rn.bf16 or unfused'
        }
      />
      {bForm && <FormPickers form={bForm} onPick={setVs} labelPrefix="B " />}
      <StopComparing />
    </section>
  );
}
