/**
 * Fuzzing in CI: 100,000 cases per target (PTX parser, value parser, operand bit parsers, URL
 * decoder, ptxf batch, ptxf eval arguments), each a result or a structured error, no exception,
 * each case bounded in time. `npm run fuzz -- 1000000` runs the same targets longer.
 */
import { describe, expect, it } from 'vitest';
import { FUZZ_RUNS } from './targets.ts';

const CASES = 100_000;
const SEED = 20261122;

describe('fuzz', () => {
  for (const target of FUZZ_RUNS) {
    it(`${target.name}: ${CASES} cases, every answer a result or a structured error`, async () => {
      const report = await target.run(CASES, SEED);
      console.log(
        `fuzz ${report.target}: ${report.cases} cases, ${report.failures} failures, slowest case ${report.slowestMs} ms, ${(report.totalMs / 1000).toFixed(1)} s`,
      );
      expect(report.cases).toBe(CASES);
      expect(report.examples).toEqual([]);
      expect(report.failures).toBe(0);
    }, 240_000);
  }
});
