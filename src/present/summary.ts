/**
 * What happened, in one sentence, read off a result's steps (never written per case): the rule
 * that decided the result, the exact value and where it went, and what the modifiers did — for
 * every instruction, arithmetic and cvt alike.
 *
 *   "1.00048828125 is halfway between 1 and 1.0009765625: the tie goes to the even one, 1; error -0.00048828125 = -0.5 ulp"
 *   "the exact sum 65536 is above the largest f16 (65504): +inf under .rn"
 *   "the exact value 500 is above the largest e4m3 (448); .satfinite clamps it to 448"
 *   "∞ − ∞: invalid, canonical NaN 0x7fff"
 *   "the result is tiny and .ftz flushes it to -0"
 *   "hardware may return any of 2 values from 0.76123046875 to 0.76171875; …"
 */
import { findForm } from '../catalog/all-forms.ts';
import type { Form } from '../catalog/instruction.ts';
import { bitsView, FORMATS, maxNormBits, type BitsView } from '../engine/format.ts';
import type { ElementTrace, EvalResult, RoundStep, Step } from '../engine/steps.ts';
import { errorAgainst, valueOfExact } from '../engine/what-if/reference-values.ts';
import type { Binary32Stage, UnfusedEvaluation } from '../engine/what-if/unfused-sequence.ts';
import { approxSentence } from './approx-text.ts';
import { exactText, signedText, ulpsText } from './numbers.ts';
import { valueText, viewOf } from './values.ts';

type StepOf<K extends Step['kind']> = Extract<Step, { readonly kind: K }>;

function find<K extends Step['kind']>(element: ElementTrace, kind: K): StepOf<K> | undefined {
  return element.steps.find((s): s is StepOf<K> => s.kind === kind);
}

/** What the operation's exact value is called: "sum", "product", "a × b + c", "value". */
export function quantityOf(form: Form): string {
  switch (form.operation) {
    case 'add':
      return 'sum';
    case 'sub':
      return 'difference';
    case 'mul':
      return 'product';
    case 'fma':
      return 'a × b + c';
    case 'dot-product':
      return 'c + Σ a_i·b_i';
    default:
      return 'value';
  }
}

const REASONS: Partial<Record<RoundStep['reason'], string>> = {
  'below-half': 'below the halfway point',
  'above-half': 'above the halfway point',
  'toward-zero': 'toward zero',
  'toward-plus-inf': 'toward +∞',
  'toward-minus-inf': 'toward −∞',
  'random-carry': 'the random bits carry into the kept bits',
  'random-no-carry': 'the random bits do not carry',
};

/** The error of a rounding itself, in ulps of its format at its result ("; error -0.25 = -0.5 ulp"). */
function roundingError(round: RoundStep): string {
  if (round.result === null) return '';
  const error = errorAgainst(viewOf(round.result, round.format), valueOfExact(round.exact));
  return error ? `; error ${signedText(error.value)} = ${ulpsText(error.ulps)}` : '';
}

/**
 * One rounding in words: exact, past the largest value (and what the overflow rule gave, where it
 * gave something), a tie, or which way and why, with the error.
 */
export function roundingSentence(
  round: RoundStep,
  quantity: string,
  overflow?: { readonly to: string; readonly result: BitsView },
): string {
  const f = FORMATS[round.format];
  const exact = exactText(round.exact);
  const value = (bits: string | null) => (bits === null ? '' : valueText(viewOf(bits, f.name)));
  if (!round.inexact) return `${exact} is exact in ${f.name}: no rounding`;
  if (round.result === null && !f.hasZero && round.lower === null)
    return `${exact} is below ${f.name}'s least value`;
  if (round.result === null) {
    const max = bitsView(maxNormBits(f, round.exact.negative), f);
    const beyond = round.exact.negative
      ? `below the most negative ${f.name} (${valueText(max)})`
      : `above the largest ${f.name} (${valueText(max)})`;
    const sentence = `the exact ${quantity} ${exact} is ${beyond}`;
    if (!overflow) return sentence;
    const gives =
      overflow.to === 'max-norm'
        ? `the largest finite value ${valueText(overflow.result)}`
        : overflow.to === 'nan'
          ? `${valueText(overflow.result)} (${f.name} has no infinity)`
          : valueText(overflow.result);
    return `${sentence}: ${gives} under .${round.mode}`;
  }
  const error = roundingError(round);
  if (round.reason === 'tie-to-even' || round.reason === 'tie-away')
    return `${exact} is halfway between ${value(round.lower)} and ${value(round.upper)}: the tie goes to the ${round.reason === 'tie-to-even' ? 'even one' : 'one away from zero'}, ${value(round.result)}${error}`;
  const reason = REASONS[round.reason];
  return `${exact} rounds ${round.direction === 'up' ? 'up' : 'down'} to ${value(round.result)} (.${round.mode}${reason ? `: ${reason}` : ''})${error}`;
}

