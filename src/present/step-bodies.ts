/**
 * The words of every kind of step (src/engine/steps.ts, docs/trace.md) but the round step
 * (round-words.ts): a title and lines of parts, for the arithmetic and cvt alike. One table, typed
 * by the Step union: a kind without an entry is a compile error.
 */
import { elementWord } from './element-word.ts';
import type { ElementSpec, Form } from '../catalog/instruction.ts';
import {
  bitsView,
  FORMATS,
  maxNormBits,
  type BitsView,
  type FormatName,
} from '../engine/format.ts';
import type { ApproxEmptyReason, Step, StepKind } from '../engine/steps.ts';
import { MATRIX_BODIES } from './matrix-step-words.ts';
import { roundWords, type NumberLineWords } from './round-words.ts';
import { doubleText } from './numbers.ts';
import { quantityOf } from './summary.ts';
import {
  bits,
  code,
  exact,
  placeText,
  segment,
  term,
  text,
  value,
  type Line,
  type Part,
} from './word-parts.ts';

/** What a step's words need beyond the step: its form and which element of it. */
export interface StepContext {
  readonly form: Form;
  readonly element: ElementSpec;
  /** The format the steps inside a step round to, where it is not d's (a sequence's f32 sums). */
  readonly within?: FormatName;
}

/** A step of one kind (the union narrowed by its `kind`). */
export type StepOf<K extends StepKind> = Step & { readonly kind: K };

export interface StepBody {
  readonly title: Line;
  readonly lines: readonly Line[];
  readonly numberLine?: NumberLineWords;
}

/** The width of one of the form's registers. */
function registerBits(form: Form, name: string): number {
  return form.registers.find((r) => r.name === name)?.bits ?? 0;
}

const destOf = (ctx: StepContext): FormatName => ctx.within ?? ctx.element.dest.format;

/** A view without the fields an element read adds (operand, slot): only the value. */
const viewOnly = (v: BitsView): BitsView => ({
  format: v.format,
  bits: v.bits,
  class: v.class,
  value: v.value,
});

const maxNorm = (): Part => term('max-norm', 'MAX_NORM');
const canonicalNaN = (): Part => term('canonical-nan', 'canonical NaN');
const satfiniteTerm = (): Part => term('satfinite', '.satfinite');

/** "V → V", or "V, unchanged" when the bits stay. */
function change(before: BitsView, after: BitsView): Part[] {
  return before.bits === after.bits
    ? [value(before), text(', unchanged')]
    : [value(before), text(' → '), value(after)];
}

const binary = (hex: string, width: number) => BigInt(hex).toString(2).padStart(width, '0');

/** The bits of a slot outside its value: above a 6-bit value, below .tf32's 19 bits. */
function paddingRange(slot: ElementSpec['dest']['slot'], valueBits: ElementSpec['dest']['slot']) {
  return valueBits.hi < slot.hi
    ? { hi: slot.hi, lo: valueBits.hi + 1 }
    : { hi: valueBits.lo - 1, lo: slot.lo };
}

const widthOf = (r: { hi: number; lo: number }) => r.hi - r.lo + 1;

function inputsLines(step: StepOf<'inputs'>, ctx: StepContext): Line[] {
  const lines: Line[] = [];
  for (const o of step.operands) {
    const width = registerBits(ctx.form, o.operand);
    // A finite nonzero input also in binary, the significand the operation works with.
    const inBinary =
      o.class === 'normal' || o.class === 'subnormal' ? [text(' = '), code(o.value.binary)] : [];
    lines.push([
      code(placeText(o.operand, o.valueBits, width)),
      text(' = '),
      value(viewOnly(o)),
      ...inBinary,
    ]);
    if (o.padding === null) continue;
    const padding = paddingRange(o.slot, o.valueBits);
    const set = BigInt(o.padding) !== 0n;
    lines.push([
      code(placeText(o.operand, padding, width)),
      text(' is padding: '),
      bits(segment(binary(o.padding, widthOf(padding)), 'padding')),
      ...(set ? [text(' — not zero, and ignored: only the value bits are read')] : []),
    ]);
  }
  return lines;
}

