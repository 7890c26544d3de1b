/**
 * The words of a round step (steps.ts RoundStep): the mode, where the exact value is cut (kept
 * bits, guard, round, sticky at the result's ulp) or why there is no cut, .rs's addition of the
 * random bits, the two neighbours, and why the result is the one it took — for the arithmetic's
 * roundings and cvt's (.rna, .rs, the integer roundings) alike.
 */
import { isIntegerRounding, type Rounding } from '../catalog/modifiers.ts';
import { bitsView, FORMATS, maxNormBits, type BitsView } from '../engine/format.ts';
import type { RandomAddition, RoundStep } from '../engine/steps.ts';
import { stochasticOdds, type NeighbourOdds } from '../engine/stochastic-odds.ts';
import type { ExactValue } from '../engine/value.ts';
import { oddsText } from './odds-text.ts';
import { viewOf } from './values.ts';
import { bits, cite, segment, term, text, value, type Line, type Part } from './word-parts.ts';

/** What each rounding does, in the words of the spec's table of rounding modifiers. */
export const MODE_WORDS: Readonly<Record<Rounding, string>> = {
  rn: 'to nearest, ties to even',
  rna: 'to nearest, ties away from zero',
  rz: 'toward zero',
  rm: 'toward −∞',
  rp: 'toward +∞',
  rs: 'stochastic: toward or away from zero by the random bits',
  rni: 'to the nearest integer, ties to even',
  rzi: 'to an integer toward zero',
  rmi: 'to an integer toward −∞',
  rpi: 'to an integer toward +∞',
};

/** Why the result is the neighbour it is. */
function reasonWords(step: RoundStep): string {
  switch (step.reason) {
    case 'exact':
      return 'the value is representable: nothing to round';
    case 'below-half':
      return 'the dropped part is below half an ulp';
    case 'above-half':
      return 'the dropped part is above half an ulp';
    case 'tie-to-even':
      return isIntegerRounding(step.mode)
        ? 'exactly half way between two integers, a tie: to the even one'
        : 'exactly half an ulp, a tie: to the even neighbour';
    case 'tie-away':
      return 'exactly half an ulp, a tie: away from zero';
    case 'toward-zero':
      return `.${step.mode} rounds toward zero: the dropped bits are cut off`;
    case 'toward-plus-inf':
      return `.${step.mode} rounds toward +∞`;
    case 'toward-minus-inf':
      return `.${step.mode} rounds toward −∞`;
    case 'random-carry':
      return 'the random bits carry out: away from zero';
    case 'random-no-carry':
      return 'no carry out of the random bits: toward zero';
    case 'overflow-threshold':
      return '|exact| is at least MAX_NORM plus half an ulp, where rounding to nearest goes past MAX_NORM';
  }
}

const maxNorm = (): Part => term('max-norm', 'MAX_NORM');

/** MAX_NORM of a format as a value (positive). */
function maxNormView(step: RoundStep): BitsView {
  const f = FORMATS[step.format];
  return bitsView(maxNormBits(f), f);
}

function titleOf(step: RoundStep): Line {
  const into = isIntegerRounding(step.mode) ? `an integer in ${step.format}` : step.format;
  return [
    text(`Round to ${into} with `),
    step.mode === 'rs' ? term('rs', '.rs') : text(`.${step.mode}`),
    text(` (${MODE_WORDS[step.mode]})`),
  ];
}

/** The significand cut at the result's ulp, or why the format has no exponent for one. */
function cutLine(step: RoundStep): Line {
  const f = FORMATS[step.format];
  if (!step.cut)
    return [
      text(
        `|exact| is at least 2^${f.emax + 1}, past ${step.format}'s exponent range, so there are no kept bits to show: it lies beyond `,
      ),
      maxNorm(),
      text(' '),
      value(maxNormView(step)),
    ];
  const { kept, guard, round, sticky, ulpExponent } = step.cut;
  return [
    text('kept bits and '),
    term('grs', 'G R S'),
    text(' at the '),
    term('ulp', 'ulp'),
    text(` 2^${ulpExponent}: `),
    bits(
      segment(kept, 'kept', 'kept'),
      segment(String(guard), 'guard', 'G'),
      segment(String(round), 'round', 'R'),
      segment(String(sticky), 'sticky', 'S'),
    ),
  ];
}

