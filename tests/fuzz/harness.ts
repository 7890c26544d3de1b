/**
 * Runs a fuzz target: generates `count` inputs from a seed, feeds each to the code under test and
 * checks the answer's shape. A case fails when the code throws, answers something that is neither
 * a result nor a structured error, or takes longer than the per-case bound.
 */
import { Rng } from './random.ts';

export interface FuzzTarget<I = unknown> {
  readonly name: string;
  /** What is fuzzed, for the report. */
  readonly covers: string;
  generate(rng: Rng): I;
  /** One-time work (e.g. filling caches) done before the timed cases, so it is not billed to one. */
  prepare?(): void;
  /** null when the answer is acceptable, else what is wrong with it. May be async. */
  check(input: I, index: number): string | null | Promise<string | null>;
}

export interface FuzzFailure {
  readonly index: number;
  readonly input: string;
  readonly problem: string;
}

export interface FuzzReport {
  readonly target: string;
  readonly covers: string;
  readonly seed: number;
  readonly cases: number;
  readonly failures: number;
  /** The first few failures, with their inputs shortened for printing. */
  readonly examples: readonly FuzzFailure[];
  readonly slowestMs: number;
  readonly totalMs: number;
}

/** A case that takes longer than this fails (generous: CI machines are shared and slow). */
export const CASE_TIME_LIMIT_MS = 2000;

function preview(input: unknown): string {
  let text: string;
  try {
    text = typeof input === 'string' ? input : JSON.stringify(input);
  } catch {
    text = String(input);
  }
  text ??= String(input);
  const shown = text.length > 200 ? `${text.slice(0, 200)}… (${text.length} chars)` : text;
  return JSON.stringify(shown);
}

/** Regenerates input `index` of a run (generation is deterministic from the seed). */
export function inputAt<I>(target: FuzzTarget<I>, seed: number, index: number): I {
  const rng = new Rng(seed);
  let input = target.generate(rng);
  for (let i = 0; i < index; i++) input = target.generate(rng);
  return input;
}

export { preview as previewInput };

/** `onCase` hears each case's index before it runs (a watchdog uses it to spot a hang). */
export async function runTarget<I>(
  target: FuzzTarget<I>,
  count: number,
  seed: number,
  onCase?: (index: number) => void,
): Promise<FuzzReport> {
  target.prepare?.();
  const rng = new Rng(seed);
  const examples: FuzzFailure[] = [];
  let failures = 0;
  let slowestMs = 0;
  const started = performance.now();
  const fail = (index: number, input: I, problem: string) => {
    failures++;
    if (examples.length < 5) examples.push({ index, input: preview(input), problem });
  };
  for (let index = 0; index < count; index++) {
    const input = target.generate(rng);
    onCase?.(index);
    const t0 = performance.now();
    let problem: string | null;
    try {
      const answer = target.check(input, index);
      problem = typeof answer === 'object' && answer !== null ? await answer : answer;
    } catch (e) {
      problem = `threw ${e instanceof Error ? `${e.name}: ${e.message}` : String(e)}`;
    }
    const ms = performance.now() - t0;
    if (ms > slowestMs) slowestMs = ms;
    if (problem === null && ms > CASE_TIME_LIMIT_MS)
      problem = `took ${ms.toFixed(0)} ms (limit ${CASE_TIME_LIMIT_MS} ms)`;
    if (problem !== null) fail(index, input, problem);
  }
  return {
    target: target.name,
    covers: target.covers,
    seed,
    cases: count,
    failures,
    examples,
    slowestMs: Math.round(slowestMs * 10) / 10,
    totalMs: Math.round(performance.now() - started),
  };
}
