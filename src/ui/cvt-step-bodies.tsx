import type { ReactNode } from 'react';
import type { Step } from '../engine/index.ts';
import type { CvtStep, ElementView } from '../engine/cvt-trace.ts';

/** A step of one cvt kind (the union narrowed by its `kind`). */
type CvtStepOf<K extends CvtStep['kind']> = Step & { readonly kind: K };

const val = (e: ElementView) => (
  <>
    <code>{e.bits}</code> ({e.value.decimal}, .{e.format})
  </>
);
const maybe = (e: ElementView | null, none: string) => (e ? val(e) : none);
const bits = (r: { hi: number; lo: number }) => `[${r.hi}:${r.lo}]`;

/** How each cvt step reads in the trace (PTX ISA 9.7.9.21). */
export const CVT_STEP_BODIES: {
  readonly [K in CvtStep['kind']]: (step: CvtStepOf<K>) => ReactNode;
} = {
  'cvt-source': (step) => (
    <p>
      <strong>Source</strong> {step.operand}
      {bits(step.valueBits)} = {val(step.input)}
      {step.padding !== null ? ` — padding ${step.padding}` : ''}
    </p>
  ),
  'cvt-flush-input': (step) => (
    <p>
      <strong>Flush input</strong>: {val(step.before)} → {val(step.after)}
    </p>
  ),
  'cvt-special': (step) => (
    <p>
      <strong>Special case ({step.case})</strong>: {maybe(step.result, 'no such value here')}
    </p>
  ),
  'cvt-exact': (step) => (
    <p>
      <strong>Exact value</strong> <span className="mono">{step.value.decimal}</span>
      {step.representable ? ' (representable)' : ''}
    </p>
  ),
  'cvt-round': (step) => (
    <p>
      <strong>
        Round to .{step.format} (.{step.mode})
      </strong>
      {step.cut ? (
        <>
          : kept <span className="mono">{step.cut.kept}</span> G={step.cut.guard} R=
          {step.cut.round} S={step.cut.sticky}
        </>
      ) : (
        ': beyond the largest finite value'
      )}
      {step.random
        ? ` — random ${step.random.bits} + discarded ${step.random.discarded} = ${step.random.sum}, carry ${step.random.carry}`
        : ''}{' '}
      → {step.result ?? 'past MAX_NORM'} ({step.reason})
    </p>
  ),
  'cvt-overflow': (step) => (
    <p>
      <strong>Overflow</strong> → {step.to}: {val(step.result)}
    </p>
  ),
  'cvt-unsigned': (step) => (
    <p>
      <strong>ue8m0</strong>:{' '}
      {step.what === 'drop-sign' ? 'the sign is dropped' : 'the least value is 2^-127'}{' '}
      {step.result ? val(step.result) : null}
    </p>
  ),
  'cvt-flush-result': (step) => (
    <p>
      <strong>Flush tiny result</strong>: {val(step.before)} → {val(step.after)}
    </p>
  ),
  'cvt-satfinite': (step) => (
    <p>
      <strong>.satfinite ({step.case})</strong>:{' '}
      {maybe(step.before, step.case === 'nan' ? 'NaN' : 'past MAX_NORM')} → {val(step.after)}
    </p>
  ),
  'cvt-sat': (step) => (
    <p>
      <strong>.sat</strong>: {val(step.before)} → {val(step.after)}
    </p>
  ),
  'cvt-relu': (step) => (
    <p>
      <strong>.relu</strong>: {val(step.before)} → {val(step.after)}
    </p>
  ),
  'cvt-pack': (step) => (
    <p>
      <strong>Write d{bits(step.slot)}</strong> = <code>{step.slotBitsHex}</code> (
      {val(step.result)})
    </p>
  ),
};
