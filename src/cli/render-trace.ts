/**
 * Human-readable rendering of an evaluation for the terminal. The engine records typed steps
 * (src/engine/trace.ts) and never writes prose; this is where the CLI puts them into words:
 * one numbered line per step, the spec section and rule it applies, and a note for every
 * documented decision (src/engine/decisions.ts) a step relies on.
 */
import { CLASS_WORDS } from '../engine/class-words.ts';
import type { FormatName } from '../catalog/index.ts';
import { decision } from '../engine/decisions.ts';
import { classify, FORMATS, toDouble } from '../engine/formats.ts';
import { readableDecimal } from '../engine/decimal-text.ts';
import type {
  ApproxEmptyReason,
  EvalResult,
  ExactValue,
  OperandView,
  RoundStep,
  RuleRef,
  Step,
} from '../engine/trace.ts';
import { describeCvtStep } from './render-cvt.ts';

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

/** How long decimals are printed: readable (the default) or every digit (--all-digits). */
export interface RenderOptions {
  readonly allDigits?: boolean;
}

function decimalText(decimal: string, options: RenderOptions): string {
  if (options.allDigits) return decimal;
  const readable = readableDecimal(decimal);
  return readable.shortened ? `${readable.text} (${readable.digits} digits)` : readable.text;
}

function exactText(v: ExactValue, options: RenderOptions): string {
  if (v.kind === 'nan') return 'NaN';
  if (v.kind === 'inf') return v.negative ? '-inf' : '+inf';
  const decimal = decimalText(v.decimal, options);
  return decimal === v.binary ? decimal : `${decimal} = ${v.binary}`;
}

function operandText(o: OperandView): string {
  return `${o.name} = ${bitsText(o.bits, o.format)}`;
}

function change(label: string, s: { before: number; after: number; format: FormatName }): string {
  return `${label}: ${bitsText(s.before, s.format)} → ${bitsText(s.after, s.format)}`;
}

const REASON_WORDS: Record<RoundStep['reason'], string> = {
  exact: 'exact, nothing to round',
  'below-half': 'below half an ulp',
  'above-half': 'above half an ulp',
  'tie-to-even': 'a tie, to the even neighbour',
  'toward-zero': '.rz rounds toward zero',
  'toward-plus-inf': '.rp rounds toward +inf',
  'toward-minus-inf': '.rm rounds toward -inf',
  'overflow-threshold':
    '|exact| is at least the largest finite value plus half an ulp, where round to nearest gives infinity',
};

/** "toward +inf (larger magnitude)": where the result lies from the exact value. */
export function directionText(step: RoundStep): string {
  if (step.direction === 'exact') return 'exact';
  return `toward ${step.direction === 'up' ? '+inf' : '-inf'} (${step.magnitude} magnitude)`;
}

function roundText(step: RoundStep, options: RenderOptions): string {
  const f = FORMATS[step.format];
  const where = step.cut
    ? `kept ${step.cut.kept}b × 2^${step.cut.ulpExponent}, G=${step.cut.guard} R=${step.cut.round} S=${step.cut.sticky}`
    : `${decimalText(step.exact.decimal, options)} is beyond the exponent range of ${step.format} (|x| >= 2^${f.emax + 1})`;
  const neighbours =
    step.lower === step.upper
      ? ''
      : `; neighbours ${hexOf(step.lower, step.format)} / ${hexOf(step.upper, step.format)}`;
  const outcome =
    step.direction === 'exact'
      ? REASON_WORDS.exact
      : `${REASON_WORDS[step.reason]} → ${directionText(step)}, inexact`;
  return `round to ${step.format} (.${step.mode}): ${where}: ${outcome}${neighbours} → ${bitsText(step.result, step.format)}`;
}

function tininessText(step: StepOf<'tininess'>): string {
  const f = FORMATS[step.format];
  const yesNo = (b: boolean) => (b ? 'yes' : 'no');
  const readings = `tiny before rounding: ${yesNo(step.tinyBeforeRounding)}, after rounding: ${yesNo(step.tinyAfterRounding)}`;
  let underflow: string;
  if (!step.inexact) underflow = 'the result is exact: no underflow';
  else if (step.tinyAfterRounding) underflow = 'inexact: underflow by either reading';
  else underflow = 'inexact: underflow if tininess is judged before rounding, none if after';
  return `tiny result: |exact| < 2^${f.emin} (${readings}); ${underflow} → ${bitsText(step.result, step.format)}`;
}

function flushResultText(step: StepOf<'flush-result'>): string {
  if (!step.tininess) return change('.ftz: flush subnormal result to zero', step);
  const other = step.tininess === 'after-rounding' ? 'before rounding' : 'after rounding';
  const tiny =
    step.tininess === 'after-rounding' ? step.tinyAfterRounding : step.tinyBeforeRounding;
  const otherTiny =
    step.tininess === 'after-rounding' ? step.tinyBeforeRounding : step.tinyAfterRounding;
  const judged = `tininess judged ${step.tininess.replace('-', ' ')}: ${tiny ? 'tiny' : 'not tiny'} (${other}: ${otherTiny ? 'tiny' : 'not tiny'})`;
  const action = !tiny
    ? 'kept'
    : step.before === step.after
      ? 'a zero already'
      : 'flushed to a zero of its sign';
  return change(`.ftz, ${judged} → ${action}`, step);
}

