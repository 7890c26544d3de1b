/**
 * The comparison itself, without python or nvcc: a reference equal to the engine agrees, and a
 * perturbed one is caught (so the cross-checks can fail), NaN payloads count as NaN-ness only
 * when allowed, and a known-difference predicate labels instead of failing.
 */
import { describe, expect, it } from 'vitest';
import { compileFast } from '../../src/engine/fast/index.ts';
import { crossCheck, type CrossCase } from './agreement.ts';
import { binaryVectors, packedVectors } from './vectors.ts';

function engineAnswers(form: string, columns: Uint32Array[]): Uint32Array {
  const f = compileFast(form).words!;
  return columns[0]!.map((a, i) => f(a, columns[1]![i]!, 0));
}

describe('crossCheck', () => {
  const vectors = binaryVectors('f16', 300, 7);
  const base: CrossCase = { name: 't', form: 'add.rn.f16', refOp: '-', vectors, nan: 'exact' };

  it('agrees with the engine itself, on the fast and traced paths', () => {
    const outcome = crossCheck(base, engineAnswers('add.rn.f16', vectors.columns));
    expect(outcome.unexpectedCount).toBe(0);
    expect(outcome.exact).toBe(outcome.compared);
    expect(outcome.tracedCompared).toBeGreaterThan(0);
  });

  it('reports a one-bit difference with its exact vector', () => {
    const reference = engineAnswers('add.rn.f16', vectors.columns);
    const i = vectors.edgeCount + 5;
    reference[i] = reference[i]! ^ 1;
    const outcome = crossCheck(base, reference);
    expect(outcome.unexpectedCount).toBeGreaterThanOrEqual(1);
    const [a, b] = vectors.columns.map((c) => c[i]!.toString(16).toUpperCase().padStart(4, '0'));
    expect(outcome.unexpected[0]!.operands).toBe(`a=0x${a} b=0x${b}`);
  });

  it('accepts another NaN only under the nan-ness policy, and labels known differences', () => {
    const reference = engineAnswers('add.rn.f16', vectors.columns);
    const nanAt = reference.findIndex((d) => d === 0x7fff);
    reference[nanAt] = 0xfe00;
    expect(crossCheck(base, reference).unexpectedCount).toBeGreaterThanOrEqual(1);
    expect(crossCheck({ ...base, nan: 'nan-ness' }, reference).nanOnly).toBe(1);
    const known = crossCheck({ ...base, known: () => 'payload' }, reference);
    expect(known.unexpectedCount).toBe(0);
    expect(known.known.get('payload')?.count).toBe(1);
  });

  it('compares packed results lane by lane', () => {
    const packed = packedVectors('f16', 200, 9);
    const reference = engineAnswers('add.rn.f16x2', packed.columns);
    reference[0] = (reference[0]! ^ 0x10000) >>> 0; // lane 1 only
    const outcome = crossCheck({ ...base, form: 'add.rn.f16x2', vectors: packed }, reference);
    expect(outcome.unexpectedCount).toBeGreaterThanOrEqual(1);
    expect(outcome.exact).toBe(outcome.compared - 1);
  });
});