function oobLine(step: StepOf<'oob-check'>, ctx: StepContext): Line {
  const held = step.oobOperands;
  if (held.length === 0)
    return [
      text('no operand holds the OOB-NaN pattern '),
      code(step.pattern),
      text(' (either sign)'),
    ];
  const which = text(
    `${held.join(' and ')} ${held.length === 1 ? 'holds' : 'hold'} the OOB-NaN pattern `,
  );
  return step.forcesZero
    ? [which, code(step.pattern), text(`: the ${elementWord(ctx.form)} result is +0`)]
    : [which, code(step.pattern), text('; only a and b are tested, so c is an ordinary NaN here')];
}

function specialBody(step: StepOf<'special'>, ctx: StepContext): StepBody {
  const dest = destOf(ctx);
  const result = step.result;
  switch (step.case) {
    case 'nan-operand':
      return {
        title: [text('NaN input')],
        lines: [
          result === null
            ? [text(`${dest} has no NaN: `), satfiniteTerm(), text(' decides, below')]
            : step.decision === 'canonical-nan' ||
                (step.decision === 'cvt-nan' && BigInt(result.bits) === FORMATS[dest].canonicalNaN)
              ? [text('the result is '), value(result), text(', the '), canonicalNaN()]
              : step.decision === 'cvt-nan'
                ? [text('the result is '), value(result), text(": the input's sign and payload")]
                : [text('the result is '), value(result)],
        ],
      };
    case 'invalid':
      return {
        title: [text('Invalid operation')],
        lines: [
          [
            code(step.detail ?? ''),
            text(' is invalid: the result is '),
            ...(result
              ? [value(result), text(', the '), canonicalNaN()]
              : [text('the '), canonicalNaN(), text(`, which ${dest} has none of`)]),
          ],
        ],
      };
    case 'infinity':
      return {
        title: [text('Infinite input')],
        lines: [
          result === null
            ? [
                text(`${dest} has no infinity: the input lies past its `),
                maxNorm(),
                text(', which '),
                satfiniteTerm(),
                text(' decides, below'),
              ]
            : [text('an infinite input gives '), value(result)],
        ],
      };
    case 'exact-zero':
      return {
        title: [text('Exact zero')],
        lines: [
          result === null
            ? [text(`the exact ${quantityOf(ctx.form)} is 0, and ${dest} has no zero`)]
            : [
                text(`the exact ${quantityOf(ctx.form)} is 0, which is `),
                value(result),
                text(' by the sign rule'),
              ],
        ],
      };
    case 'zero':
      return {
        title: [text('Zero input')],
        lines: [
          result === null
            ? [text(`${dest} has no zero: the next step says what it becomes`)]
            : [text('a zero converts to a zero of the same sign, '), value(result)],
        ],
      };
    case 'corner-case':
      return {
        title: [text('Special input')],
        lines: [
          [
            text("in the spec's table of special inputs: "),
            code(step.detail ?? ''),
            ...(result ? [text(', '), value(result)] : []),
          ],
        ],
      };
  }
}

function overflowLine(step: StepOf<'overflow'>): Line {
  const f = FORMATS[step.result.format];
  const sign = step.result.value.negative ? '-' : '+';
  const becomes =
    step.to === 'infinity'
      ? 'infinity (the rounding goes away from zero)'
      : step.to === 'max-norm'
        ? `${sign}MAX_NORM (the rounding goes toward zero)`
        : `NaN (${f.name} has no infinity)`;
  return [
    text(`the value lies past ${f.name}'s `),
    maxNorm(),
    text(' '),
    value(bitsView(maxNormBits(f), f)),
    text(`; under .${step.mode} it becomes ${becomes}: `),
    value(step.result),
  ];
}

const yesNo = (b: boolean) => (b ? 'yes' : 'no');

