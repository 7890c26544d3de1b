/**
 * min and max (9.7.4.7, 9.7.4.8), following the spec's pseudo-code line by line:
 *
 *   if (.xorsign) { xorsign = getSignBit(a) ^ getSignBit(b); if (.abs) { a = |a|; b = |b|; } }
 *   if (isNaN(a) && isNaN(b))              d = NaN;
 *   if (.NaN && (isNaN(a) || isNaN(b)))    d = NaN;
 *   else if (isNaN(a))                     d = b;
 *   else if (isNaN(b))                     d = a;
 *   else                                   d = (a < b) ? a : b;      // max: (a > b)
 *   if (.xorsign && !isNaN(d)) setSignBit(d, xorsign);
 */
import { laneFormat } from '../../catalog/forms.ts';
import { FORMATS, isNaNBits, magnitudeOf, signOf, toDouble, type FloatFormat } from '../formats.ts';
import { has, rule, type LaneContext, type LaneInput, type LaneOutput } from '../lane.ts';
import { canonicalNaN, flushInput } from '../specialize.ts';
import type { Step } from '../trace.ts';
import { inputsStep, resultStep } from './common.ts';

/** a < b on non-NaN values, with -0.0 < +0.0 ("If values of both inputs are 0.0, then +0.0 > -0.0"). */
export function lessThan(a: number, b: number, f: FloatFormat): boolean {
  const x = toDouble(a, f);
  const y = toDouble(b, f);
  if (x === 0 && y === 0) return signOf(a, f) === 1 && signOf(b, f) === 0;
  return x < y;
}

export function minMaxLane(ctx: LaneContext, input: LaneInput): LaneOutput {
  const { form } = ctx;
  const f = FORMATS[laneFormat(form.type)];
  const isMin = form.opcode === 'min';
  const steps: Step[] = [inputsStep(form, input, () => f)];
  let a = input.a;
  let b = input.b;
  if (has(form, 'ftz')) {
    const r = rule(form, '.ftz flushes subnormal inputs and results to sign-preserving zero');
    a = flushInput('a', a, f, r, steps);
    b = flushInput('b', b, f, r, steps);
  }
  const xorsign = has(form, 'xorsign.abs');
  let sign: 0 | 1 = 0;
  if (xorsign) {
    sign = (signOf(a, f) ^ signOf(b, f)) as 0 | 1;
    const r = rule(
      form,
      '.xorsign considers the sign bit of both inputs before applying .abs operation',
    );
    for (const [name, v] of [
      ['a', a],
      ['b', b],
    ] as const) {
      const abs = magnitudeOf(v, f);
      if (abs !== v)
        steps.push({
          kind: 'abs-inputs',
          operand: name,
          format: f.name,
          before: v,
          after: abs,
          rule: r,
        });
    }
    a = magnitudeOf(a, f);
    b = magnitudeOf(b, f);
  }

  const nan = canonicalNaN(f);
  const aNaN = isNaNBits(a, f);
  const bNaN = isNaNBits(b, f);
  let d: number;
  let branch: 'both-nan' | 'nan-modifier' | 'a-nan' | 'b-nan' | 'compare';
  if (aNaN && bNaN) {
    d = nan;
    branch = 'both-nan';
  } else if (has(form, 'NaN') && (aNaN || bNaN)) {
    d = nan;
    branch = 'nan-modifier';
  } else if (aNaN) {
    d = b;
    branch = 'a-nan';
  } else if (bNaN) {
    d = a;
    branch = 'b-nan';
  } else {
    d = isMin ? (lessThan(a, b, f) ? a : b) : lessThan(b, a, f) ? a : b;
    branch = 'compare';
  }
  steps.push({
    kind: 'minmax',
    op: isMin ? 'min' : 'max',
    format: f.name,
    a,
    b,
    branch,
    result: d,
    rule: rule(form, branchRule(branch, isMin)),
    ...(branch === 'both-nan' ? { decision: 'minmax-both-nan' as const } : {}),
  });

  if (xorsign && !isNaNBits(d, f)) {
    const after = magnitudeOf(d, f) + (sign ? f.signMask : 0);
    const typo = !isMin && form.type.endsWith('x2');
    steps.push({
      kind: 'xorsign',
      sign,
      format: f.name,
      before: d,
      after,
      rule: rule(
        form,
        'If .xorsign modifier is specified, the sign bit of destination d is equal to the XOR of the sign bits of both the inputs.',
      ),
      ...(typo ? { decision: 'max-x2-xorsign-typo' as const } : {}),
    });
    d = after;
  }
  steps.push(resultStep(form, d, f));
  return { result: d, steps };
}

function branchRule(branch: string, isMin: boolean): string {
  switch (branch) {
    case 'both-nan':
      return 'if (isNaN(a) && isNaN(b)) d = NaN;';
    case 'nan-modifier':
      return 'If .NaN modifier is specified, then the result is canonical NaN if either of the inputs is NaN.';
    case 'a-nan':
      return 'else if (isNaN(a)) d = b;';
    case 'b-nan':
      return 'else if (isNaN(b)) d = a;';
    default:
      return `else d = (a ${isMin ? '<' : '>'} b) ? a : b;  (If values of both inputs are 0.0, then +0.0 > -0.0.)`;
  }
}
