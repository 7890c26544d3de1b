/**
 * Human-readable rendering of an evaluation for the terminal. The engine records typed steps
 * (src/engine/trace.ts) and never writes prose; this is where the CLI puts them into words:
 * one numbered line per step, the spec section and rule it applies, and a note for every
 * documented decision (src/engine/decisions.ts) a step relies on.
 */
import type { FormatName } from '../catalog/index.ts';
import { decision } from '../engine/decisions.ts';
import { classify, FORMATS, toDouble } from '../engine/formats.ts';
import type { EvalResult, ExactValue, OperandView, Step } from '../engine/trace.ts';
import { describeCvtStep } from './render-cvt.ts';

const CLASS_WORDS: Record<string, string> = {
  zero: 'zero',
  subnormal: 'subnormal',
  normal: 'normal',
  infinity: 'infinity',
  qnan: 'quiet NaN',
  snan: 'signaling NaN',
};

export function hexOf(bits: number, format: FormatName): string {
  return `0x${(bits >>> 0).toString(16).padStart(FORMATS[format].width / 4, '0')}`;
}

/**
 * The value as JavaScript prints the double equal to it: short, and enough to tell any two values
 * apart (not always every digit: the trace's exact steps carry the full expansion).
 */
export function valueText(bits: number, format: FormatName): string {
  const f = FORMATS[format];
  const cls = classify(bits, f);
  if (cls === 'qnan' || cls === 'snan') return 'NaN';
  const v = toDouble(bits, f);
  if (v === 0) return Object.is(v, -0) ? '-0' : '+0';
  if (!Number.isFinite(v)) return v > 0 ? '+inf' : '-inf';
  return String(v);
}

/** `0x3c00 (1, normal)`. */
export function bitsText(bits: number, format: FormatName): string {
  const cls = CLASS_WORDS[classify(bits, FORMATS[format])] ?? '';
  return `${hexOf(bits, format)} (${valueText(bits, format)}, ${cls})`;
}

function exactText(v: ExactValue): string {
  if (v.kind === 'nan') return 'NaN';
  if (v.kind === 'inf') return v.negative ? '-inf' : '+inf';
  return `${v.decimal} = ${v.binary}`;
}

function operandText(o: OperandView): string {
  return `${o.name} = ${bitsText(o.bits, o.format)}`;
}

function change(label: string, s: { before: number; after: number; format: FormatName }): string {
  return `${label}: ${bitsText(s.before, s.format)} → ${bitsText(s.after, s.format)}`;
}

const REASON_WORDS: Record<string, string> = {
  exact: 'exact, nothing to round',
  'below-half': 'below half an ulp',
  'above-half': 'above half an ulp',
  'tie-to-even': 'a tie, to even',
  'toward-zero': 'toward zero',
  'toward-plus-inf': 'toward +inf',
  'toward-minus-inf': 'toward -inf',
};