/** min/max in words: the call, the branch of the pseudo-code that chose, the result. */
function minMaxSentence(step: StepOf<'minmax'>): string {
  const call = `${step.op}(${valueText(step.a)}, ${valueText(step.b)})`;
  switch (step.branch) {
    case 'both-nan':
      return `${call}: both are NaN, canonical NaN`;
    case 'nan-modifier':
      return `${call}: .NaN makes a NaN operand win, canonical NaN`;
    case 'a-nan':
      return `${call}: a is NaN, so the result is b = ${valueText(step.result)}`;
    case 'b-nan':
      return `${call}: b is NaN, so the result is a = ${valueText(step.result)}`;
    case 'compare':
      return step.comparison?.signedZeros
        ? `${call} = ${valueText(step.result)} (−0 < +0 decides between the zeros)`
        : `${call} = ${valueText(step.result)}`;
  }
}

/** The clause of the rule that decided the value (before the modifiers), if a step names one. */
function decidingClause(form: Form, element: ElementTrace): string | null {
  const special = find(element, 'special');
  const exact = find(element, 'exact');
  const round = find(element, 'round');
  const convert = form.operation === 'convert';
  switch (special?.case) {
    case 'nan-operand': {
      const dest = FORMATS[form.elements[0]!.dest.format];
      if (!special.result) return `a NaN, which ${dest.name} cannot hold`;
      if (BigInt(special.result.bits) === dest.canonicalNaN)
        return `a NaN ${convert ? 'converts to' : 'operand gives'} the canonical NaN ${special.result.bits}`;
      // cvt keeps a NaN's sign and payload on some forms (decision cvt-nan).
      return special.result.class === 'qnan' || special.result.class === 'snan'
        ? `a NaN converts to ${special.result.bits}: its sign and payload kept`
        : `a NaN converts to ${special.result.bits} (${valueText(special.result)}): its payload cut to nothing`;
    }
    case 'invalid':
      return `${special.detail ?? 'invalid'}: invalid, canonical NaN ${special.result!.bits}`;
    case 'infinity':
      return special.result
        ? `an infinite ${convert ? 'value converts to' : 'operand gives'} ${valueText(special.result)}`
        : `an infinity, which ${form.elements[0]!.dest.format} has none of`;
    case 'corner-case':
      return `the spec's table gives ${valueText(special.result!)}${special.detail ? ` (${special.detail})` : ''}`;
    case 'zero':
      return `a zero converts to ${valueText(special.result!)}`;
    case 'exact-zero':
      return `the exact ${quantityOf(form)} is 0, which is ${valueText(special.result!)} by the sign rule`;
  }
  if (round && exact) {
    const overflow = find(element, 'overflow');
    return roundingSentence(round, quantityOf(form), overflow);
  }
  if (exact)
    return `${exactText(exact.value)} is exact in ${form.elements[0]!.dest.format}: no rounding`;
  const approx = find(element, 'approx');
  if (approx) return approxSentence(approx);
  const minmax = find(element, 'minmax');
  if (minmax) return minMaxSentence(minmax);
  const negated = element.steps.find(
    (s): s is Extract<Step, { kind: 'negate' | 'absolute' }> =>
      s.kind === 'negate' || s.kind === 'absolute',
  );
  if (negated)
    return `${negated.kind === 'negate' ? 'neg' : 'abs'}(${valueText(negated.before)}) = ${valueText(negated.after)}`;
  return null;
}

