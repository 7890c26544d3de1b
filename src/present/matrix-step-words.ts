/**
 * The words of a tensor core's steps (src/engine/steps.ts `tensor-model`, `fused`, `fma`,
 * `terms`, `align`, `sum`, and a block-scaled form's `block-scale`; docs/trace.md): the model
 * the target's architecture follows and its sources, each fused step or fma link, the terms as significand × 2^exponent, what each term
 * lost when it was lined up with 2^E and cut, and the exact sums. step-bodies.ts puts them in the
 * one table of every kind's words; a fused step's and an fma link's own steps are described one
 * by one (step-words.ts).
 */
import { TENSOR_CORE_SOURCES } from '../catalog/tensor-core-models.ts';
import type { AlignedTerm, DotTerm, SequenceOperand, Step } from '../engine/steps.ts';
import type { ExactValue } from '../engine/value.ts';
import { exactText } from './numbers.ts';
import { bits, code, exact, segment, text, value, type Line, type Part } from './word-parts.ts';

type Of<K extends Step['kind']> = Step & { readonly kind: K };

interface Body {
  readonly title: Line;
  readonly lines: readonly Line[];
}

/** "a_3·b_3" for a product term, "c" for the accumulator. */
function termName(t: { readonly source: 'c' | 'product'; readonly index: number }): string {
  return t.source === 'c' ? 'c' : `a_${t.index}·b_${t.index}`;
}

/** "0.25 ulp", "-3 ulps": an exact count of units in the last place. */
function ulpsOf(v: ExactValue): string {
  const written = v.kind === 'finite' && /^-?0$/.test(v.decimal) ? '0' : exactText(v);
  return `${written} ${written === '1' || written === '-1' ? 'ulp' : 'ulps'}`;
}

const sourcesLine = (ids: Of<'tensor-model'>['sources']): Line => [
  text('the model as published in: '),
  text(
    ids
      .map((id) => {
        const s = TENSOR_CORE_SOURCES[id];
        return `${s.authors}, "${s.title}", ${s.venue} (${s.year}; measured ${s.measured})`;
      })
      .join('; '),
  ),
];

/** A measured sequence in a line, as the decision states it. */
export const SEQUENCE_WORDS = {
  'products-then-c':
    'the products added one after another in f32 from +0, each addition rounded to nearest even, then c: d = ((((+0 + p0) + p1) + p2) + p3) + c',
  'pairs-then-c':
    'f32 additions, each rounded to nearest even, in the order (c + (p0 + p1)) + (p2 + p3), the last sum rounded to f16 to nearest even',
} as const;

function tensorModel(step: Of<'tensor-model'>): Body {
  const title = [text(`Tensor-core model: ${step.name} (${step.target})`)];
  if (step.sequence)
    return {
      title: [text(`Tensor-core model: ${step.name}, as measured on this form (${step.target})`)],
      lines: [
        [text(`measured on an ${step.sequence.measuredOn}: ${SEQUENCE_WORDS[step.sequence.kind]}`)],
        [
          text(
            `p_i = a_i·b_i exactly; not the published fused step (capture ${step.sequence.capture})`,
          ),
        ],
      ],
    };
  if (step.fused === null)
    return {
      title,
      lines: [
        [
          text(
            `f64: a chain of fused multiply-adds in order, d = fma(a_i, b_i, d) from d = c, each rounded .${step.chain?.mode ?? 'rn'}`,
          ),
        ],
        sourcesLine(step.sources),
      ],
    };
  const { alignmentBits, halves, result } = step.fused;
  const mode = result.mode === 'rz' ? 'toward zero (truncation)' : 'to nearest even';
  return {
    title,
    lines: [
      [
        text(
          halves
            ? 'k is split in two halves, each one fused sum whose rounded result is the next half’s c'
            : 'every product and c in one fused sum',
        ),
      ],
      [
        text(
          `each term is lined up with the largest exponent E and cut toward zero to n = ${alignmentBits} fractional bits; the cut terms are added exactly`,
        ),
      ],
      [
        text(
          `the sum is rounded once to ${result.format}, ${mode}, keeping ${result.fractionBits} fraction bits`,
        ),
      ],
      sourcesLine(step.sources),
    ],
  };
}

