import { memo, type ReactNode } from 'react';
import type { FormatName } from '../catalog/index.ts';
import {
  decision,
  exactValueOfBits,
  FORMATS,
  shortestDecimal,
  type DecisionId,
  type EvalResult,
  type Step,
} from '../engine/index.ts';
import { useForm } from '../state/store.ts';
import { formatBits } from '../state/url-codec.ts';
import { NumberLine } from './NumberLine.tsx';
import { CVT_STEP_BODIES } from './cvt-step-bodies.tsx';

const v = (bits: number, format: FormatName) =>
  `${formatBits(bits, FORMATS[format].width)} (${shortestDecimal(bits, FORMATS[format])})`;

/** The trace: per lane, an ordered list of steps, each with its spec rule and any decision. */
export const Steps = memo(function Steps({ result }: { result: EvalResult }) {
  return (
    <section className="panel steps" aria-label="How the result was computed" data-testid="steps">
      <h3>Steps</h3>
      <div className="lane-traces">
        {result.lanes.map((lane) => (
          <div key={lane.lane} className="lane-trace">
            {result.lanes.length > 1 && <h4>Lane {lane.lane}</h4>}
            <ol>
              {lane.steps.map((step, i) => (
                <li key={i} className={`step step-${step.kind}`} data-kind={step.kind}>
                  <StepBody step={step} />
                  <StepRule step={step} />
                </li>
              ))}
            </ol>
          </div>
        ))}
      </div>
      {result.decisions.length > 0 && (
        <div className="decisions">
          <h4>Documented interpretations this result relies on</h4>
          <ul>
            {result.decisions.map((id) => (
              <li key={id} id={`decision-${id}`}>
                <DecisionNote id={id} />
              </li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
});

function DecisionNote({ id }: { id: DecisionId }) {
  const d = decision(id);
  return (
    <>
      <strong>{d.title}.</strong> <span className="muted">Spec: {d.spec}</span> Engine: {d.decision}
    </>
  );
}

function StepRule({ step }: { step: Step }) {
  const form = useForm();
  return (
    <p className="rule">
      <a href={form.record.anchor} target="_blank" rel="noreferrer">
        §{step.rule.section}
      </a>{' '}
      <span className="muted">{step.rule.text}</span>
      {step.decision && (
        <>
          {' '}
          <a className="decision-link" href={`#decision-${step.decision}`}>
            interpretation: {decision(step.decision).title}
          </a>
        </>
      )}
    </p>
  );
}

/** A step of one kind (the union narrowed by its `kind`). */
type StepOf<K extends Step['kind']> = Step & { readonly kind: K };

/**
 * How each kind of step reads. Every kind of Step (engine/trace.ts) must have its entry: a new
 * kind without one is a compile error here.
 */
const STEP_BODIES: { readonly [K in Step['kind']]: (step: StepOf<K>) => ReactNode } = {
  ...CVT_STEP_BODIES,
  inputs: (step) => (
    <div>
      <strong>Inputs</strong>
      <ul className="inputs">
        {step.operands.map((o) => (
          <li key={o.name}>
            <code>{o.name}</code> = {v(o.bits, o.format)} — {o.class}; exact{' '}
            <span className="mono">{o.value.binary}</span>
          </li>
        ))}
      </ul>
    </div>
  ),
  'flush-input': (step) => (
    <p>
      <strong>Flush input {step.operand}</strong>: subnormal {v(step.before, step.format)} →{' '}
      {v(step.after, step.format)}
    </p>
  ),
  convert: (step) => (
    <p>
      <strong>Convert {step.operand}</strong> exactly from .{step.format} to .{step.to}:{' '}
      {v(step.before, step.format)} → {v(step.after, step.to)}
    </p>
  ),
  'oob-check': (step) => (
    <p>
      <strong>OOB check</strong>: {oobCheckText(step.oobOperands, step.forcesZero, step.pattern)}
    </p>
  ),
  special: (step) => (
    <p>
      <strong>Special case ({step.case.replace('-', ' ')})</strong>: result{' '}
      {v(step.result, step.format)}
      {step.detail ? ` — ${step.detail}` : ''}
    </p>
  ),
  exact: (step) => (
    <p>
      <strong>Exact value</strong> of <code>{step.expression}</code> ={' '}
      <span className="mono">{step.value.binary}</span>
      <br />
      <span className="mono exact">= {step.value.decimal}</span>
    </p>
  ),
  round: (step) => (
    <div>
      <strong>Round</strong> to .{step.format} with .{step.mode}: {describeRound(step)}
      <p
        className="mono grs"
        aria-label={`kept bits ${step.kept}, guard ${step.guard}, round ${step.round}, sticky ${step.sticky}`}
      >
        <span className="kept">{step.kept}</span>
        <span className="g" title="guard bit">
          {step.guard}
        </span>
        <span className="r" title="round bit">
          {step.round}
        </span>
        <span className="s" title="sticky bit (OR of all lower bits)">
          {step.sticky}
        </span>{' '}
        <span className="grs-legend">kept | G R S (ulp = 2^{step.ulpExponent})</span>
      </p>
      <NumberLine step={step} />
    </div>
  ),
  overflow: (step) => (
    <p>
      <strong>Overflow</strong>: with .{step.mode} the result becomes{' '}
      {step.to === 'infinity' ? 'infinity' : 'the largest finite value'}{' '}
      {v(step.result, step.format)}
    </p>
  ),
  underflow: (step) => (
    <p>
      <strong>Underflow</strong>: tiny {step.tinyBeforeRounding ? 'before' : 'not before'} rounding,{' '}
      {step.tinyAfterRounding ? 'tiny' : 'not tiny'} after; result {v(step.result, step.format)}
    </p>
  ),
  'flush-result': (step) => (
    <ChangeLine
      title={
        step.tininess
          ? `Flush tiny result (.ftz, tininess ${step.tininess.replace('-', ' ')}: before ${step.tinyBeforeRounding ? 'tiny' : 'not tiny'}, after ${step.tinyAfterRounding ? 'tiny' : 'not tiny'})`
          : 'Flush subnormal result (.ftz)'
      }
      step={step}
    />
  ),
  saturate: (step) => <ChangeLine title="Saturate (.sat) to [+0, 1]" step={step} />,
  relu: (step) => <ChangeLine title="ReLU (.relu)" step={step} />,
  negate: (step) => <ChangeLine title="Negate" step={step} />,
  absolute: (step) => <ChangeLine title="Absolute value" step={step} />,
  'abs-inputs': (step) => <ChangeLine title={`|${step.operand}| (.abs)`} step={step} />,
  xorsign: (step) => (
    <ChangeLine title={`Set sign to sign(a) XOR sign(b) = ${step.sign} (.xorsign)`} step={step} />
  ),
  minmax: (step) => (
    <p>
      <strong>
        {step.op}({v(step.a, step.format)}, {v(step.b, step.format)})
      </strong>
      : {MINMAX_BRANCH[step.branch]} → {v(step.result, step.format)}
    </p>
  ),
  approx: (step) => (
    <div>
      <p>
        <strong>{step.fn}.approx</strong> of {v(step.input, step.format)}: exact {step.fn}(x) ≈{' '}
        <span className="mono">{step.mathValue}</span>; the{' '}
        {step.model === 'measured'
          ? `table measured on ${step.measuredOn}`
          : 'model (correctly rounded)'}{' '}
        gives {v(step.result, step.format)}.
      </p>
      {step.allowed.count === 0 ? (
        <p>
          The spec allows {step.bound.kind} error ≤ 2^{step.bound.log2}, which no {step.format}{' '}
          value meets here: the exact value is below the smallest normal, where {step.format} has
          fewer significant bits than the bound asks for.
        </p>
      ) : (
        <p>
          The spec allows {step.bound.kind} error ≤ 2^{step.bound.log2}:{' '}
          {step.allowed.count === 1
            ? 'one representable value qualifies, '
            : `${step.allowed.count} representable values qualify, from `}
          <span className="mono">{v(step.allowed.lowest, step.format)}</span>
          {step.allowed.count === 1 ? null : (
            <>
              {' '}
              to <span className="mono">{v(step.allowed.highest, step.format)}</span>
            </>
          )}
          {step.allowed.overflows
            ? ' (the infinity too: the exact value overflows the format)'
            : ''}
          ; hardware may return {step.allowed.count === 1 ? 'only that one' : 'any of them'}.
        </p>
      )}
    </div>
  ),
  result: (step) => (
    <p>
      <strong>Result</strong> {v(step.bits, step.format)}
      {step.value.kind === 'finite' ? (
        <>
          {' '}
          ={' '}
          <span className="mono exact">
            {exactValueOfBits(step.bits, FORMATS[step.format]).decimal}
          </span>
        </>
      ) : null}
    </p>
  ),
};

function StepBody({ step }: { step: Step }) {
  // Indexing by the step's own kind picks the renderer of that kind; TypeScript cannot follow
  // the correlation through the union, hence the widening.
  const render = STEP_BODIES[step.kind] as (step: Step) => ReactNode;
  return render(step);
}

const MINMAX_BRANCH: Record<StepOf<'minmax'>['branch'], string> = {
  'both-nan': 'both inputs are NaN → NaN',
  'nan-modifier': '.NaN and an input is NaN → canonical NaN',
  'a-nan': 'a is NaN → the result is b',
  'b-nan': 'b is NaN → the result is a',
  compare: 'compared (−0 < +0)',
};

function ChangeLine({
  title,
  step,
}: {
  title: string;
  step: { format: FormatName; before: number; after: number };
}) {
  return (
    <p>
      <strong>{title}</strong>: {v(step.before, step.format)} → {v(step.after, step.format)}
      {step.before === step.after ? ' (unchanged)' : ''}
    </p>
  );
}

function describeRound(step: StepOf<'round'>): string {
  const reason: Record<(typeof step)['reason'], string> = {
    exact: 'the value is representable, nothing to round',
    'below-half': 'the dropped part is below half an ulp → round down to the smaller magnitude',
    'above-half': 'the dropped part is above half an ulp → round up to the larger magnitude',
    'tie-to-even': 'exactly half an ulp → ties to even',
    'toward-zero': 'toward zero: drop the extra bits',
    'toward-plus-inf': 'toward +∞',
    'toward-minus-inf': 'toward −∞',
  };
  // Below/above half already say which way the magnitude went; the others say where the value went.
  const saysDirection = step.reason === 'below-half' || step.reason === 'above-half';
  const dir = step.direction === 'exact' || saysDirection ? '' : ` (rounded ${step.direction})`;
  return `${reason[step.reason]}${dir}${step.subnormal ? '; the result is subnormal' : ''}${step.inexact ? '; inexact' : ''}.`;
}

function oobCheckText(operands: readonly string[], forcesZero: boolean, pattern: number): string {
  const hex = `0x${(pattern & 0x7fff).toString(16).toUpperCase()}`;
  if (operands.length === 0) return `no operand holds the OOB-NaN pattern ${hex}`;
  const which = `${operands.join(', ')} ${operands.length === 1 ? 'holds' : 'hold'} the OOB-NaN pattern ${hex}`;
  return forcesZero
    ? `${which} → the lane result is +0.0`
    : `${which}; only a and b are tested, so c is an ordinary NaN here`;
}