const BLOCK_SPECIALS: Record<NonNullable<StepOf<'block-scale'>['special']>, string> = {
  'nan-scale': 'a scale is NaN, which gives 0x7FFFFFFF',
  'nan-c': 'c is NaN, which gives 0x7FFFFFFF',
  'nan-operand': 'an element is NaN, which gives the canonical NaN',
  invalid: '∞ × 0, or +∞ and −∞ among the terms, give the canonical NaN',
  infinity: 'an infinite term gives that infinity',
};

/** A block-scaled element: its special case, or the scaled terms' cut sum rounded toward zero. */
function blockScaleSentence(step: StepOf<'block-scale'>, d: string): string {
  const scales = `${step.scales.length} scale${step.scales.length > 1 ? 's' : ''} of A and of B (one per ${step.chunk} elements)`;
  if (step.special !== null) return `${scales}; ${BLOCK_SPECIALS[step.special]}: ${d}`;
  return `${scales}; the scaled terms cut to n = ${step.alignmentBits} bits below 2^E add up to ${exactText(step.kept)} (uncut ${exactText(step.exact)}), truncated to f32: ${d}`;
}

/**
 * A tensor core's element: the model it follows, then each fused sum — its special case, or
 * what the cuts lost and how the cut sum rounded — or, for f64, the chain's result.
 */
function matrixSentence(form: Form, element: ElementTrace): string {
  const model = find(element, 'tensor-model');
  const on = model ? `${model.name} model on ${model.target}: ` : '';
  const result = find(element, 'result');
  const d = result ? valueText(result.result) : element.result;
  if (model?.sequence) {
    const measured = `${model.name}, as measured on this form (${model.target}): `;
    const additions = element.steps.filter(
      (s): s is StepOf<'sequence-add'> => s.kind === 'sequence-add',
    );
    const inexact = additions.filter((s) =>
      s.steps.some((x) => x.kind === 'round' && x.inexact),
    ).length;
    const f16 = model.sequence.kind === 'pairs-then-c' ? ', then rounded to f16,' : '';
    return `${measured}${additions.length} f32 additions (${inexact} of them rounded)${f16} give ${d}`;
  }
  const block = find(element, 'block-scale');
  if (block) return `${on}${blockScaleSentence(block, d)}`;
  if (!model?.fused) return `${on}a chain of fused multiply-adds in order gives ${d}`;
  const parts = element.steps.flatMap((s) => {
    if (s.kind !== 'fused') return [];
    const half = s.parts > 1 ? `half ${s.part + 1}: ` : '';
    const inner: ElementTrace = { ...element, steps: s.steps };
    if (find(inner, 'special')) return [`${half}${decidingClause(form, inner)}`];
    const sum = find(inner, 'sum');
    const round = find(inner, 'round');
    const lost =
      sum && !/^-?0$/.test(sum.lost.decimal)
        ? `the cuts lost ${signedText(sum.lost)} (${signedText(sum.lostUlps)} ulp of the result); `
        : 'the cuts lost nothing; ';
    return [
      `${half}${lost}${round ? roundingSentence(round, 'sum', find(inner, 'overflow')) : `the sum is ${valueText(s.result)}`}`,
    ];
  });
  return `${on}${parts.join('; ')}`;
}