function tininessLines(step: StepOf<'tininess'>): Line[] {
  const f = FORMATS[step.result.format];
  const underflow = !step.inexact
    ? 'the result is exact: no underflow'
    : step.tinyAfterRounding
      ? 'inexact: underflow, whichever way tininess is judged'
      : 'inexact: underflow if tininess is judged before rounding, none if after';
  return [
    [
      text(
        `|exact| < 2^${f.emin}, the smallest normal. Tiny before rounding: ${yesNo(step.tinyBeforeRounding)}; after rounding (to ${f.manBits + 1} significant bit${f.manBits === 0 ? '' : 's'} with an unbounded exponent): ${yesNo(step.tinyAfterRounding)}`,
      ),
    ],
    [text(`${underflow}; the result is `), value(step.result)],
  ];
}

function flushResultLines(step: StepOf<'flush-result'>): Line[] {
  if (!step.tininess)
    return [[value(step.before), text(' becomes a zero of its sign, '), value(step.after)]];
  const after = step.tininess === 'after-rounding';
  const tiny = after ? step.tinyAfterRounding : step.tinyBeforeRounding;
  const other = after ? step.tinyBeforeRounding : step.tinyAfterRounding;
  const judged = `tininess judged ${after ? 'after' : 'before'} rounding: ${tiny ? 'tiny' : 'not tiny'} (${after ? 'before' : 'after'} rounding it is ${other ? 'tiny' : 'not tiny'})`;
  const action: Part[] = !tiny
    ? [text('kept: '), value(step.before)]
    : step.before.bits === step.after.bits
      ? [text('already a zero: '), value(step.after)]
      : [value(step.before), text(' is flushed to a zero of its sign, '), value(step.after)];
  return [[text(judged)], action];
}

function satfiniteLine(step: StepOf<'satfinite'>): Line {
  const after = step.after;
  switch (step.case) {
    case 'nan':
      return after.value.kind === 'nan'
        ? [text('a NaN stays NaN: '), value(after), text(', the '), canonicalNaN()]
        : [
            text(`a NaN, which ${after.format} cannot hold, becomes +`),
            maxNorm(),
            text(': '),
            value(after),
          ];
    case 'beyond-max-norm':
      return [
        ...(step.before
          ? [value(step.before), text(' lies past ')]
          : [text('the value lies past ')]),
        maxNorm(),
        text(`, so it becomes ${after.value.negative ? '-' : '+'}MAX_NORM: `),
        value(after),
      ];
    case 'in-range':
      return [
        ...(step.before ? [value(step.before)] : [text('the value')]),
        text(' is within ±MAX_NORM: unchanged'),
      ];
  }
}

const ORDER_SIGN = { less: '<', equal: '=', greater: '>' } as const;

function minmaxLines(step: StepOf<'minmax'>): Line[] {
  const result = value(step.result);
  const compared = [text('a = '), value(step.a), text(', b = '), value(step.b)];
  switch (step.branch) {
    case 'both-nan':
      return [compared, [text('both inputs are NaN → '), result]];
    case 'nan-modifier':
      return [
        compared,
        [
          term('nan', '.NaN'),
          text(' and an input is NaN → '),
          result,
          text(', the '),
          canonicalNaN(),
        ],
      ];
    case 'a-nan':
      return [compared, [text('a is NaN → the result is b, '), result]];
    case 'b-nan':
      return [compared, [text('b is NaN → the result is a, '), result]];
    case 'compare': {
      const { order, signedZeros } = step.comparison!;
      const sign = ORDER_SIGN[order];
      const why = signedZeros
        ? `a and b are zeros of different signs, equal in value; the spec orders -0 < +0: a ${sign} b`
        : `a ${sign} b`;
      const pick =
        order === 'equal'
          ? `; d = (a ${step.op === 'min' ? '<' : '>'} b) ? a : b takes b`
          : `, so ${step.op} is ${step.chosen}`;
      return [compared, [text(`${why}${pick} → `), result]];
    }
  }
}

