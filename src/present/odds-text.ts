/**
 * A stochastic rounding's odds in one line per element, for the result's summary: each
 * neighbour with its probability over every pattern of the random bits (engine/stochastic-odds.ts
 * reads them off the round step), and which one these random bits gave.
 */
import { innerSteps, type EvalResult, type RoundStep, type Step } from '../engine/steps.ts';
import { stochasticOdds, type NeighbourOdds } from '../engine/stochastic-odds.ts';
import { valueText, viewOf } from './values.ts';

/** A probability as its fraction of the random patterns and a decimal of two digits: "76/256 ≈ 0.30". */
export function oddsText(odds: NeighbourOdds, patterns: bigint): string {
  const p = Number(odds.patterns) / Number(patterns);
  return `${odds.patterns}/${patterns} ≈ ${p.toFixed(2)}`;
}

function roundSteps(steps: readonly Step[]): RoundStep[] {
  return steps.flatMap((s) => (s.kind === 'round' ? [s] : roundSteps(innerSteps(s))));
}

/**
 * "3 with p = 180/256 ≈ 0.70, 4 with p = 76/256 ≈ 0.30; these random bits gave 3", prefixed
 * "element 1: " where the result has several elements; one line per element a .rs rounding left
 * inexact, none for any other result.
 */
export function stochasticOddsLines(result: EvalResult): string[] {
  const several = result.elements.length > 1;
  return result.elements.flatMap((element) =>
    roundSteps(element.steps).flatMap((step) => {
      const odds = stochasticOdds(step);
      if (!odds) return [];
      const side = (n: NeighbourOdds) =>
        `${n.bits === null ? `past ${step.format}'s MAX_NORM` : valueText(viewOf(n.bits, step.format))} with p = ${oddsText(n, odds.patterns)}`;
      const gave =
        step.result === null
          ? `past ${step.format}'s MAX_NORM`
          : valueText(viewOf(step.result, step.format));
      const label = several ? `element ${element.index}: ` : '';
      return [
        `${label}${side(odds.towardZero)}, ${side(odds.awayFromZero)}; these random bits gave ${gave}`,
      ];
    }),
  );
}