/** .rs: the random bits added to the most significant dropped bits, and how many are dropped. */
function randomLines(random: RandomAddition): Line[] {
  const k = random.bits.length;
  const n = random.discardedCount;
  const count =
    n > k
      ? `${n} bits are dropped in all; the ${k} random bits are added to the top ${k} of them`
      : n < k
        ? `only ${n} bits are dropped; the random bits are added to them and the zeros below`
        : `${k} bits are dropped, and ${k} random bits are added to them`;
  return [
    [
      text('random bits '),
      bits(segment(random.bits, 'random')),
      text(' + dropped bits '),
      bits(segment(random.discarded, 'discarded')),
      text(' = '),
      bits(segment(random.sum.slice(0, 1), 'carry'), segment(random.sum.slice(1), 'sum')),
      text(`: carry out ${random.carry}, ${random.carry ? 'away from zero' : 'toward zero'}`),
    ],
    [text(count)],
  ];
}

/** .rs: how likely each neighbour is, over every pattern of the random bits. */
function oddsLines(step: RoundStep): Line[] {
  const odds = stochasticOdds(step);
  if (!odds) return [];
  const neighbour = (side: string, n: NeighbourOdds): Part[] => [
    text(`${side} `),
    n.bits === null ? text(`past ${maxNormName(step)}`) : value(viewOf(n.bits, step.format)),
    text(`, p = ${oddsText(n, odds.patterns)}`),
  ];
  return [
    [
      text(`over all ${odds.patterns} patterns of the random bits: `),
      ...neighbour('toward zero', odds.towardZero),
      text('; '),
      ...neighbour('away from zero', odds.awayFromZero),
    ],
  ];
}

function maxNormName(step: RoundStep): string {
  return `${step.format}'s MAX_NORM`;
}

/** The format's values on either side of the exact value, or the side it lacks. */
function neighboursLine(step: RoundStep): Line | null {
  if (step.lower === step.upper) return null;
  const f = FORMATS[step.format];
  if (step.lower !== null && step.upper !== null)
    return [
      text('between '),
      value(viewOf(step.lower, f.name)),
      text(' and '),
      value(viewOf(step.upper, f.name)),
    ];
  const known = (step.lower ?? step.upper)!;
  if ((BigInt(known) & ~f.signMask) === f.maxBits)
    return [
      text('beyond '),
      maxNorm(),
      text(' '),
      value(viewOf(known, f.name)),
      text(`, and ${f.name} has no infinity`),
    ];
  return [
    text(`below ${f.name}'s least value `),
    value(viewOf(known, f.name)),
    text(`, and ${f.name} has no zero`),
  ];
}

/** Why, which way, and the result (or what lies past the format's values). */
function outcomeLine(step: RoundStep): Line {
  const f = FORMATS[step.format];
  if (step.direction === 'exact' && step.result !== null)
    return [text(`${reasonWords(step)} → `), value(viewOf(step.result, f.name))];
  const why: Part[] = [text(reasonWords(step))];
  if (step.reason === 'overflow-threshold')
    why.push(text(' ('), cite('ieee-754', '4.3.1'), text(')'));
  const way = text(
    `; rounded ${step.direction === 'up' ? 'up' : 'down'} (${step.magnitude} magnitude), inexact → `,
  );
  if (step.result === null) {
    const belowLeast = !f.hasZero && step.lower === null;
    const nowhere: Part[] = belowLeast
      ? [text(`below ${f.name}'s least value: the next step says what it becomes`)]
      : [text('past '), maxNorm(), text(': the next step says what it becomes')];
    return [...why, way, ...nowhere];
  }
  // A subnormal result says so in its value's note.
  return [...why, way, value(viewOf(step.result, f.name))];
}

/** Where the page's number line puts the exact value: between two values of the format. */
export interface NumberLineWords {
  readonly lower: BitsView;
  readonly upper: BitsView;
  readonly exact: ExactValue;
  /** The rounded value; null past MAX_NORM (the next step settles it). */
  readonly result: BitsView | null;
  readonly took: 'lower' | 'upper' | null;
}

export function numberLineOf(step: RoundStep): NumberLineWords | undefined {
  if (step.lower === null || step.upper === null || step.lower === step.upper) return undefined;
  return {
    lower: viewOf(step.lower, step.format),
    upper: viewOf(step.upper, step.format),
    exact: step.exact,
    result: step.result === null ? null : viewOf(step.result, step.format),
    took: step.result === step.lower ? 'lower' : step.result === step.upper ? 'upper' : null,
  };
}

/** A round step's title and lines, and its number line where it has two neighbours. */
export function roundWords(step: RoundStep): {
  title: Line;
  lines: Line[];
  numberLine?: NumberLineWords;
} {
  const neighbours = neighboursLine(step);
  const lines = [
    cutLine(step),
    ...(step.random ? randomLines(step.random) : []),
    ...(neighbours ? [neighbours] : []),
    ...oddsLines(step),
    outcomeLine(step),
  ];
  const numberLine = numberLineOf(step);
  return { title: titleOf(step), lines, ...(numberLine ? { numberLine } : {}) };
}