/** The sentence of one element. */
export function elementSummary(form: Form, element: ElementTrace): string {
  if (form.family === 'matrix') return matrixSentence(form, element);
  const oob = find(element, 'oob-check');
  if (oob?.forcesZero) {
    const names = oob.oobOperands.filter((n) => n !== 'c');
    return `${names.join(' and ')} ${names.length > 1 ? 'hold' : 'holds'} the OOB-NaN pattern ${oob.pattern}: .oob gives +0`;
  }
  const parts: string[] = [];
  for (const s of element.steps)
    if (s.kind === 'unsigned' && s.what === 'drop-sign')
      parts.push(`${form.elements[0]!.dest.format} has no sign: the magnitude is converted`);
  const deciding = decidingClause(form, element);
  if (deciding) parts.push(deciding);
  const least = element.steps.find(
    (s): s is StepOf<'unsigned'> => s.kind === 'unsigned' && s.what === 'least-value',
  );
  if (least?.result)
    parts.push(
      `${least.result.format} has no zero: its least value ${valueText(least.result)} (${least.result.bits})`,
    );
  const flush = find(element, 'flush-result');
  if (flush && flush.before.bits !== flush.after.bits)
    parts.push(`the result is tiny and .ftz flushes it to ${valueText(flush.after)}`);
  const satfinite = find(element, 'satfinite');
  if (satfinite?.case === 'beyond-max-norm')
    parts.push(`.satfinite clamps it to ${valueText(satfinite.after)}`);
  if (satfinite?.case === 'nan' && satfinite.after.value.kind !== 'nan')
    parts.push(
      `.satfinite gives ${valueText(satfinite.after)} (${satfinite.after.format} has no NaN)`,
    );
  const sat = find(element, 'saturate');
  if (sat && sat.before.bits !== sat.after.bits)
    parts.push(`.sat clamps it to ${valueText(sat.after)}`);
  const relu = find(element, 'relu');
  if (relu && relu.before.bits !== relu.after.bits)
    parts.push(`.relu makes it ${valueText(relu.after)}`);
  const xorsign = find(element, 'xorsign');
  if (xorsign && xorsign.before.bits !== xorsign.after.bits)
    parts.push(`.xorsign gives it the sign ${xorsign.sign ? '−' : '+'}`);
  if (parts.length === 0) {
    const result = find(element, 'result');
    parts.push(`the result is ${result ? valueText(result.result) : element.result}`);
  }
  return parts.join('; ');
}

/** What one element is called: a lane of the arithmetic's x2 forms, an element of cvt's. */
function elementWord(form: Form): string {
  return form.family === 'convert' || form.family === 'matrix' ? 'element' : 'lane';
}

/** The sentence of an evaluation: one element's, or each one's ("lane 0: …. lane 1: …"). */
export function summaryOf(result: EvalResult): string {
  const form = findForm(result.form);
  if (!form) throw new Error(`not a catalog form: ${result.form}`);
  const sentences = result.elements.map((e) => elementSummary(form, e));
  if (sentences.length === 1) return sentences[0]!;
  const word = elementWord(form);
  if (sentences.every((s) => s === sentences[0]))
    return `${sentences.length === 2 ? 'both' : `all ${sentences.length}`} ${word}s: ${sentences[0]}`;
  return sentences.map((s, i) => `${word} ${i}: ${s}`).join('. ');
}

/** One binary32 instruction of a mixed fma's unfused sequence, as a result's sentence is read. */
export function stageSentence(stage: Binary32Stage, quantity: 'product' | 'sum'): string {
  switch (stage.case) {
    case 'nan-operand':
      return `a NaN operand gives the canonical NaN ${stage.result.bits}`;
    case 'invalid-0×∞':
      return `0 × ∞: invalid, canonical NaN ${stage.result.bits}`;
    case 'invalid-∞−∞':
      return `∞ − ∞: invalid, canonical NaN ${stage.result.bits}`;
    case 'infinity':
      return `an infinite operand gives ${valueText(stage.result)}`;
    case 'exact-zero':
      return `the exact ${quantity} is 0, which is ${valueText(stage.result)} by the sign rule`;
    case 'exact':
      return roundingSentence(
        stage.round!,
        quantity,
        stage.overflow ? { to: stage.overflow, result: stage.result } : undefined,
      );
  }
}

/** The unfused sequence in words: its product t, then its sum d, and what .sat did. */
export function unfusedSummary(sequence: UnfusedEvaluation): string {
  if (sequence.traces)
    return `t: ${summaryOf(sequence.traces.mul)}; d: ${summaryOf(sequence.traces.add)}`;
  const { product, sum, saturate } = sequence.binary32!;
  const sat = saturate ? `; .sat clamps it to ${valueText(saturate.after)}` : '';
  return `t: ${stageSentence(product, 'product')}; d: ${stageSentence(sum, 'sum')}${sat}`;
}
