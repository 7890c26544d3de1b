import { describe, expect, it } from 'vitest';
import { findForm, FORMS } from '../catalog/all-forms.ts';
import {
  CASE_OUTCOMES,
  cornerTable,
  formatFacts,
  NAMED_VALUE_IDS,
  sweepProblem,
  type SweepProblem,
} from '../engine/analysis/index.ts';
import {
  caseWords,
  nanWords,
  NAMED_VALUE_WORDS,
  namedValueWords,
  outcomeWords,
} from './analysis-words.ts';
import { sweepProblemWords } from './sweep-problem-words.ts';

const form = (text: string) => findForm(text)!;

describe('the words of the analyses', () => {
  it('name each special value once, as the quick picks do', () => {
    const words = NAMED_VALUE_IDS.map((id) => NAMED_VALUE_WORDS[id]);
    expect(new Set(words).size).toBe(words.length);
    expect(words.slice(0, 5)).toEqual([
      '+0',
      '-0',
      '+min subnormal',
      '-min subnormal',
      '+max subnormal',
    ]);
    expect(namedValueWords('+max-norm', 'bf16')).toBe('+max finite');
    expect(namedValueWords('+least-normal', 'ue8m0')).toBe('least value (2^-127)');
    expect(namedValueWords('+least-normal', 'e4m3')).toBe('+min normal');
  });

  it('name the cases of a conversion by what they are to the destination', () => {
    const cvt = form('cvt.rn.satfinite.e4m3x2.f32');
    const names = cornerTable(cvt).rows.map((r) => caseWords(r.inputs[0]!.case, cvt));
    expect(names).toContain('MAX_NORM of .e4m3');
    expect(names).toContain('half an ulp past MAX_NORM of .e4m3 (a tie: the .rn threshold)');
    expect(names).toContain('least subnormal of .f32');
    expect(names).toContain('1');
    expect(names).toContain('1.5 (above 1: .sat clamps it)');
    const integer = form('cvt.rni.f16.f16');
    expect(caseWords('+one-and-half', integer)).toBe('1.5 (a tie between 1 and 2)');
    // Every row of every table has a name, and no table names two rows alike.
    for (const f of FORMS.filter((_, i) => i % 5 === 0)) {
      const rows = cornerTable(f).rows;
      const named = rows.map((r) => r.inputs.map((x, i) => caseWords(x.case, f, i)).join(' | '));
      expect(new Set(named).size, f.text).toBe(rows.length);
    }
  });

  it('word every outcome tag, a conversion by its own rules', () => {
    const arithmetic = outcomeWords(form('fma.rn.f16'));
    const conversion = outcomeWords(form('cvt.rna.satfinite.tf32.f32'));
    for (const tag of CASE_OUTCOMES) {
      expect(arithmetic[tag].mark.length).toBeGreaterThan(0);
      expect(conversion[tag].filter.length).toBeGreaterThan(0);
    }
    expect(arithmetic.clamp.filter).toBe('clamped (.sat or .relu)');
    expect(conversion.clamp.filter).toBe('clamped (.satfinite, .sat or .relu)');
    expect(conversion.tie.filter).toBe('a tie, half way between two values');
  });

  it('say why a sweep cannot run, for every problem', () => {
    const f32 = form('cvt.rn.f16.f32');
    const problems: SweepProblem[] = [
      { code: 'unknown-form', form: 'nonsense' },
      sweepProblem(form('add.f16'), { kind: 'every-pattern' })!,
      sweepProblem(f32, { kind: 'every-pattern' })!,
      sweepProblem(form('cvt.rn.f16x2.e4m3x2'), { kind: 'range', from: 0, to: 1, count: 9 })!,
      sweepProblem(f32, { kind: 'range', from: 0, to: Infinity, count: 9 })!,
      sweepProblem(f32, { kind: 'range', from: 1, to: 1, count: 9 })!,
      sweepProblem(f32, { kind: 'range', from: 0, to: 1, count: 1 })!,
      sweepProblem(form('cvt.rs.satfinite.e4m3x4.f32'), { kind: 'every-pattern' }, 2n ** 32n)!,
    ];
    expect(new Set(problems.map((p) => p.code)).size).toBe(problems.length);
    expect(problems.map(sweepProblemWords)).toEqual([
      'not a catalog form: nonsense',
      'add.f16 is not swept: a sweep takes cvt, tanh, ex2, neg and abs, whose elements have one input',
      '.f32 has 32-bit values: sweep a range of them (at most 1,048,576)',
      'a range sweep reads .f32 or .f64 values; cvt.rn.f16x2.e4m3x2 reads .e4m3 (sweep every pattern)',
      'the range needs finite bounds',
      "the range's lower bound (1) must be below its upper bound (1)",
      'the number of values must be 2 … 1,048,576; got 1',
      'rbits must be a 32-bit pattern; got 0x100000000',
    ]);
  });

  it('say which patterns are NaN', () => {
    expect(nanWords(formatFacts('f16'))).toBe('exponent all ones, mantissa nonzero');
    expect(nanWords(formatFacts('e4m3'))).toBe('only 0x7f and 0xff');
    expect(nanWords(formatFacts('ue4m3'))).toBe('only 0x7f');
    expect(nanWords(formatFacts('e2m1'))).toBe('none');
  });
});