const EMPTY_WORDS: Readonly<Record<ApproxEmptyReason, (format: FormatName) => string>> = {
  'subnormal-spacing': (format) =>
    `the exact value is below the smallest normal, where ${format} values are spaced wider than the bound`,
  'below-smallest-subnormal': (format) =>
    `the exact value is below the smallest ${format} subnormal, so every value, zero included, is further off than the bound`,
  'ftz-removes-subnormals': () =>
    'subnormal values would be within it, but .ftz writes no subnormal result',
};

function approxLines(step: StepOf<'approx'>): Line[] {
  const format = step.result.format;
  const fn = step.fn === 'tanh' ? 'tanh(x)' : '2^x';
  // Beyond 2^±1000 the value is the power itself ("2^65504"), else 17 significant digits.
  const power = step.mathValue.startsWith('2^');
  const math = [
    text('x = '),
    value(step.input),
    text(`: ${fn} ${power ? '=' : '≈'} `),
    code(power ? step.mathValue : doubleText(Number(step.mathValue))),
  ];
  const source: Line =
    step.model === 'measured'
      ? [
          text(`measured on ${step.measuredOn ?? 'hardware'}: `),
          value(step.result),
          ...(step.modelResult
            ? [text('; the model (correctly rounded) gives '), value(step.modelResult)]
            : []),
        ]
      : [text('the model (correctly rounded) gives '), value(step.result)];
  const bound = `${step.bound.kind} error ≤ 2^${step.bound.log2}`;
  const { count, lowest, highest, overflows, emptyBecause } = step.allowed;
  const view = (hex: string) => value(bitsView(BigInt(hex), FORMATS[format]));
  const infinity = overflows
    ? [text('; the infinity is one of them, as the exact value rounds past MAX_NORM')]
    : [];
  const allowed: Line =
    count === 0
      ? [
          text(
            `the spec allows ${bound}, which no ${format} value meets here: ${emptyBecause ? EMPTY_WORDS[emptyBecause](format) : 'none is within it'}`,
          ),
        ]
      : count === 1
        ? [
            text(`the spec allows ${bound}: one value qualifies, `),
            view(lowest),
            ...infinity,
            text('; hardware may return only that one'),
          ]
        : [
            text(
              `the spec allows ${bound}: ${count.toLocaleString('en-US')} values qualify, from `,
            ),
            view(lowest),
            text(' to '),
            view(highest),
            ...infinity,
            text('; hardware may return any of them'),
          ];
  return [math, source, allowed];
}

function resultLine(step: StepOf<'result'>, ctx: StepContext): Line {
  const width = registerBits(ctx.form, 'd');
  const slot = placeText('d', step.slot, width);
  const padded = step.slot.hi !== step.valueBits.hi || step.slot.lo !== step.valueBits.lo;
  if (!padded) return [code(slot), text(' = '), value(step.result)];
  const zeros = paddingRange(step.slot, step.valueBits);
  const all = binary(step.slotBits, widthOf(step.slot));
  const high = step.valueBits.hi < step.slot.hi;
  const split = high ? widthOf(zeros) : widthOf(step.valueBits);
  const [first, second] = [all.slice(0, split), all.slice(split)];
  return [
    code(`${slot} = ${step.slotBits}`),
    text(' ('),
    high
      ? bits(segment(first, 'zero'), segment(second, 'value'))
      : bits(segment(first, 'value'), segment(second, 'zero')),
    text('): the value '),
    value(step.result),
    text(` in ${placeText('d', step.valueBits, width)}, zeros in ${placeText('d', zeros, width)}`),
  ];
}

type Bodies = { readonly [K in StepKind]: (step: StepOf<K>, ctx: StepContext) => StepBody };