/** The one-line description of a step, without its rule. */
export function describeStep(step: Step): string {
  switch (step.kind) {
    case 'inputs':
      return `inputs: ${step.operands.map(operandText).join(', ')}`;
    case 'flush-input':
      return change(`flush subnormal input ${step.operand} to zero`, step);
    case 'convert':
      return `convert ${step.operand} exactly to ${step.to}: ${bitsText(step.before, step.format)} → ${bitsText(step.after, step.to)}`;
    case 'oob-check': {
      const pattern = hexOf(step.pattern & 0x7fff, 'f16');
      if (step.oobOperands.length === 0)
        return `OOB check: no operand holds the OOB-NaN pattern ${pattern}`;
      const which = `${step.oobOperands.join(', ')} ${step.oobOperands.length === 1 ? 'holds' : 'hold'} the OOB-NaN pattern ${pattern}`;
      return step.forcesZero
        ? `OOB check: ${which} → the lane result is +0`
        : `OOB check: ${which}; only a and b are tested, so c is an ordinary NaN here`;
    }
    case 'special':
      return `special case (${step.case.replaceAll('-', ' ')}): result ${bitsText(step.result, step.format)}${step.detail ? ` — ${step.detail}` : ''}`;
    case 'exact':
      return `exact ${step.expression} = ${exactText(step.value)}`;
    case 'round': {
      const grs = `G=${step.guard} R=${step.round} S=${step.sticky}`;
      const direction =
        step.direction === 'exact'
          ? 'exact'
          : `round ${step.direction} (${REASON_WORDS[step.reason] ?? step.reason})`;
      const neighbours =
        step.lower === step.upper
          ? ''
          : `; neighbours ${hexOf(step.lower, step.format)} / ${hexOf(step.upper, step.format)}`;
      return `round to ${step.format} (.${step.mode}): kept ${step.kept}b × 2^${step.ulpExponent}, ${grs} → ${direction}${neighbours} → ${bitsText(step.result, step.format)}`;
    }
    case 'overflow':
      return `overflow (.${step.mode}) → ${step.to === 'infinity' ? 'infinity' : 'largest finite value'}: ${bitsText(step.result, step.format)}`;
    case 'underflow':
      return `underflow: tiny before rounding ${step.tinyBeforeRounding ? 'yes' : 'no'}, after rounding ${step.tinyAfterRounding ? 'yes' : 'no'} → ${bitsText(step.result, step.format)}`;
    case 'flush-result':
      return step.tininess
        ? change(
            `flush tiny result to zero (tininess ${step.tininess.replace('-', ' ')}: before ${step.tinyBeforeRounding ? 'tiny' : 'not tiny'}, after ${step.tinyAfterRounding ? 'tiny' : 'not tiny'})`,
            step,
          )
        : change('flush subnormal result to zero', step);
    case 'saturate':
      return change('saturate to [+0, 1]', step);
    case 'relu':
      return change('relu', step);
    case 'negate':
      return change('negate', step);
    case 'absolute':
      return change('absolute value', step);
    case 'abs-inputs':
      return change(`absolute value of ${step.operand}`, step);
    case 'xorsign':
      return change(`apply sign ${step.sign} (sign of a XOR sign of b)`, step);
    case 'minmax':
      return `${step.op}(${bitsText(step.a, step.format)}, ${bitsText(step.b, step.format)}) by branch ${step.branch} → ${bitsText(step.result, step.format)}`;
    case 'approx': {
      const bound = `${step.bound.kind} error ≤ 2^${step.bound.log2}`;
      const { lowest, highest, count } = step.allowed;
      const range =
        count === 1
          ? hexOf(lowest, step.format)
          : `${hexOf(lowest, step.format)} … ${hexOf(highest, step.format)}`;
      const model =
        step.model === 'measured'
          ? `measured${step.measuredOn ? ` on ${step.measuredOn}` : ''}`
          : 'correctly rounded model';
      const allows =
        count === 0
          ? `allows no ${step.format} value: the exact value is below the smallest normal, where ${step.format} has fewer significant bits than the bound asks`
          : `allows ${count} value${count === 1 ? '' : 's'} (${range})${step.allowed.overflows ? ', the infinity because the exact value overflows' : ''}`;
      return `${step.fn}.approx(${bitsText(step.input, step.format)}): exact ${step.mathValue}; ${model} → ${bitsText(step.result, step.format)}; the spec's ${bound} ${allows}`;
    }
    case 'result':
      return `result: ${bitsText(step.bits, step.format)}`;
    case 'cvt-source':
    case 'cvt-flush-input':
    case 'cvt-special':
    case 'cvt-exact':
    case 'cvt-round':
    case 'cvt-overflow':
    case 'cvt-unsigned':
    case 'cvt-flush-result':
    case 'cvt-satfinite':
    case 'cvt-sat':
    case 'cvt-relu':
    case 'cvt-pack':
      return describeCvtStep(step);
    default: {
      const unknown: never = step;
      return `step ${JSON.stringify(unknown)}`;
    }
  }
}

/** Every line of a traced evaluation: per lane, numbered steps with rules and decision notes. */
export function renderTrace(result: EvalResult): string[] {
  const lines: string[] = [];
  for (const lane of result.lanes) {
    if (result.lanes.length > 1)
      lines.push(`lane ${lane.lane} (bits ${lane.lane * 16 + 15}:${lane.lane * 16}):`);
    lane.steps.forEach((step, i) => {
      lines.push(`  ${String(i + 1).padStart(2)}. ${describeStep(step)}`);
      lines.push(`      § ${step.rule.section}: ${step.rule.text}`);
      if (step.kind === 'flush-result' && step.tininess === 'before-rounding')
        lines.push(
          `      note [${step.decision}]: the other reading, as asked: tininess judged before rounding`,
        );
      else if (step.decision)
        lines.push(`      note [${step.decision}]: ${decision(step.decision).title}`);
    });
  }
  return lines;
}

/** The decisions a result depends on, each with what the engine does. */
export function renderDecisions(result: { readonly decisions: EvalResult['decisions'] }): string[] {
  if (result.decisions.length === 0) return [];
  const lines = ['Documented decisions this result depends on:'];
  for (const id of result.decisions) {
    const d = decision(id);
    lines.push(`  [${id}] ${d.title}: ${d.decision}`);
  }
  return lines;
}
