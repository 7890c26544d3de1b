import { describe, expect, it } from 'vitest';
import { FORMS, findForm } from '../catalog/all-forms.ts';
import { cornerTable, specCornerChecks } from '../engine/analysis/index.ts';
import {
  caseRows,
  compareNumbers,
  inputKeys,
  isNotable,
  matchesQuery,
  noMatchText,
} from './corner-rows.ts';

const rowsOf = (text: string) => {
  const form = findForm(text)!;
  return caseRows(form, cornerTable(form));
};

describe('corner-case rows', () => {
  it('add.f16: every pair of the 15 special values, (+inf)+(-inf) is the canonical NaN', () => {
    const rows = rowsOf('add.f16');
    expect(rows).toHaveLength(225);
    const pair = rows.find((r) => r.cells.a?.name === '+inf' && r.cells.b?.name === '-inf')!;
    expect(pair.registers).toEqual({ a: '0x7c00', b: '0xfc00' });
    expect(pair.cells.d).toMatchObject({ hex: '0x7fff', value: 'NaN', cls: 'qnan' });
    expect(Number.isNaN(pair.cells.d!.number)).toBe(true);
    expect(isNotable(pair.cells.d!.cls)).toBe(true);
  });

  it('fma: 15 × 15 × 6 addends; unary ops: one row per special value', () => {
    expect(rowsOf('fma.rn.bf16')).toHaveLength(1350);
    expect(rowsOf('tanh.approx.f16')).toHaveLength(15);
    expect(inputKeys(findForm('fma.rn.bf16')!)).toEqual(['a', 'b', 'c']);
    // A mixed add's inputs are a and c; a conversion's is its source.
    expect(inputKeys(findForm('add.rn.f32.f16')!)).toEqual(['a', 'c']);
    expect(inputKeys(findForm('cvt.rs.satfinite.e2m1x4.f32')!)).toEqual(['a']);
  });

  it('x2 forms load the value into both lanes; mixed forms show a 32-bit result', () => {
    const x2 = rowsOf('mul.rn.f16x2').find((r) => r.cells.a?.name === '+1')!;
    expect(x2.registers.a).toBe('0x3c003c00');
    expect(x2.cells.a!.hex).toBe('0x3c00');
    const mixed = rowsOf('add.rn.f32.f16').find(
      (r) => r.cells.a?.name === '+1' && r.cells.c?.name === '+1',
    )!;
    expect(mixed.cells.d).toMatchObject({ hex: '0x40000000', value: '2', cls: 'normal' });
  });

  it('forms across the catalog have a table with a result for every row', () => {
    // Every 7th form: all opcodes and types appear, at a fraction of the runtime of all 208.
    for (const form of FORMS.filter((_, i) => i % 7 === 0)) {
      const rows = caseRows(form, cornerTable(form));
      expect(rows.length, form.text).toBeGreaterThan(0);
      for (const r of rows) expect(r.cells.d, form.text).toBeDefined();
    }
  });

  it('the search needs every word: "+inf -inf" finds exactly the two mixed-sign pairs', () => {
    const hits = rowsOf('add.f16').filter((r) => matchesQuery(r, '+inf -inf'));
    expect(hits.map((r) => `${r.cells.a!.name},${r.cells.b!.name}`).sort()).toEqual([
      '+inf,-inf',
      '-inf,+inf',
    ]);
    expect(rowsOf('add.f16').filter((r) => matchesQuery(r, '  '))).toHaveLength(225);
    // Whole words: "-0" is the zero, not the start of -0.00006104; hex may be a prefix.
    const zeros = rowsOf('add.f16').filter((r) => matchesQuery(r, '-0 +min subnormal'));
    expect(zeros.length).toBeGreaterThan(0);
    for (const r of zeros) {
      const names = Object.values(r.cells).map((c) => c.name);
      expect(names).toContain('-0');
    }
    expect(rowsOf('add.f16').filter((r) => matchesQuery(r, '0x7c')).length).toBeGreaterThan(0);
  });

  it('reads ∞ and − as the cells write them; "0x" alone finds nothing, and says why', () => {
    const count = (q: string) => rowsOf('add.f16').filter((r) => matchesQuery(r, q)).length;
    expect(count('∞')).toBe(count('inf'));
    // Without a sign, either infinity: every row with +inf or -inf in a cell.
    expect(count('inf')).toBe(count('+inf') + count('-inf') - count('+inf -inf'));
    expect(count('inf')).toBeGreaterThan(0);
    expect(count('+∞ −∞')).toBe(2);
    // "0x" is the start of every hex cell: it matched all 225 rows.
    expect(count('0x')).toBe(0);
    expect(noMatchText('0x')).toBe('No case matches “0x”: “0x” needs a hex digit after it (0x7c).');
    expect(count('1e5')).toBe(0);
    expect(noMatchText(' 1e5 ')).toMatch(/^No case matches “1e5”: the filter finds whole words/);
  });

  it('numeric order puts -0 before +0 and NaN last', () => {
    const sorted = [NaN, 0, -Infinity, -0, 1, Infinity].sort(compareNumbers);
    expect(sorted.map((x) => (Object.is(x, -0) ? '-0' : String(x)))).toEqual([
      '-Infinity',
      '-0',
      '0',
      '1',
      'Infinity',
      'NaN',
    ]);
  });
});

describe('conversions', () => {
  it('a cvt row names its case by what it is to the destination, its long decimals shortened', () => {
    const rows = rowsOf('cvt.rn.satfinite.e4m3x2.f32');
    expect(rows).toHaveLength(24);
    const max = rows.find((r) => r.cells.a?.name === 'just above that threshold')!;
    expect(max.registers).toEqual({ a: '0x43e80001', b: '0x43e80001' });
    expect(max.cells.d).toMatchObject({ hex: '0x7e', value: '448', cls: 'normal' });
    expect(max.outcomes).toContain('clamp');
    const tiny = rows.find((r) => r.cells.a?.value.endsWith('e-45'))!;
    expect(tiny.cells.a!.value).toBe('1.4012984643248170…e-45');
  });
});

describe('spec corner-case tables', () => {
  it('every form with spec tables (tanh, ex2): the engine agrees with every row', () => {
    const approx = FORMS.filter((f) => f.cornerCases !== undefined);
    expect(approx.length).toBeGreaterThan(0);
    for (const form of approx) {
      const checks = specCornerChecks(form);
      expect(checks.length, form.text).toBeGreaterThan(0);
      for (const c of checks) expect(c.agrees, `${form.text} ${c.input}`).toBe(true);
    }
  });
});

describe('corner rows of a tensor core', () => {
  it('one column per operand: the row of A and the column of B each in one cell', () => {
    const form = findForm('mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32')!;
    expect(inputKeys(form)).toEqual(['a', 'b', 'c']);
    const rows = caseRows(form, cornerTable(form, { target: 'sm_80' }));
    const nan = rows[0]!;
    expect(nan.cells.a).toMatchObject({ name: 'a NaN element', hex: '0x7fff, …' });
    expect(nan.cells.c?.hex).toBe('0x3f800000');
    expect(nan.cells.d?.cls).toBe('qnan');
    const ones = rows.find((r) => r.cells.a?.name === 'every element 1')!;
    expect(ones.cells.a).toMatchObject({ hex: '0x3c00 × 16', value: 'every element 1' });
    expect(ones.cells.d?.value).toBe('17');
  });
});
