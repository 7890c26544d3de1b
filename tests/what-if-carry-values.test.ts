/**
 * Carrying values between instructions (src/engine/what-if/carry-values.ts) against the
 * independent reference's nearest value by binary search over the value order
 * (tests/reference/what-if-ref.ts): every pattern of the 8-, 6- and 4-bit formats into every
 * format, every f16 and bf16 pattern into the other and into the 8-bit formats, the boundary
 * classes of each destination from .f32 and .f64; then which value goes into which register for
 * pairs of forms of every family.
 */
import { describe, expect, it } from 'vitest';
import { findForm } from '../src/catalog/all-forms.ts';
import type { FormatName } from '../src/catalog/formats.ts';
import { FORMATS } from '../src/engine/format.ts';
import {
  carryBits,
  carryRegisters,
  carryValue,
  type Carried,
} from '../src/engine/what-if/carry-values.ts';
import { decodeCvt, REF_CVT_FORMATS, type RefCvtFormatName } from './reference/cvt-formats.ts';
import { boundaryVectors, seeded } from './reference/cvt-vectors.ts';
import { refCarry, refFormat, refNearest } from './reference/what-if-ref.ts';

const form = (text: string) => {
  const f = findForm(text);
  if (!f) throw new Error(text);
  return f;
};

/** Formats the reference knows (ue4m3 is no instruction's input or output yet). */
const TARGETS = Object.keys(REF_CVT_FORMATS) as RefCvtFormatName[];
const NARROW: RefCvtFormatName[] = ['e4m3', 'e5m2', 'e3m2', 'e2m3', 'e2m1', 'ue8m0'];

function check(from: FormatName, to: FormatName, patterns: Iterable<bigint>): number {
  let n = 0;
  for (const bits of patterns) {
    const got = carryBits(bits, FORMATS[from], FORMATS[to]).bits;
    const want = from === to ? bits : refNearest(decodeCvt(bits, refFormat(from)), refFormat(to));
    if (got !== want)
      expect.fail(
        `${from} 0x${bits.toString(16)} → ${to}: 0x${got.toString(16)}, want 0x${want.toString(16)}`,
      );
    n++;
  }
  return n;
}

function* every(width: number, stride = 1): Generator<bigint> {
  for (let i = 0; i < 2 ** width; i += stride) yield BigInt(i);
}

