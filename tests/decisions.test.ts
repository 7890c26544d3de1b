/**
 * Every documented decision (src/engine/decisions.ts) is pinned here by a concrete vector, and
 * every engine decision is visible: some trace step names it.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseInstruction } from '../src/catalog/index.ts';
import {
  compileFast,
  DECISIONS,
  evaluate,
  type DecisionId,
  type EvalResult,
} from '../src/engine/index.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const hex = (r: EvalResult) => `0x${r.d.toString(16)}`;
const named = (r: EvalResult, id: DecisionId) =>
  r.lanes.some((l) => l.steps.some((s) => s.decision === id));

const cases: Record<DecisionId, () => void> = {
  'canonical-nan': () => {
    const r = evaluate('add.f16', { a: 0x7e01, b: 0x3c00 }); // a NaN with a payload
    expect(hex(r)).toBe('0x7fff');
    expect(named(r, 'canonical-nan')).toBe(true);
    expect(hex(evaluate('add.rn.f32.bf16', { a: 0x3f80, c: 0xffc00001 }))).toBe('0x7fffffff');
    expect(hex(evaluate('mul.bf16', { a: 0x0000, b: 0x7f80 }))).toBe('0x7fff'); // 0 × inf
  },
  'ftz-after-rounding': () => {
    // (1 - 2^-11) × 2^-14 = 2^-14 - 2^-25 has 11 significant bits: rounded with an unbounded
    // exponent it stays below 2^-14 (tiny after rounding), though gradual underflow rounds it
    // (tie to even) up to the normal 0x0400. An H100 returns 0x0000.
    const tie = evaluate('mul.ftz.f16', { a: 0x3bff, b: 0x0400 });
    expect(hex(tie)).toBe('0x0');
    expect(hex(evaluate('mul.f16', { a: 0x3bff, b: 0x0400 }))).toBe('0x400');
    expect(named(tie, 'ftz-after-rounding')).toBe(true);
    // 2^-14 - 2^-28 rounds up to 2^-14 at 11 bits: kept after rounding (an H100 returns 0x0400),
    // flushed by the before-rounding reading.
    const input = { a: 0x0400, b: 0x8400, c: 0x0400 };
    expect(hex(evaluate('fma.rn.ftz.f16', input))).toBe('0x400');
    const before = evaluate('fma.rn.ftz.f16', input, { ftzTininess: 'before-rounding' });
    expect(hex(before)).toBe('0x0');
    expect(named(before, 'ftz-after-rounding')).toBe(true);
    const sub = evaluate('mul.ftz.f16', { a: 0x3800, b: 0x0400 }); // 2^-15: subnormal after rounding
    expect(hex(sub)).toBe('0x0');
    expect(named(sub, 'ftz-after-rounding')).toBe(true);
    // The fast path follows the same rule.
    expect(compileFast('mul.ftz.f16')(0x3bff, 0x0400, 0)).toBe(0);
    expect(compileFast('fma.rn.ftz.f16')(0x0400, 0x8400, 0x0400)).toBe(0x0400);
  },
  'sat-negative-zero': () => {
    const r = evaluate('add.sat.f16', { a: 0x8000, b: 0x8000 }); // -0 + -0 = -0 → +0
    expect(hex(r)).toBe('0x0');
    expect(named(r, 'sat-negative-zero')).toBe(true);
    expect(hex(evaluate('add.sat.f16', { a: 0x7fff, b: 0x3c00 }))).toBe('0x0'); // NaN → +0
    expect(hex(evaluate('add.sat.f16', { a: 0x3c00, b: 0x3c00 }))).toBe('0x3c00'); // 2 → 1
  },
  'relu-negative-zero': () => {
    const r = evaluate('fma.rn.relu.bf16', { a: 0x8000, b: 0x3f80, c: 0x8000 }); // -0×1 + -0 = -0 → +0
    expect(hex(r)).toBe('0x0');
    expect(named(r, 'relu-negative-zero')).toBe(true);
    expect(hex(evaluate('fma.rn.relu.bf16', { a: 0x7fc1, b: 0x3f80, c: 0 }))).toBe('0x7fff');
  },
  'oob-nan-pattern': () => {
    const marked = evaluate('fma.rn.oob.f16x2', {
      a: 0x3c003c00,
      b: 0x3c003c00,
      c: 0,
      oob: { b: [false, true] },
    });
    expect(hex(marked)).toBe('0x3c00'); // lane 1 forced to +0, lane 0 = 1·1 + 0
    expect(named(marked, 'oob-nan-pattern')).toBe(true);
    // The pattern in the register is what counts (measured on an H100): 0x7FF7 or 0xFFF7 in a
    // or b zeroes the lane whatever c holds; in c it is an ordinary NaN; another NaN is a NaN.
    expect(hex(evaluate('fma.rn.oob.bf16', { a: 0xfff7, b: 0x3f80, c: 0x7fc0 }))).toBe('0x0');
    expect(hex(evaluate('fma.rn.oob.relu.f16', { a: 0x3c00, b: 0x7ff7, c: 0xbc00 }))).toBe('0x0');
    expect(hex(evaluate('fma.rn.oob.f16', { a: 0x3c00, b: 0x3c00, c: 0x7ff7 }))).toBe('0x7fff');
    expect(hex(evaluate('fma.rn.oob.f16', { a: 0x7ff6, b: 0x3c00, c: 0 }))).toBe('0x7fff');
    expect(compileFast('fma.rn.oob.f16x2')(0x3c007ff7, 0x3c003c00, 0x7fff3c00)).toBe(0x7fff0000);
    // Without .oob the pattern is simply a NaN; another GPU's pattern is an option.
    expect(hex(evaluate('fma.rn.f16', { a: 0x3c00, b: 0x7ff7, c: 0 }))).toBe('0x7fff');
    const other = { oobNanBits: 0x7e00 };
    expect(hex(evaluate('fma.rn.oob.f16', { a: 0x7e00, b: 0x3c00, c: 0 }, other))).toBe('0x0');
    expect(hex(evaluate('fma.rn.oob.f16', { a: 0x7ff7, b: 0x3c00, c: 0 }, other))).toBe('0x7fff');
  },
  'max-x2-xorsign-typo': () => {
    // Lane 1: a is NaN, b = -2 → d = b = -2 (not NaN), so xorsign applies: sign = 0 ^ 1 = 1 → -2.
    const r = evaluate('max.xorsign.abs.f16x2', {
      a: 0x7e00 + 0x3c00 * 65536,
      b: 0xc000 + 0xc000 * 65536,
    });
    expect(r.lanes[1]!.result).toBe(0xc000);
    expect(named(r, 'max-x2-xorsign-typo')).toBe(true);
  },
  'minmax-both-nan': () => {
    const r = evaluate('min.f16', { a: 0x7e01, b: 0xfe02 });
    expect(hex(r)).toBe('0x7fff');
    expect(named(r, 'minmax-both-nan')).toBe(true);
    expect(hex(evaluate('min.f16', { a: 0x7e01, b: 0x3c00 }))).toBe('0x3c00');
    expect(hex(evaluate('min.NaN.f16', { a: 0x7e01, b: 0x3c00 }))).toBe('0x7fff');
  },
  'neg-abs-nan': () => {
    const r = evaluate('neg.f16', { a: 0x7e01 });
    expect(hex(r)).toBe('0x7fff');
    expect(named(r, 'neg-abs-nan')).toBe(true);
    expect(hex(evaluate('abs.bf16', { a: 0xffc1 }))).toBe('0x7fff');
  },
  'approx-model': () => {
    const r = evaluate('tanh.approx.f16', { a: 0x3c00 }); // tanh(1) = 0.76159…
    expect(hex(r)).toBe('0x3a18');
    expect(named(r, 'approx-model')).toBe(true);
  },
  'approx-ftz-result': () => {
    const r = evaluate('ex2.approx.ftz.bf16', { a: 0xc302 }); // 2^-130: subnormal in bf16 → +0
    expect(hex(r)).toBe('0x0');
    expect(named(r, 'approx-ftz-result')).toBe(true);
    expect(hex(evaluate('ex2.approx.f16', { a: 0xcc00 }))).toBe('0x100'); // f16 keeps 2^-16
  },
  'mixed-sat-syntax': () => {
    // The examples' spellings, read as the syntax line's forms (ptxas 13.0 assembles both).
    const after = parseInstruction('add.rz.f32.bf16.sat');
    expect(after.ok && after.form.text).toBe('add.rz.sat.f32.bf16');
    expect(after.ok && after.spelling?.message).toBe(
      'ptxas accepts this order; the spec writes add.rz.sat.f32.bf16',
    );
    const twice = parseInstruction('fma.rz.sat.f32.f16.sat');
    expect(twice.ok && twice.form.text).toBe('fma.rz.sat.f32.f16');
    expect(twice.ok && twice.spelling?.repeated).toEqual([{ modifier: 'sat', times: 2 }]);
  },
  'ptxas-only-forms': () => {
    // (1 + 2^-7)^2 - 1 = 2^-6 + 2^-14 needs 8 mantissa bits. One rounding of the exact value:
    // .rp gives 2^-6 + 2^-13 (0x3c81); rounding the product first would give 2^-6 + 2^-7.
    const exactThenRound = { a: 0x3f81, b: 0x3f81, c: 0xbf80 };
    const rp = evaluate('fma.rp.bf16', exactThenRound);
    expect(hex(rp)).toBe('0x3c81');
    expect(rp.decisions).toContain('ptxas-only-forms');
    expect(compileFast('fma.rp.bf16')(0x3f81, 0x3f81, 0xbf80)).toBe(0x3c81);
    expect(hex(evaluate('fma.rz.bf16', exactThenRound))).toBe('0x3c80');
    // -(1 + 2^-6 + 2^-14): .rm rounds away from zero, .rz and .rp toward it.
    const negative = { a: 0xbf81, b: 0x3f81, c: 0 };
    expect(hex(evaluate('fma.rm.bf16', negative))).toBe('0xbf83');
    expect(hex(evaluate('fma.rz.relu.bf16x2', { a: 0xbf813f81, b: 0x3f813f81, c: 0 }))).toBe(
      '0x3f82',
    );
    // .oob and .sat commute: an OOB-NaN lane is +0.0 either way; the other lane saturates.
    const oobSat = evaluate('fma.rn.oob.sat.f16x2', {
      a: 0x40004000,
      b: 0x3c003c00,
      c: 0,
      oob: { b: [false, true] },
    });
    expect(hex(oobSat)).toBe('0x3c00');
    expect(oobSat.decisions).toContain('ptxas-only-forms');
    // The spec's own forms do not carry it.
    expect(evaluate('fma.rn.bf16', exactThenRound).decisions).not.toContain('ptxas-only-forms');
  },
};

describe('documented decisions', () => {
  it('every decision in the list has a pinning test here', () => {
    expect(DECISIONS.map((d) => d.id).sort()).toEqual(Object.keys(cases).sort());
  });
  it.each(DECISIONS.map((d) => [d.id, d] as const))('%s', (id) => cases[id]());
  it('a measured decision names its GPU and a capture in the repository', () => {
    for (const d of DECISIONS.filter((x) => x.measured)) {
      expect(d.measured!.on).toMatch(/sm_\d+/);
      const dir = /^(hw\/captures\/[\w/.-]+?):/.exec(d.measured!.evidence)?.[1];
      expect(dir, d.id).toBeDefined();
      expect(existsSync(join(ROOT, dir!, 'summary.json')), `${d.id}: ${dir}`).toBe(true);
    }
  });
});

describe('operand checks', () => {
  it('rejects an OOB-NaN mark on a .f32 operand', () => {
    expect(() =>
      evaluate('add.rn.f32.f16', { a: 0x3c00, c: 0x3f800000, oob: { c: true } }),
    ).toThrow(/only 16-bit/);
    expect(evaluate('add.rn.f32.f16', { a: 0x3c00, c: 0x3f800000, oob: { a: true } }).d).toBe(
      0x7fffffff,
    );
  });
  it('a .f32 operand whose per-lane marks are all clear is not marked', () => {
    // The UI keeps "no mark" as [false, false]; that is not an OOB-NaN mark on c.
    const clear = { a: [false, false], c: [false, false] } as const;
    expect(evaluate('add.rn.f32.f16', { a: 0x3c00, c: 0x3f800000, oob: clear }).d).toBe(0x40000000);
    expect(() =>
      evaluate('add.rn.f32.f16', { a: 0x3c00, c: 0x3f800000, oob: { c: [false, true] } }),
    ).toThrow(/only 16-bit/);
  });
  it('the fast path reads registers at their width', () => {
    expect(compileFast('neg.bf16')(0xffff3c00, 0, 0)).toBe(0xbc00);
    expect(compileFast('add.f16')(0x12343c00, 0xabcd3c00, 0)).toBe(0x4000);
  });
});
