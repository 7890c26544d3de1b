import { memo, type ReactNode } from 'react';
import type { FormatName } from '../catalog/index.ts';
import {
  exactValueOfBits,
  FORMATS,
  readableDecimal,
  shortestDecimal,
  type ApproxEmptyReason,
  type EvalResult,
  type ExactValue,
  type RoundStep,
  type Step,
} from '../engine/index.ts';
import { laneBits } from '../state/bit-view.ts';
import { useForm } from '../state/store.ts';
import { formatBits } from '../state/url-codec.ts';
import { NumberLine } from './NumberLine.tsx';
import { Term } from './Term.tsx';
import { CVT_STEP_BODIES } from './cvt-step-bodies.tsx';
import { StepsFrame } from './StepsFrame.tsx';

const v = (bits: number, format: FormatName) =>
  `${formatBits(bits, FORMATS[format].width)} (${shortestDecimal(bits, FORMATS[format])})`;

/**
 * The trace: per lane, an ordered list of steps, each with its spec rule and any decision. A
 * second trace on the page (compare mode's B) takes its own `anchors` prefix and test id.
 */
export const Steps = memo(function Steps({
  result,
  label = 'How the result was computed',
  testId = 'steps',
  anchors = 'decision-',
}: {
  result: EvalResult;
  label?: string;
  testId?: string;
  anchors?: string;
}) {
  const form = useForm();
  return (
    <StepsFrame
      label={label}
      testId={testId}
      anchors={anchors}
      record={form.record}
      decisions={result.decisions}
      traces={result.lanes.map((lane) => ({
        key: lane.lane,
        heading: (
          <h4>
            Lane {lane.lane} <span className="muted">({laneBits(lane.lane)})</span>
          </h4>
        ),
        steps: lane.steps,
      }))}
      body={(step) => <StepBody step={step} />}
    />
  );
});

/**
 * An exact decimal: as it is when short; otherwise its first digits, with every digit one
 * click away.
 */
function Decimal({ decimal }: { decimal: string }) {
  const readable = readableDecimal(decimal);
  if (!readable.shortened) return <span className="mono exact">{decimal}</span>;
  return (
    <details className="long-decimal">
      <summary>
        <span className="mono exact">{readable.text}</span>{' '}
        <span className="muted">(all {readable.digits} digits)</span>
      </summary>
      <span className="mono exact all-digits">{decimal}</span>
    </details>
  );
}

/** The exact value in binary and, when that says something more, in decimal. */
function ExactNumber({ value }: { value: ExactValue }) {
  if (value.kind !== 'finite') return <span className="mono">{value.decimal}</span>;
  return (
    <>
      <span className="mono">{value.binary}</span>
      {value.decimal !== value.binary && (
        <>
          {' '}
          = <Decimal decimal={value.decimal} />
        </>
      )}
    </>
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
  convert: (step) =>
    step.exact ? (
      <p>
        <strong>Convert {step.operand}</strong> exactly from .{step.format} to .{step.to}:{' '}
        {v(step.before, step.format)} → {v(step.after, step.to)}
      </p>
    ) : (
      <p>
        <strong>Convert {step.operand}</strong> from .{step.format} to .{step.to}: the NaN{' '}
        {v(step.before, step.format)} becomes the <Term id="canonical-nan">canonical NaN</Term>{' '}
        {v(step.after, step.to)}; its payload is not kept.
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
    <div>
      <strong>Exact value</strong> of <code>{step.expression}</code> ={' '}
      <ExactNumber value={step.value} />
    </div>
  ),
  round: (step) => (
    <div>
      <strong>Round</strong> to .{step.format} with .{step.mode}: {describeRound(step)}
      {step.cut ? (
        <p
          className="mono grs"
          aria-label={`kept bits ${step.cut.kept}, guard ${step.cut.guard}, round ${step.cut.round}, sticky ${step.cut.sticky}`}
        >
          <span className="kept">{step.cut.kept}</span>
          <span className="g" title="guard bit">
            {step.cut.guard}
          </span>
          <span className="r" title="round bit">
            {step.cut.round}
          </span>
          <span className="s" title="sticky bit (OR of all lower bits)">
            {step.cut.sticky}
          </span>{' '}
          <span className="grs-legend">
            kept | <Term id="grs">G R S</Term> (<Term id="ulp">ulp</Term> = 2^{step.cut.ulpExponent}
            )
          </span>
        </p>
      ) : (
        <p className="beyond-range">
          The exact value is at least 2^{FORMATS[step.format].emax + 1}: .{step.format} has no
          exponent for it, so there are no kept bits to show; it lies past the largest finite value{' '}
          {v(FORMATS[step.format].maxBits, step.format)}.
        </p>
      )}
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
  tininess: (step) => (
    <p>
      <strong>Tiny result</strong>: |exact| &lt; 2^{FORMATS[step.format].emin}, the smallest normal.
      Tiny before rounding: {step.tinyBeforeRounding ? 'yes' : 'no'}; after rounding (to{' '}
      {FORMATS[step.format].manBits + 1} significant bits with an unbounded exponent):{' '}
      {step.tinyAfterRounding ? 'yes' : 'no'}. {underflowWords(step)} Result{' '}
      {v(step.result, step.format)}.
    </p>
  ),
  'flush-result': (step) => <ChangeLine title={flushResultTitle(step)} step={step} />,
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
      : {minMaxWords(step)} → {v(step.result, step.format)}
    </p>
  ),
  approx: (step) => (
    <div>
      <p>
        <strong>{step.fn}.approx</strong> of {v(step.input, step.format)}: exact {step.fn}(x){' '}
        {step.mathValue.startsWith('2^') ? '=' : '≈'} <span className="mono">{step.mathValue}</span>
        ; the{' '}
        {step.model === 'measured'
          ? `table measured on ${step.measuredOn}`
          : 'model (correctly rounded)'}{' '}
        gives {v(step.result, step.format)}.
      </p>
      {step.allowed.count === 0 ? (
        <p>
          The spec allows {step.bound.kind} error ≤ 2^{step.bound.log2}, which no {step.format}{' '}
          value meets here: {EMPTY_WORDS[step.allowed.emptyBecause!](step.format)}.
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
            ? ' (the infinity too: the exact value rounds past the largest finite value)'
            : ''}
          ; hardware may return {step.allowed.count === 1 ? 'only that one' : 'any of them'}.
        </p>
      )}
    </div>
  ),
  result: (step) => {
    // The exact decimal, where the short one beside the bits does not already say it all.
    const exact = exactValueOfBits(step.bits, FORMATS[step.format]).decimal;
    const same = exact === shortestDecimal(step.bits, FORMATS[step.format]);
    return (
      <p>
        <strong>Result</strong> {v(step.bits, step.format)}
        {step.value.kind === 'finite' && !same ? (
          <>
            {' '}
            = <Decimal decimal={exact} />
          </>
        ) : null}
      </p>
    );
  },
};

