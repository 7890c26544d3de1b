import { describe, expect, it, vi } from 'vitest';
import { EngineError } from './engine-error.ts';
import { evaluate, evaluateBits } from './pipeline.ts';
import { arithmeticFamily } from './semantics/arithmetic-family.ts';
import { SEMANTICS_FAMILIES, semanticsFamilyOf } from './semantics/family.ts';
import { FORMS, MATRIX_FORMS } from '../catalog/all-forms.ts';

/**
 * Each family's semantics load on their own (family-semantics.ts): a form whose family is not
 * loaded is a structured EngineError that names the family, never a call of something undefined.
 * The tests' setup provides every family (all-families.ts); a fresh module graph
 * (vi.resetModules) has none, as the page has before it loads one.
 */

/** The error `run` throws, or a failure where it throws none. */
function errorOf(run: () => unknown): unknown {
  try {
    run();
  } catch (e) {
    return e;
  }
  throw new Error('expected an error');
}

const FMA = 'fma.rn.f16x2';
const FMA_REGISTERS = { a: 0x3c003c00n, b: 0x40004000n, c: 0n };
const CVT = 'cvt.rn.f16.f32';
const MMA = 'mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32';

describe('evaluate() with the families it is given', () => {
  it('answers a form of a family it has', () => {
    const result = evaluate(FMA, FMA_REGISTERS, undefined, { arithmetic: arithmeticFamily });
    expect(result.d).toBe('0x40004000');
  });

  it('refuses a form of a family it lacks, naming the family', () => {
    const e = errorOf(() =>
      evaluate(CVT, { a: 0x3f800000n }, undefined, { arithmetic: arithmeticFamily }),
    );
    expect(e).toBeInstanceOf(EngineError);
    expect((e as EngineError).code).toBe('family');
    expect((e as EngineError).message).toMatch(/\bconvert semantics are not loaded/);
  });

  it('refuses a matrix form, traced or bits alone, without the tensor cores', () => {
    for (const run of [evaluate, evaluateBits]) {
      const e = errorOf(() => run(MMA, { a: 0n, b: 0n, c: 0n }, undefined, {}));
      expect((e as EngineError).code).toBe('family');
      expect((e as EngineError).message).toMatch(/\btensor-core semantics are not loaded/);
    }
  });
});

describe('the families loaded in a realm', () => {
  it('none before loadFamily, then the one loaded and no other', async () => {
    vi.resetModules();
    const fresh = await import('./pipeline.ts');
    const registry = await import('./family-semantics.ts');
    expect(SEMANTICS_FAMILIES.filter((f) => registry.isFamilyLoaded(f))).toEqual([]);
    const before = errorOf(() => fresh.evaluate(FMA, FMA_REGISTERS));
    expect(before).toBeInstanceOf(fresh.EngineError);
    expect((before as EngineError).code).toBe('family');
    expect((before as EngineError).message).toMatch(/\barithmetic semantics are not loaded/);

    const loaded = await registry.loadFamily('arithmetic');
    expect(loaded.family).toBe('arithmetic');
    expect(await registry.loadFamily('arithmetic')).toBe(loaded);
    expect(fresh.evaluate(FMA, FMA_REGISTERS).d).toBe('0x40004000');
    const cvt = errorOf(() => fresh.evaluate(CVT, { a: 0x3f800000n }));
    expect((cvt as EngineError).code).toBe('family');
    expect((cvt as EngineError).message).toMatch(/\bconvert semantics are not loaded/);

    await registry.loadFamily('convert');
    expect(fresh.evaluate(CVT, { a: 0x3f800000n }).d).toBe('0x3c00');
    expect(registry.isFamilyLoaded('tensor-core')).toBe(false);
  });
});

describe('semanticsFamilyOf', () => {
  it('gives every catalog form a family whose semantics have its operation', async () => {
    const { ALL_FAMILIES } = await import('./all-families.ts');
    for (const form of [...FORMS, ...MATRIX_FORMS]) {
      const operations: Record<string, unknown> = ALL_FAMILIES[semanticsFamilyOf(form)].operations;
      expect(operations[form.operation], form.text).toBeTypeOf('function');
    }
  });
});