const MINMAX_ORDER: Record<'less' | 'equal' | 'greater', string> = {
  less: '<',
  equal: '=',
  greater: '>',
};

function minMaxText(step: StepOf<'minmax'>): string {
  const a = bitsText(step.a, step.format);
  const b = bitsText(step.b, step.format);
  const result = bitsText(step.result, step.format);
  switch (step.branch) {
    case 'both-nan':
      return `${step.op}(a = ${a}, b = ${b}): both are NaN → NaN ${result}`;
    case 'nan-modifier':
      return `${step.op}(a = ${a}, b = ${b}): .NaN and an input is NaN → canonical NaN ${result}`;
    case 'a-nan':
      return `${step.op}(a = ${a}, b = ${b}): a is NaN → b ${result}`;
    case 'b-nan':
      return `${step.op}(a = ${a}, b = ${b}): b is NaN → a ${result}`;
    case 'compare': {
      const { order, signedZeros } = step.comparison!;
      const why = signedZeros
        ? `the zeros are equal in value, and the spec orders -0 < +0, so a ${MINMAX_ORDER[order]} b`
        : `a ${MINMAX_ORDER[order]} b`;
      const pick =
        order === 'equal'
          ? `equal: d = (a ${step.op === 'min' ? '<' : '>'} b) ? a : b takes b`
          : `${step.op} is ${step.chosen}`;
      return `${step.op}(a = ${a}, b = ${b}): ${why}; ${pick} → ${result}`;
    }
  }
}

const EMPTY_WORDS: Record<ApproxEmptyReason, (format: FormatName) => string> = {
  'subnormal-spacing': (format) =>
    `the exact value is below the smallest normal, where ${format} values are spaced wider than the bound`,
  'below-smallest-subnormal': (format) =>
    `the exact value is below the smallest ${format} subnormal: every value, zero included, is further off than the bound`,
  'ftz-removes-subnormals': () =>
    'subnormals would be within it, but .ftz writes no subnormal result',
};

function approxText(step: StepOf<'approx'>): string {
  const bound = `${step.bound.kind} error ≤ 2^${step.bound.log2}`;
  const { lowest, highest, count, emptyBecause } = step.allowed;
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
      ? `allows no ${step.format} value: ${EMPTY_WORDS[emptyBecause!](step.format)}`
      : `allows ${count} value${count === 1 ? '' : 's'} (${range})${step.allowed.overflows ? ', the infinity because the exact value rounds past the largest finite value' : ''}`;
  const exact = step.mathValue.startsWith('2^') ? `= ${step.mathValue}` : `≈ ${step.mathValue}`;
  return `${step.fn}.approx(${bitsText(step.input, step.format)}): exact ${exact}; ${model} → ${bitsText(step.result, step.format)}; the spec's ${bound} ${allows}`;
}

/** A step of one kind (the union narrowed by its `kind`). */
type StepOf<K extends Step['kind']> = Step & { readonly kind: K };

/** The one-line description of a step, without its rule. */
export function describeStep(step: Step, options: RenderOptions = {}): string {
  switch (step.kind) {
    case 'inputs':
      return `inputs: ${step.operands.map(operandText).join(', ')}`;
    case 'flush-input':
      return change(`.ftz: flush subnormal input ${step.operand} to zero`, step);
    case 'convert':
      return step.exact
        ? `convert ${step.operand} to ${step.to}, exactly: ${bitsText(step.before, step.format)} → ${bitsText(step.after, step.to)}`
        : `convert ${step.operand} to ${step.to}: ${bitsText(step.before, step.format)} → the canonical NaN ${bitsText(step.after, step.to)} (the payload is not kept)`;
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
      return `exact ${step.expression} = ${exactText(step.value, options)}`;
    case 'round':
      return roundText(step, options);
    case 'overflow':
      return `overflow (.${step.mode}) → ${step.to === 'infinity' ? 'infinity' : 'largest finite value'}: ${bitsText(step.result, step.format)}`;
    case 'tininess':
      return tininessText(step);
    case 'flush-result':
      return flushResultText(step);
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
      return minMaxText(step);
    case 'approx':
      return approxText(step);
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

/** "§ 9.7.4.1" for a PTX ISA section, "IEEE 754 §7.4" for the standard. */
export function ruleCitation(rule: RuleRef): string {
  return rule.source === 'ieee-754' ? `IEEE 754 §${rule.section}` : `§ ${rule.section}`;
}

/** Every line of a traced evaluation: per lane, numbered steps with rules and decision notes. */
export function renderTrace(result: EvalResult, options: RenderOptions = {}): string[] {
  const lines: string[] = [];
  for (const lane of result.lanes) {
    if (result.lanes.length > 1)
      lines.push(`lane ${lane.lane} (bits ${lane.lane * 16 + 15}:${lane.lane * 16}):`);
    lane.steps.forEach((step, i) => {
      lines.push(`  ${String(i + 1).padStart(2)}. ${describeStep(step, options)}`);
      lines.push(`      ${ruleCitation(step.rule)}: ${step.rule.text}`);
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
