/**
 * The arithmetic cross-check against an external reference: every case's vectors go to the
 * reference in one batch before the tests, each case's answers are compared with the engine
 * (agreement.ts: fast path on all, traced on a sample) and must hold no unexpected difference.
 * A first test checks the reference itself on answers known by hand; after the suite a summary
 * prints one row per case.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crossCheck, describeFailures, describeOutcome, type CrossCase } from './agreement.ts';
import type { ReferenceRunner } from './reference-process.ts';

export interface CrossSuite {
  /** The describe block's name. */
  readonly name: string;
  /** Whether the reference's tool is here (the suite skips, saying so, when it is not). */
  readonly available: boolean;
  /** The reference, as the message of a missing answer names it ("numpy"). */
  readonly referenceName: string;
  readonly start: () => ReferenceRunner;
  /** Built only when the suite runs: the vectors are large. */
  readonly cases: () => CrossCase[];
  /** The first line of the summary. */
  readonly heading: () => string;
  /** The reference on vectors whose answers are known by hand, before any case relies on it. */
  readonly knownAnswers: {
    readonly name: string;
    readonly check: (reference: ReferenceRunner) => void;
  };
}

export function describeCrossSuite(suite: CrossSuite): void {
  describe.runIf(suite.available)(suite.name, () => {
    const all = suite.available ? suite.cases() : [];
    const results = new Map<string, Uint32Array>();
    const summary: string[] = [];
    let reference: ReferenceRunner;

    beforeAll(() => {
      reference = suite.start();
      const answers = reference(
        all.map((c) => ({ op: c.refOp, operands: c.referenceOperands ?? c.vectors.columns })),
      );
      all.forEach((c, i) => results.set(c.name, answers[i]!));
    });

    afterAll(() => console.log(`${suite.heading()}\n${summary.join('\n')}`));

    it(suite.knownAnswers.name, () => suite.knownAnswers.check(reference));

    for (const c of all) {
      it(c.name, () => {
        const answers = results.get(c.name);
        expect(answers, `${suite.referenceName} answered`).toBeDefined();
        const outcome = crossCheck(c, answers!);
        summary.push(describeOutcome(outcome));
        expect(
          outcome.unexpectedCount,
          `${describeOutcome(outcome)}\n${describeFailures(outcome)}`,
        ).toBe(0);
        expect(outcome.compared).toBeGreaterThan(0);
      });
    }
  });
}