describe('the value of one format in another', () => {
  it('every pattern of the 8-, 6- and 4-bit formats, into every format', () => {
    let n = 0;
    for (const from of NARROW)
      for (const to of TARGETS) n += check(from, to, every(refFormat(from).totalBits));
    expect(n).toBe((256 * 3 + 64 * 2 + 16) * TARGETS.length);
  });

  for (const [from, to] of [
    ['f16', 'bf16'],
    ['bf16', 'f16'],
  ] as const)
    it(`${from} → ${to}: all 65,536 patterns`, () =>
      expect(check(from, to, every(16))).toBe(65536));

  it('f16 and bf16 into each 8-, 6- and 4-bit format (every seventh pattern) and the wide ones (every 61st)', () => {
    for (const from of ['f16', 'bf16'] as const) {
      for (const to of NARROW) check(from, to, every(16, 7));
      for (const to of ['f32', 'tf32', 'f64'] as const) check(from, to, every(16, 61));
    }
  });

  it('.f32 and .f64 on the boundary classes of each destination', () => {
    const random = seeded(2026);
    for (const src of ['f32', 'f64'] as const)
      for (const to of TARGETS) check(src, to, boundaryVectors(to, src, random));
  });

  it('says whether a value was kept, rounded or a NaN', () => {
    // 0.1 in f16 is 0x2e66 = 0.0999755859375; the nearest bf16 is 0x3dcd = 0.10009765625.
    expect(carryBits(0x2e66n, FORMATS.f16, FORMATS.bf16)).toEqual({
      bits: 0x3dcdn,
      how: 'rounded',
    });
    expect(carryBits(0x3c00n, FORMATS.f16, FORMATS.bf16)).toEqual({ bits: 0x3f80n, how: 'exact' });
    expect(carryBits(0x7e01n, FORMATS.f16, FORMATS.bf16)).toEqual({ bits: 0x7fffn, how: 'nan' });
    expect(carryBits(0x7e01n, FORMATS.f16, FORMATS.f16)).toEqual({ bits: 0x7e01n, how: 'same' });
    // 70144 in bf16 is above the largest f16: +inf.
    expect(carryBits(0x4789n, FORMATS.bf16, FORMATS.f16)).toEqual({
      bits: 0x7c00n,
      how: 'rounded',
    });
    // e4m3 448 into e2m1 (no infinity): its MAX_NORM 6; e4m3's NaN into e2m1 (no NaN): +0.
    expect(carryBits(0x7en, FORMATS.e4m3, FORMATS.e2m1)).toEqual({ bits: 0x7n, how: 'rounded' });
    expect(carryBits(0x7fn, FORMATS.e4m3, FORMATS.e2m1)).toEqual({ bits: 0n, how: 'no-nan' });
    // ue8m0 has no sign and no zero: -3 and 0 become its least value 2^-127 (0x00); 3 is a tie
    // between 2 (0x80) and 4 (0x81): to the even pattern.
    expect(carryBits(0xc0400000n, FORMATS.f32, FORMATS.ue8m0)).toEqual({
      bits: 0n,
      how: 'rounded',
    });
    expect(carryBits(0n, FORMATS.f32, FORMATS.ue8m0)).toEqual({ bits: 0n, how: 'rounded' });
    expect(carryBits(0x40400000n, FORMATS.f32, FORMATS.ue8m0)).toEqual({
      bits: 0x80n,
      how: 'rounded',
    });
    // ue4m3 (no reference format): -0 is its +0, -1 its least value +0, +inf its MAX_NORM 448.
    expect(
      carryValue({ kind: 'finite', x: { negative: true, mant: 0n, exp: 0 } }, FORMATS.ue4m3),
    ).toEqual({ bits: 0n, how: 'exact' });
    expect(
      carryValue({ kind: 'finite', x: { negative: true, mant: 1n, exp: 0 } }, FORMATS.ue4m3),
    ).toEqual({ bits: 0n, how: 'rounded' });
    expect(carryValue({ kind: 'inf', negative: false }, FORMATS.ue4m3)).toEqual({
      bits: 0x7en,
      how: 'rounded',
    });
  });
});

const inputsOf = (c: Carried) =>
  c.inputs.map((i) => [i.element, i.input, i.operand, i.from?.operand ?? null, i.how, i.repeated]);