function fused(step: Of<'fused'>): Body {
  const { from, to } = step.products;
  const part = step.parts > 1 ? `Fused sum, half ${step.part + 1} of ${step.parts}` : 'Fused sum';
  return {
    title: [text(`${part}: c + a_${from}·b_${from} + … + a_${to}·b_${to}`)],
    lines: [
      [text(step.cFrom === 'operand' ? 'c = ' : 'c = the first half’s result, '), value(step.c)],
      [text(`${step.steps.length} steps below give `), value(step.result)],
    ],
  };
}

function fmaLink(step: Of<'fma'>): Body {
  return {
    title: [text(`fma ${step.index}: d = a_${step.index} × b_${step.index} + d`)],
    lines: [
      [text('a = '), value(step.a), text(', b = '), value(step.b)],
      [text('d = '), value(step.accumulator), text(' → '), value(step.result)],
    ],
  };
}

/** "a_2·b_2", "c", "+0", "s1" (the result of addition 1). */
function operandName(o: SequenceOperand): string {
  switch (o.source) {
    case 'product':
      return `a_${o.index}·b_${o.index}`;
    case 'c':
      return 'c';
    case 'zero':
      return '+0';
    case 'sum':
      return `s${o.index}`;
  }
}

function operandLine(o: SequenceOperand): Line {
  return [
    code(operandName(o)),
    text(' = '),
    o.source === 'product' ? exact(o.value) : value(o.value),
  ];
}

function sequenceAdd(step: Of<'sequence-add'>): Body {
  const [x, y] = step.terms;
  return {
    title: [
      text(
        `Addition ${step.index}: s${step.index} = ${operandName(x)} + ${operandName(y)}, rounded to f32`,
      ),
    ],
    lines: [operandLine(x), operandLine(y), [text(`s${step.index} = `), value(step.result)]],
  };
}

function termLine(t: DotTerm): Line {
  if (t.zero) return [code(termName(t)), text(' = 0, counted at exponent '), code(`${t.exponent}`)];
  const sign = t.value.negative ? '-' : '';
  return [
    code(termName(t)),
    text(' = '),
    code(`${sign}${t.significandBits} × 2^${t.exponent}`),
    text(' = '),
    exact(t.value),
  ];
}

function terms(step: Of<'terms'>): Body {
  const at = step.atLargest.map((i) => termName(step.terms[i]!)).join(', ');
  return {
    title: [text('Terms as significand × 2^exponent')],
    lines: [
      ...step.terms.map(termLine),
      [text(`the largest exponent E = ${step.largestExponent}, reached by `), code(at)],
    ],
  };
}

function alignLine(t: AlignedTerm): Line {
  const cut: Part[] =
    t.cutBits.bits === ''
      ? [text(', nothing cut')]
      : [
          text(', cut '),
          bits(segment(t.cutBits.bits, 'discarded')),
          text(` (from 2^${t.cutBits.top} down) = `),
          exact(t.cut),
          text(` = ${ulpsOf(t.cutUlps)}`),
        ];
  return [
    code(termName(t)),
    text(` shifted right ${t.shift}: kept `),
    bits(segment(t.keptBits, 'kept')),
    text(' = '),
    exact(t.kept),
    ...cut,
  ];
}

function align(step: Of<'align'>): Body {
  return {
    title: [text(`Line up with 2^E, keep ${step.alignmentBits} fractional bits, cut toward zero`)],
    lines: [
      [
        text(
          `every kept term is a multiple of 2^${step.quantumExponent}; one ulp of the result is 2^${step.ulpExponent}`,
        ),
      ],
      ...step.terms.map(alignLine),
    ],
  };
}