function StepBody({ step }: { step: Step }) {
  // Indexing by the step's own kind picks the renderer of that kind; TypeScript cannot follow
  // the correlation through the union, hence the widening.
  const render = STEP_BODIES[step.kind] as (step: Step) => ReactNode;
  return render(step);
}

const ORDER_SIGN = { less: '<', equal: '=', greater: '>' } as const;

/** What min/max compared and why the operand it returned won. */
function minMaxWords(step: StepOf<'minmax'>): string {
  switch (step.branch) {
    case 'both-nan':
      return 'both inputs are NaN → NaN';
    case 'nan-modifier':
      return '.NaN and an input is NaN → canonical NaN';
    case 'a-nan':
      return 'a is NaN → the result is b';
    case 'b-nan':
      return 'b is NaN → the result is a';
    case 'compare': {
      const { order, signedZeros } = step.comparison!;
      const sign = ORDER_SIGN[order];
      const compared = signedZeros
        ? `a and b are zeros of different signs, equal in value; the spec orders −0 < +0: a ${sign} b`
        : `compared: a ${sign} b`;
      if (order === 'equal')
        return `${compared}; d = (a ${step.op === 'min' ? '<' : '>'} b) ? a : b takes b`;
      return `${compared}, so ${step.op} is ${step.chosen}`;
    }
  }
}

const EMPTY_WORDS: Record<ApproxEmptyReason, (format: string) => string> = {
  'subnormal-spacing': (format) =>
    `the exact value is below the smallest normal, where ${format} values are spaced wider than the bound`,
  'below-smallest-subnormal': (format) =>
    `the exact value is below the smallest ${format} subnormal, so every value, zero included, is further off than the bound`,
  'ftz-removes-subnormals': () =>
    'subnormal values would be within it, but .ftz writes no subnormal result',
};

function underflowWords(step: StepOf<'tininess'>): string {
  if (!step.inexact) return 'The result is exact: no underflow.';
  if (step.tinyAfterRounding) return 'Inexact: underflow, whichever way tininess is judged.';
  return 'Inexact: underflow if tininess is judged before rounding, none if after.';
}

function flushResultTitle(step: StepOf<'flush-result'>): string {
  if (!step.tininess) return 'Flush subnormal result (.ftz)';
  const after = step.tininess === 'after-rounding';
  const tiny = after ? step.tinyAfterRounding : step.tinyBeforeRounding;
  const other = after ? step.tinyBeforeRounding : step.tinyAfterRounding;
  const judged = `tininess judged ${after ? 'after' : 'before'} rounding: ${tiny ? 'tiny' : 'not tiny'} (${after ? 'before' : 'after'} rounding it is ${other ? 'tiny' : 'not tiny'})`;
  const action = !tiny
    ? 'kept'
    : step.before === step.after
      ? 'already a zero'
      : 'flushed to a zero of its sign';
  return `.ftz, ${judged} → ${action}`;
}

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

const REASON_WORDS: Record<RoundStep['reason'], string> = {
  exact: 'the value is representable, nothing to round',
  'below-half': 'the dropped part is below half an ulp',
  'above-half': 'the dropped part is above half an ulp',
  'tie-to-even': 'exactly half an ulp: a tie, to the even neighbour',
  'toward-zero': '.rz drops the extra bits',
  'toward-plus-inf': '.rp rounds toward +∞',
  'toward-minus-inf': '.rm rounds toward −∞',
  'overflow-threshold':
    '|exact| is at least the largest finite value plus half an ulp, where round to nearest gives ∞',
};

/** Why, and where the result went: in value (toward ±∞) and in magnitude. */
function describeRound(step: StepOf<'round'>): string {
  if (step.direction === 'exact') return `${REASON_WORDS.exact}.`;
  const toward = step.direction === 'up' ? '+∞' : '−∞';
  const subnormal = step.subnormal ? '; the result is subnormal' : '';
  return `${REASON_WORDS[step.reason]} → toward ${toward} (${step.magnitude} magnitude); inexact${subnormal}.`;
}

function oobCheckText(operands: readonly string[], forcesZero: boolean, pattern: number): string {
  const hex = `0x${(pattern & 0x7fff).toString(16).toUpperCase()}`;
  if (operands.length === 0) return `no operand holds the OOB-NaN pattern ${hex}`;
  const which = `${operands.join(', ')} ${operands.length === 1 ? 'holds' : 'hold'} the OOB-NaN pattern ${hex}`;
  return forcesZero
    ? `${which} → the lane result is +0.0`
    : `${which}; only a and b are tested, so c is an ordinary NaN here`;
}