describe('which value goes where', () => {
  it('input by input: the second term of add is c in the mixed form', () => {
    const carried = carryRegisters(form('add.rn.f16'), form('add.rn.f32.f16'), {
      a: 0x3c00n,
      b: 0x4000n,
    });
    expect(carried.registers).toEqual({ a: 0x3c00n, c: 0x40000000n });
    expect(inputsOf(carried)).toEqual([
      [0, 0, 'a', 'a', 'same', false],
      [0, 1, 'c', 'b', 'exact', false],
    ]);
  });

  it('lane by lane; a form with more elements reads A’s last again, one with fewer the first', () => {
    const packed = carryRegisters(form('fma.rn.f16x2'), form('fma.rn.bf16x2'), {
      a: 0x3c00_4000n,
      b: 0x3c00_3c00n,
      c: 0n,
    });
    expect(packed.registers.a).toBe(0x3f80_4000n);
    const widened = carryRegisters(form('add.rn.f16'), form('add.rn.f16x2'), {
      a: 0x4000n,
      b: 0x3c00n,
    });
    expect(widened.registers).toMatchObject({ a: 0x4000_4000n, b: 0x3c00_3c00n });
    expect(widened.inputs.filter((i) => i.repeated).map((i) => i.element)).toEqual([1, 1]);
    const narrowed = carryRegisters(form('add.rn.f16x2'), form('add.rn.bf16'), {
      a: 0x3c00_4000n,
      b: 0n,
    });
    expect(narrowed.registers.a).toBe(0x4000n);
  });

  it('gives +0 to an input A’s element lacks', () => {
    const carried = carryRegisters(form('mul.rn.f16'), form('fma.rn.f16'), {
      a: 0x4000n,
      b: 0x4000n,
    });
    expect(carried.registers.c).toBe(0n);
    expect(carried.inputs.find((i) => i.operand === 'c')).toMatchObject({
      how: 'absent',
      from: null,
      bits: '0x0000',
    });
  });

  it('cvt: element by element, the extra elements reading A’s last; rbits as bits', () => {
    const carried = carryRegisters(
      form('cvt.rn.satfinite.e2m1x2.f32'),
      form('cvt.rs.satfinite.e2m1x4.f32'),
      { a: 0x3f800000n, b: 0x40000000n },
    );
    expect(carried.inputs.map((e) => [e.operand, e.from!.element, e.repeated])).toEqual([
      ['a', 0, false],
      ['b', 1, false],
      ['e', 1, true],
      ['f', 1, true],
    ]);
    expect(carried.rbits).toBe('absent');
    expect(carried.registers.rbits).toBe(0n);
    const both = carryRegisters(
      form('cvt.rs.satfinite.e4m3x4.f32'),
      form('cvt.rs.satfinite.e2m1x4.f32'),
      { a: 0n, b: 0n, e: 0n, f: 0n, rbits: 0x80ff7f01n },
    );
    expect(both.rbits).toBe('bits');
    expect(both.registers.rbits).toBe(0x80ff7f01n);
    expect(
      carryRegisters(form('cvt.rn.f16.f32'), form('cvt.rn.bf16.f32'), { a: 0n }).rbits,
    ).toBeNull();
  });

  it('a value the input format cannot hold is rounded; a NaN into e2m1 is +0', () => {
    // e4m3 0x7e = 448 (past e2m1's 6), 0x7f = NaN.
    const c = carryRegisters(form('cvt.rn.f16x2.e4m3x2'), form('cvt.rn.f16x2.e2m1x2'), {
      a: 0x7e7fn,
    });
    expect(c.inputs.map((e) => [e.bits, e.how])).toEqual([
      ['0x7', 'rounded'],
      ['0x0', 'no-nan'],
    ]);
    expect(c.registers.a).toBe(0x70n);
  });

  it('an arithmetic form beside a cvt, and the reverse', () => {
    // cvt's element 0 (a, upper bits of d) into add's lane 0 (bits 15…0), its element 1 into lane 1.
    const intoAdd = carryRegisters(form('cvt.rn.satfinite.e4m3x2.f32'), form('add.rn.f16x2'), {
      a: 0x43fa0000n,
      b: 0x40880000n,
    });
    expect(intoAdd.registers).toEqual({ a: 0x4440_5fd0n, b: 0n });
    expect(intoAdd.inputs.map((i) => i.how)).toEqual(['exact', 'absent', 'exact', 'absent']);
    const intoCvt = carryRegisters(form('fma.rn.f32.f16'), form('cvt.rn.satfinite.e4m3x2.f32'), {
      a: 0x5fd0n,
      b: 0n,
      c: 0n,
    });
    expect(intoCvt.registers).toEqual({ a: 0x43fa0000n, b: 0x43fa0000n });
  });

  it('agrees with the reference on every pair of these forms and their registers', () => {
    const texts = [
      'add.rn.f16',
      'fma.rn.bf16x2',
      'fma.rz.f32.bf16',
      'sub.rm.f32.f16',
      'neg.bf16',
      'min.f16x2',
      'cvt.rn.satfinite.e4m3x2.f32',
      'cvt.rs.satfinite.e2m1x4.f32',
      'cvt.rn.f16x2.e2m3x2',
      'cvt.rz.satfinite.ue8m0x2.bf16x2',
      'cvt.rn.f32.f64',
      'cvt.rn.bf16x2.ue8m0x2',
      'cvt.rn.tf32.f32',
    ];
    const random = seeded(77);
    const bits = (n: number) =>
      ((BigInt(Math.floor(random() * 2 ** 32)) << 32n) | BigInt(Math.floor(random() * 2 ** 32))) &
      ((1n << BigInt(n)) - 1n);
    let n = 0;
    for (const a of texts)
      for (const b of texts) {
        const fa = form(a);
        for (let k = 0; k < 40; k++) {
          const registers = Object.fromEntries(
            fa.registers.slice(1).map((r) => [r.name, bits(r.bits)]),
          );
          const carried = carryRegisters(fa, form(b), registers).registers;
          expect(
            carried,
            `${a} → ${b} ${JSON.stringify(registers, (_, v) => (typeof v === 'bigint' ? `0x${v.toString(16)}` : v))}`,
          ).toEqual(refCarry(fa, form(b), registers));
          n++;
        }
      }
    expect(n).toBe(texts.length ** 2 * 40);
  });
});
