import type { SweepProblem } from '../engine/analysis/sweep-request.ts';

/**
 * Why a sweep cannot be run as asked, in words: for the sweep panel, and for a link's sweep range
 * that is ignored. Apart from the analysis' other words (analysis-words.ts), which load with the
 * panels.
 */

const count = (n: number) => n.toLocaleString('en-US');

/** Why a sweep cannot be run as asked. */
export function sweepProblemWords(problem: SweepProblem): string {
  switch (problem.code) {
    case 'unknown-form':
      return `not a catalog form: ${problem.form}`;
    case 'not-single-input':
      return `${problem.form} is not swept: a sweep takes cvt, tanh, ex2, neg and abs, whose elements have one input`;
    case 'too-many-patterns':
      return `.${problem.format} has ${problem.width}-bit values: sweep a range of them (at most ${count(problem.maxValues)})`;
    case 'range-needs-f32-or-f64':
      return `a range sweep reads .f32 or .f64 values; ${problem.form} reads .${problem.format} (sweep every pattern)`;
    case 'range-not-finite':
      return 'the range needs finite bounds';
    case 'range-empty':
      return `the range's lower bound (${problem.from}) must be below its upper bound (${problem.to})`;
    case 'range-count':
      return `the number of values must be ${count(problem.min)} … ${count(problem.max)}; got ${problem.count}`;
    case 'rbits':
      return `rbits must be a 32-bit pattern; got ${typeof problem.rbits === 'bigint' ? `0x${problem.rbits.toString(16)}` : String(problem.rbits)}`;
  }
}