/** Every kind of step's words. */
export const STEP_BODIES: Bodies = {
  inputs: (step, ctx) => ({ title: [text('Inputs')], lines: inputsLines(step, ctx) }),
  'oob-check': (step, ctx) => ({
    title: [term('oob', '.oob'), text(' check')],
    lines: [oobLine(step, ctx)],
  }),
  'flush-input': (step) => ({
    title: [term('ftz', '.ftz'), text(` on input ${step.operand}`)],
    lines: [[value(step.before), text(' becomes a zero of its sign, '), value(step.after)]],
  }),
  convert: (step) => ({
    title: [text(`Convert ${step.operand} to ${step.after.format}`)],
    lines: [
      step.exact
        ? [value(step.before), text(' → '), value(step.after), text(', exactly')]
        : [
            value(step.before),
            text(' becomes '),
            value(step.after),
            text(', the '),
            canonicalNaN(),
            text('; its payload is not kept'),
          ],
    ],
  }),
  unsigned: (step, ctx) => {
    const dest = FORMATS[step.result?.format ?? destOf(ctx)];
    return step.what === 'drop-sign'
      ? {
          title: [text(`${dest.name} has no sign`)],
          lines: [[text('the magnitude of the input is converted')]],
        }
      : {
          title: [text(`${dest.name} has no zero`)],
          lines: [
            [
              text(
                `a zero, or a value that rounds below 2^${dest.emin}, gives its least value 2^${dest.emin}`,
              ),
              ...(step.result ? [text(': '), value(step.result)] : []),
            ],
          ],
        };
  },
  special: specialBody,
  exact: (step, ctx) => ({
    title: [text('Exact value')],
    lines: [
      [
        code(step.expression),
        text(' = '),
        exact(step.value),
        text(
          step.representable
            ? ` — a value of ${destOf(ctx)}`
            : ` — not a value of ${destOf(ctx)}: it is rounded`,
        ),
      ],
    ],
  }),
  round: (step) => roundWords(step),
  overflow: (step) => ({ title: [text('Overflow')], lines: [overflowLine(step)] }),
  tininess: (step) => ({ title: [text('Tiny result')], lines: tininessLines(step) }),
  'flush-result': (step) => ({
    title: [term('ftz', '.ftz'), text(' on the result')],
    lines: flushResultLines(step),
  }),
  satfinite: (step) => ({ title: [satfiniteTerm()], lines: [satfiniteLine(step)] }),
  saturate: (step) => ({
    title: [term('sat', '.sat')],
    lines: [[text('clamps to [0.0, 1.0] (NaN → +0): '), ...change(step.before, step.after)]],
  }),
  relu: (step) => ({
    title: [term('relu', '.relu')],
    lines: [
      [
        text('a negative value → +0, NaN → the '),
        canonicalNaN(),
        text(': '),
        ...change(step.before, step.after),
      ],
    ],
  }),
  negate: (step) => ({
    title: [text('Negate')],
    lines: [[text('the sign bit flips: '), ...change(step.before, step.after)]],
  }),
  absolute: (step) => ({
    title: [text('Absolute value')],
    lines: [[text('the sign bit is cleared: '), ...change(step.before, step.after)]],
  }),
  'abs-inputs': (step) => ({
    title: [term('xorsign-abs', '.xorsign.abs'), text(`: |${step.operand}|`)],
    lines: [
      [text(`the sign bit of ${step.operand} is cleared: `), ...change(step.before, step.after)],
    ],
  }),
  minmax: (step) => ({ title: [text(`${step.op}(a, b)`)], lines: minmaxLines(step) }),
  xorsign: (step) => ({
    title: [term('xorsign-abs', '.xorsign.abs'), text(': the sign')],
    lines: [
      [
        text(`the sign of a XOR the sign of b is ${step.sign}: `),
        ...change(step.before, step.after),
      ],
    ],
  }),
  approx: (step) => ({ title: [text(`${step.fn}.approx`)], lines: approxLines(step) }),
  result: (step, ctx) => ({ title: [text('Result')], lines: [resultLine(step, ctx)] }),
  ...MATRIX_BODIES,
};
