import { useId, useMemo } from 'react';
import { cvtQuickVariants, parseCvtVariant } from '../engine/what-if/cvt-compare.ts';
import { useCvtForm } from '../state/any-form.ts';
import { useStore } from '../state/store.ts';
import { QuickVariants, StopComparing, VariantText } from './VariantControls.tsx';
import './compare.css';

/**
 * What if, for conversions: choose B, another cvt form, run on the same source values as A.
 * One click for the same conversion into each other destination format (e4m3 ↔ e5m2 ↔ e2m1 …),
 * each other rounding mode and .satfinite/.relu on or off; any cvt form by typing it.
 */
export function CvtComparePicker() {
  const form = useCvtForm();
  const vs = useStore((s) => s.vs);
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
      <QuickVariants quick={quick} />
      <VariantText
        read={readCvtVariant}
        label="B: type a cvt form"
        placeholder="e.g. cvt.rn.satfinite.e5m2x2.f32"
      />
      <StopComparing />
    </section>
  );
}

/** B typed: a cvt form (any spelling the parser reads), as its canonical text. */
function readCvtVariant(text: string): { vs: string } | { error: string } {
  const parsed = parseCvtVariant(text);
  return 'error' in parsed ? parsed : { vs: parsed.form.text };
}