function sum(step: Of<'sum'>): Body {
  const n = step.normalisation;
  const normalised: Line =
    n === null
      ? [text('the cut terms add up to exactly 0')]
      : [
          text(
            n.shift > 0
              ? `the sum's leading bit is at 2^${n.exponent}: a carry ${n.shift} above 2^E`
              : n.shift < 0
                ? `the sum's leading bit is at 2^${n.exponent}: cancellation, ${-n.shift} below 2^E`
                : `the sum's leading bit is at 2^${n.exponent} = 2^E`,
          ),
        ];
  return {
    title: [text('Exact sum')],
    lines: [
      [text('Σ cut terms = '), exact(step.kept), text(' (what is rounded)')],
      [text('Σ terms, uncut = '), exact(step.exact)],
      [text('the cuts lost '), exact(step.lost), text(` = ${ulpsOf(step.lostUlps)} of the result`)],
      normalised,
    ],
  };
}

const SPECIAL_WORDS: Record<NonNullable<Of<'block-scale'>['special']>, string> = {
  'nan-scale': 'a scale is NaN: d = 0x7FFFFFFF',
  'nan-c': 'c is NaN: d = 0x7FFFFFFF',
  'nan-operand': 'an element is NaN: d is the canonical NaN',
  invalid: '∞ × 0, or +∞ and −∞ among the terms: d is the canonical NaN',
  infinity: 'an infinite term: d is that infinity',
};

/** "a_3·b_3·SF", "group 1 (a_16…a_31)·SF", "c". */
function blockTermName(t: Of<'block-scale'>['terms'][number]): string {
  if (t.source === 'c') return 'c';
  if (t.source === 'product') return `a_${t.index}·b_${t.index}·SF_A·SF_B`;
  return `G_${t.index}·SF_A·SF_B`;
}

function blockScale(step: Of<'block-scale'>): Body {
  const chunks = step.scales.length;
  const scaleLines: Line[] = step.scales.map((s, j) => [
    text(`chunk ${j} (elements ${j * step.chunk}…${(j + 1) * step.chunk - 1}): SF_A = `),
    value(s.a),
    text(', SF_B = '),
    value(s.b),
  ]);
  const title = [
    text(
      `Block scaling: .kind::${step.blockKind}, .scale_vec::${step.scaleVec} (${chunks} scale${chunks > 1 ? 's' : ''} each, ${step.chunk} elements per scale)`,
    ),
  ];
  if (step.special !== null)
    return {
      title,
      lines: [
        ...scaleLines,
        [text(SPECIAL_WORDS[step.special])],
        [text('d = '), value(step.result)],
      ],
    };
  const groupLines: Line[] = step.groups.map((g, j) => [
    code(`G_${j}`),
    text(` = Σ a_i·b_i for i = ${16 * j}…${16 * j + 15}, exactly: `),
    exact(g),
  ]);
  const termLines: Line[] = step.terms.map((t) => [
    code(blockTermName(t)),
    text(' = '),
    exact(t.value),
    text(` at 2^${t.exponent}, kept `),
    exact(t.kept),
  ]);
  return {
    title,
    lines: [
      ...scaleLines,
      ...groupLines,
      ...termLines,
      [
        text(
          `the largest exponent E = ${step.largestExponent}; each term cut toward zero to a multiple of 2^${(step.largestExponent ?? 0) - step.alignmentBits} (n = ${step.alignmentBits})`,
        ),
      ],
      [text('Σ cut terms = '), exact(step.kept), text(' (what is rounded)')],
      [text('Σ terms, uncut = '), exact(step.exact)],
      [text('rounded toward zero to f32: d = '), value(step.result)],
    ],
  };
}

/** The words of every tensor-core step kind. */
export const MATRIX_BODIES = {
  'block-scale': blockScale,
  'tensor-model': tensorModel,
  fused,
  fma: fmaLink,
  'sequence-add': sequenceAdd,
  terms,
  align,
  sum,
} as const;
