/**
 * The odds of a stochastic rounding (.rs): over all 2^k patterns of its k random bits, how many
 * round the exact value to each neighbour. PTX's .rs adds the random bits to the k most
 * significant discarded bits and keeps the carry (9.7.9.21, rounding.ts 'rs'), so with D those
 * discarded bits as an integer, exactly D patterns carry (away from zero) and 2^k − D do not:
 *
 *   P(away from zero) = D / 2^k        P(toward zero) = (2^k − D) / 2^k
 *
 * A view of the round step's own data (steps.ts RandomAddition), never a second rounding.
 */
import type { RoundStep } from './steps.ts';

export interface NeighbourOdds {
  /** The neighbour's bits (hex), null where the format has no value there (past MAX_NORM). */
  readonly bits: string | null;
  /** How many of the 2^k random patterns round to it. */
  readonly patterns: bigint;
}

export interface StochasticOdds {
  /** 2^k: every pattern of the k random bits. */
  readonly patterns: bigint;
  readonly towardZero: NeighbourOdds;
  readonly awayFromZero: NeighbourOdds;
}

/** The odds of a .rs round step; undefined for any other rounding, or an exact value. */
export function stochasticOdds(step: RoundStep): StochasticOdds | undefined {
  const random = step.random;
  if (!random || !step.inexact) return undefined;
  const patterns = 1n << BigInt(random.bits.length);
  const carrying = BigInt(`0b${random.discarded}`);
  // The neighbour of larger magnitude is the upper one of a positive value, the lower of a negative.
  const negative = step.exact.negative;
  const away = negative ? step.lower : step.upper;
  const toward = negative ? step.upper : step.lower;
  return {
    patterns,
    towardZero: { bits: toward, patterns: patterns - carrying },
    awayFromZero: { bits: away, patterns: carrying },
  };
}
