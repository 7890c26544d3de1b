/**
 * cvt traces in words for the terminal: one numbered line per step, the rule it applies, and a
 * note for every documented decision (as render-trace.ts does for the arithmetic).
 */
import { CLASS_WORDS } from '../engine/class-words.ts';
import { decision } from '../engine/decisions.ts';
import type { CvtStep, ElementView } from '../engine/cvt-trace.ts';
import type { CvtEvalResult } from '../engine/ops/cvt.ts';
import type { Step } from '../engine/trace.ts';

/** `0x7E (448, normal e4m3)`. */
export function elementText(e: ElementView): string {
  const value =
    e.value.kind === 'nan'
      ? 'NaN'
      : e.value.kind === 'inf'
        ? e.value.decimal
        : e.value.decimal === '0'
          ? e.value.negative
            ? '-0'
            : '+0'
          : e.value.decimal;
  return `${e.bits} (${value}, ${CLASS_WORDS[e.class] ?? e.class} ${e.format})`;
}

const range = (r: { hi: number; lo: number }) => `[${r.hi}:${r.lo}]`;

const REASONS: Record<Extract<CvtStep, { kind: 'cvt-round' }>['reason'], string> = {
  exact: 'exact, nothing to round',
  'below-half': 'below half an ulp',
  'above-half': 'above half an ulp',
  'tie-to-even': 'a tie, to even',
  'tie-away': 'half an ulp or more, away from zero',
  'toward-zero': 'toward zero',
  'toward-plus-inf': 'toward +inf',
  'toward-minus-inf': 'toward -inf',
  'random-carry': 'the random bits carry out: away from zero',
  'random-no-carry': 'no carry out of the random bits: toward zero',
  'overflow-threshold': 'at or past the largest finite value plus half an ulp',
};

/** The one-line description of a cvt step, without its rule. */
export function describeCvtStep(step: CvtStep): string {
  switch (step.kind) {
    case 'cvt-source': {
      const padding =
        step.padding === null
          ? ''
          : `; padding bits ${step.padding}${/^0x0+$/.test(step.padding) ? '' : ' (ignored)'}`;
      return `source ${step.operand}${range(step.valueBits)} = ${elementText(step.input)}${padding}`;
    }
    case 'cvt-flush-input':
      return `flush subnormal input to zero: ${elementText(step.before)} → ${elementText(step.after)}`;
    case 'cvt-special':
      return `special case (${step.case}): ${step.result ? elementText(step.result) : 'not a value of the destination; see the next steps'}`;
    case 'cvt-exact':
      return `exact value ${step.value.decimal} = ${step.value.binary}${step.representable ? ' (representable as it is)' : ''}`;
    case 'cvt-round': {
      const cut = step.cut
        ? `kept ${step.cut.kept}b × 2^${step.cut.ulpExponent}, G=${step.cut.guard} R=${step.cut.round} S=${step.cut.sticky}`
        : 'beyond the largest finite value';
      const target = step.toInteger ? `an integer in ${step.format}` : step.format;
      const random = step.random
        ? `; random bits ${step.random.bits} + discarded ${step.random.discarded} = ${step.random.sum} (carry ${step.random.carry}; ${step.random.discardedCount} bits discarded in all)`
        : '';
      const neighbours =
        step.lower === step.upper
          ? ''
          : `; neighbours ${step.lower ?? 'past MAX_NORM'} / ${step.upper ?? 'past MAX_NORM'}`;
      return `round to ${target} (.${step.mode}): ${cut}${random} → ${REASONS[step.reason]}${neighbours} → ${step.result ?? 'past MAX_NORM'}${step.subnormal ? ' (subnormal)' : ''}`;
    }
    case 'cvt-overflow':
      return `overflow → ${step.to === 'max-norm' ? 'MAX_NORM' : step.to}: ${elementText(step.result)}`;
    case 'cvt-unsigned':
      return step.what === 'drop-sign'
        ? 'ue8m0 has no sign: |x| is converted'
        : `ue8m0 has no zero: the least value 2^-127 → ${step.result ? elementText(step.result) : ''}`;
    case 'cvt-flush-result':
      return `flush tiny result to zero (tininess ${step.tininess.replace('-', ' ')}: before ${step.tinyBeforeRounding ? 'tiny' : 'not tiny'}, after ${step.tinyAfterRounding ? 'tiny' : 'not tiny'}): ${elementText(step.before)} → ${elementText(step.after)}`;
    case 'cvt-satfinite':
      return `satfinite (${step.case.replaceAll('-', ' ')}): ${step.before ? elementText(step.before) : step.case === 'nan' ? 'NaN' : 'past MAX_NORM'} → ${elementText(step.after)}`;
    case 'cvt-sat':
      return `saturate to [+0, 1]: ${elementText(step.before)} → ${elementText(step.after)}`;
    case 'cvt-relu':
      return `relu: ${elementText(step.before)} → ${elementText(step.after)}`;
    case 'cvt-pack':
      return `write d${range(step.slot)} = ${step.slotBitsHex}${step.slot.hi !== step.valueBits.hi || step.slot.lo !== step.valueBits.lo ? ` (value in ${range(step.valueBits)}, the other bits zero)` : ''}: ${elementText(step.result)}`;
  }
}

/** Every line of a traced cvt: per element, numbered steps with rules and decision notes. */
export function renderCvtTrace(result: CvtEvalResult, describe: (s: Step) => string): string[] {
  const lines: string[] = [];
  for (const element of result.elements) {
    if (result.elements.length > 1) lines.push(`element ${element.index}:`);
    element.steps.forEach((step, i) => {
      lines.push(`  ${String(i + 1).padStart(2)}. ${describe(step)}`);
      lines.push(`      § ${step.rule.section}: ${step.rule.text}`);
      if (step.decision)
        lines.push(`      note [${step.decision}]: ${decision(step.decision).title}`);
    });
  }
  return lines;
}
