/**
 * The one pipeline (src/engine/pipeline.ts) against the two evaluators it replaces
 * (src/engine/evaluate.ts for the arithmetic, src/engine/ops/cvt.ts for cvt), while both exist:
 * every catalog form, on edge and random registers, gives the same destination bits and the
 * same kinds of steps in the same order. (The one difference is deliberate: a cvt .ftz now
 * records its flush-result step whenever the exact value is tiny before rounding, as the
 * arithmetic always has, also when the rounded result is already a zero.)
 */
import { describe, expect, it } from 'vitest';
import { FORMS } from '../src/catalog/all-forms.ts';
import { evaluate as evaluateLegacy } from '../src/engine/evaluate.ts';
import { evaluateCvt } from '../src/engine/ops/cvt.ts';
import { evaluate } from '../src/engine/pipeline.ts';

const LEGACY_KIND: Record<string, string> = {
  'cvt-source': 'inputs',
  'cvt-flush-input': 'flush-input',
  'cvt-special': 'special',
  'cvt-exact': 'exact',
  'cvt-round': 'round',
  'cvt-overflow': 'overflow',
  'cvt-unsigned': 'unsigned',
  'cvt-flush-result': 'flush-result',
  'cvt-satfinite': 'satfinite',
  'cvt-sat': 'saturate',
  'cvt-relu': 'relu',
  'cvt-pack': 'result',
};

const EDGES = [
  0, 0x8000, 1, 0x3ff, 0x400, 0x3c00, 0x7bff, 0x7c00, 0xfc00, 0x7e00, 0x7d00, 0x7ff7, 0x3f80,
  0x7f80, 0x7fc0, 0x0080, 0x007f, 0xbc00, 0x3555,
];

function generator(seed: number) {
  let s = seed >>> 0;
  const next = () => (s = (Math.imul(s, 1103515245) + 12345) >>> 0);
  return (bits: number): bigint => {
    if (next() % 4 === 0) {
      const e = BigInt(EDGES[next() % EDGES.length]!);
      const v = bits >= 32 ? (e << 16n) | e : e;
      return v & ((1n << BigInt(bits)) - 1n);
    }
    let v = 0n;
    for (let i = 0; i < bits; i += 16) v = (v << 16n) | BigInt(next() >>> 16);
    return v & ((1n << BigInt(bits)) - 1n);
  };
}

describe('the one pipeline gives what the two evaluators gave', () => {
  it('every form, 40 register sets each: the same d and the same steps in order', () => {
    const pick = generator(20261125);
    let compared = 0;
    // The two evaluators know the arithmetic and cvt: the matrix forms have no old evaluator.
    const elementwise = FORMS.filter((f) => f.family !== 'matrix');
    for (const form of elementwise) {
      for (let t = 0; t < 40; t++) {
        const regs: Record<string, bigint> = {};
        for (const r of form.registers.slice(1)) regs[r.name] = pick(r.bits);
        const now = evaluate(form, regs);
        let d: string;
        let kinds: string[][];
        if (form.family === 'convert') {
          const old = evaluateCvt(form.text, regs as { a: bigint });
          d = old.d.toLowerCase();
          kinds = old.elements.map((e) => e.steps.map((s) => LEGACY_KIND[s.kind] ?? s.kind));
        } else {
          const n = (name: string) => (regs[name] === undefined ? undefined : Number(regs[name]));
          const old = evaluateLegacy(form.text, { a: n('a')!, b: n('b'), c: n('c') });
          d = `0x${old.d.toString(16).padStart(old.dBits / 4, '0')}`;
          kinds = old.lanes.map((l) => l.steps.map((s) => s.kind));
        }
        const ftzF32 = form.family === 'convert' && form.modifiers.includes('ftz');
        const nowKinds = now.elements.map((e) =>
          e.steps
            .map((s) => s.kind)
            .filter(
              (k) =>
                form.family !== 'convert' ||
                (k !== 'tininess' && !(ftzF32 && k === 'flush-result')),
            ),
        );
        const oldKinds = kinds.map((k) => k.filter((x) => !(ftzF32 && x === 'flush-result')));
        if (now.d !== d || JSON.stringify(nowKinds) !== JSON.stringify(oldKinds))
          expect({
            form: form.text,
            regs: String(Object.values(regs)),
            d: now.d,
            nowKinds,
          }).toEqual({
            form: form.text,
            regs: String(Object.values(regs)),
            d,
            nowKinds: oldKinds,
          });
        compared++;
      }
    }
    expect(compared).toBe(elementwise.length * 40);
  });
});

describe('the cvt evaluator gives the pipeline NaN results (decision cvt-nan)', () => {
  /** NaNs of either sign, quiet and signaling, payloads at the top and bottom of the mantissa. */
  const NAN_A: Record<number, bigint[]> = {
    16: [0x7c01n, 0xfc01n, 0x7e00n, 0x7fffn, 0x7f81n, 0xff81n, 0x7fc1n],
    32: [0x7f800001n, 0xff800001n, 0x7fc00000n, 0x7f802000n, 0xffffffffn, 0x7f812345n],
    64: [0x7ff0000000000001n, 0xfff8000012345678n, 0x7ff65d0282937f6bn, 0xffffffffffffffffn],
  };
  it('every cvt form on NaN registers: the same d and the same steps', () => {
    let compared = 0;
    for (const form of FORMS.filter((f) => f.family === 'convert')) {
      for (const a of NAN_A[form.registers[1]!.bits] ?? []) {
        const regs: Record<string, bigint> = {};
        for (const r of form.registers.slice(1)) regs[r.name] = r.name === 'a' ? a : 0x7fc00001n;
        const now = evaluate(form, regs);
        const old = evaluateCvt(form.text, regs as { a: bigint });
        expect({ form: form.text, a, d: old.d.toLowerCase() }).toEqual({
          form: form.text,
          a,
          d: now.d,
        });
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(500);
  });
});
