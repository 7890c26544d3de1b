/**
 * Block-scaled mma (engine/semantics/block-scaled-dot.ts) against the independent reference
 * (tests/reference/block-scaled-dot-ref.ts, exact rationals): worked cases, the specials, the
 * structured errors, and random rows, columns, scales and c of every kind and combination.
 *
 * Size: PTXF_BLOCK_DOT_RANDOM random elements per combination (default 150).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  blockScaledDot,
  type BlockScaledDotRequest,
} from '../src/engine/semantics/block-scaled-dot.ts';
import { blockDotHandOff } from '../src/engine/block-scale/block-dot.ts';
import { quantizeBlock } from '../src/engine/block-scale/index.ts';
import { refBlockScaledDot } from './reference/block-scaled-dot-ref.ts';

const RANDOM = Number(process.env.PTXF_BLOCK_DOT_RANDOM ?? 150);

const d = (r: BlockScaledDotRequest): bigint => {
  const out = blockScaledDot(r);
  if (!out.ok) throw new Error(out.message);
  return out.d;
};

const E4M3_ONE = 0x38n;
const E2M1_ONE = 0x2n;
const UE8M0_ONE = 0x7fn;
const f32 = (x: number) => {
  const v = new DataView(new ArrayBuffer(4));
  v.setFloat32(0, x);
  return BigInt(v.getUint32(0));
};

function mx(
  a: bigint[],
  b: bigint[],
  sa = UE8M0_ONE,
  sb = UE8M0_ONE,
  c = 0n,
): BlockScaledDotRequest {
  return {
    kind: 'mxf8f6f4',
    scaleVec: '1X',
    atype: 'e4m3',
    btype: 'e4m3',
    stype: 'ue8m0',
    a,
    b,
    c,
    scaleA: [sa],
    scaleB: [sb],
  };
}

describe('block-scaled mma, worked cases', () => {
  it('mxf8f6f4: 32 × (1 · 1) × 2^1 × 2^-3 + 0.5 = 8.5', () => {
    const r = mx(Array(32).fill(E4M3_ONE), Array(32).fill(E4M3_ONE), 0x80n, 0x7cn, f32(0.5));
    expect(d(r)).toBe(f32(8.5));
    expect(refBlockScaledDot(r)).toBe(f32(8.5));
  });

  it('mxf8f6f4: a product 2^-30 below the largest term is cut (n = 25)', () => {
    // 448 × 448 beside 2^-9 × 2^-9 (E4M3's least subnormal): the small one is truncated away.
    const a = [0x7en, 0x01n, ...Array<bigint>(30).fill(0n)];
    const b = [0x7en, 0x01n, ...Array<bigint>(30).fill(0n)];
    const r = mx(a, b);
    expect(d(r)).toBe(f32(448 * 448));
    expect(refBlockScaledDot(r)).toBe(f32(448 * 448));
  });

  it('mxf4nvf4 with UE4M3 scales (4X): each group of 16 takes its own scale, the sign bit ignored', () => {
    const r: BlockScaledDotRequest = {
      kind: 'mxf4nvf4',
      scaleVec: '4X',
      atype: 'e2m1',
      btype: 'e2m1',
      stype: 'ue4m3',
      a: Array(64).fill(E2M1_ONE),
      b: Array(64).fill(E2M1_ONE),
      c: 0n,
      // 1.0, 2.0, 0.5 and -1.0 as UE4M3 (0xb8: the sign bit is ignored, so 1.0).
      scaleA: [0x38n, 0x40n, 0x30n, 0xb8n],
      scaleB: [0x38n, 0x38n, 0x38n, 0x38n],
    };
    // 16 × (1 + 2 + 0.5 + 1) = 72
    expect(d(r)).toBe(f32(72));
    expect(refBlockScaledDot(r)).toBe(f32(72));
  });

  it('mxf4 (2X): two UE8M0 scales, one for each 32 elements', () => {
    const r: BlockScaledDotRequest = {
      kind: 'mxf4',
      scaleVec: '2X',
      atype: 'e2m1',
      btype: 'e2m1',
      stype: 'ue8m0',
      a: Array(64).fill(E2M1_ONE),
      b: Array(64).fill(E2M1_ONE),
      c: 0n,
      scaleA: [0x7fn, 0x81n],
      scaleB: [0x7fn, 0x7fn],
    };
    // 32 × 1 + 32 × 4 = 160
    expect(d(r)).toBe(f32(160));
  });

  it('the specials: a NaN scale or c is 0x7FFFFFFF; ∞ × 0 and +∞ with −∞ are NaN; an infinity stays', () => {
    const ones = Array<bigint>(32).fill(E4M3_ONE);
    expect(d(mx(ones, ones, 0xffn))).toBe(0x7fffffffn);
    expect(d(mx(ones, ones, UE8M0_ONE, UE8M0_ONE, 0x7fc00000n))).toBe(0x7fffffffn);
    const e5 = (a: bigint[], b: bigint[]) => ({
      ...mx(a, b),
      atype: 'e5m2' as const,
      btype: 'e5m2' as const,
    });
    const inf = 0x7cn;
    const zeros = Array<bigint>(32).fill(0n);
    expect(d(e5([inf, ...zeros.slice(1)], zeros))).toBe(0x7fffffffn);
    const one = 0x3cn;
    expect(d(e5([inf, ...zeros.slice(1)], [one, ...zeros.slice(1)]))).toBe(0x7f800000n);
    expect(d(e5([inf, inf, ...zeros.slice(2)], [one, 0xbcn, ...zeros.slice(2)]))).toBe(0x7fffffffn);
  });

  it('a zero sum is −0 only when every term is −0', () => {
    const negZero = Array<bigint>(32).fill(0x80n);
    const zero = Array<bigint>(32).fill(0n);
    expect(d(mx(negZero, zero, UE8M0_ONE, UE8M0_ONE, 0x80000000n))).toBe(0x80000000n);
    expect(d(mx(negZero, zero))).toBe(0n);
  });

  it('refuses wrong counts and combinations with a structured error', () => {
    const ones = Array<bigint>(32).fill(E4M3_ONE);
    expect(blockScaledDot({ ...mx(ones, ones), scaleA: [0x7fn, 0x7fn] })).toMatchObject({
      ok: false,
      code: 'count',
      message: 'scale_a holds 2 scales; .kind::mxf8f6f4 with .scale_vec::1X takes 1',
    });
    expect(blockScaledDot({ ...mx(ones.slice(1), ones) })).toMatchObject({
      ok: false,
      code: 'count',
    });
    expect(blockScaledDot({ ...mx(ones, ones), kind: 'mxf4', scaleVec: '2X' })).toMatchObject({
      ok: false,
      code: 'combination',
    });
    expect(blockScaledDot({ ...mx(ones, ones), stype: 'ue4m3' })).toMatchObject({
      ok: false,
      code: 'combination',
    });
    expect(blockScaledDot({ ...mx(ones, ones), c: 1n << 32n })).toMatchObject({
      ok: false,
      code: 'bits',
    });
  });
});

const ELEMENT_BITS = { e4m3: 8, e5m2: 8, e3m2: 6, e2m3: 6, e2m1: 4 } as const;
type Combo = Pick<BlockScaledDotRequest, 'kind' | 'scaleVec' | 'atype' | 'btype' | 'stype'>;
const COMBOS: Combo[] = [
  ...(['e4m3', 'e5m2', 'e3m2', 'e2m3', 'e2m1'] as const).flatMap((atype) =>
    (['e4m3', 'e2m1', 'e5m2'] as const).map((btype): Combo => ({
      kind: 'mxf8f6f4',
      scaleVec: '1X',
      atype,
      btype,
      stype: 'ue8m0',
    })),
  ),
  { kind: 'mxf4', scaleVec: '2X', atype: 'e2m1', btype: 'e2m1', stype: 'ue8m0' },
  { kind: 'mxf4nvf4', scaleVec: '2X', atype: 'e2m1', btype: 'e2m1', stype: 'ue8m0' },
  { kind: 'mxf4nvf4', scaleVec: '4X', atype: 'e2m1', btype: 'e2m1', stype: 'ue4m3' },
];

function requestArb(combo: Combo): fc.Arbitrary<BlockScaledDotRequest> {
  const k = combo.kind === 'mxf8f6f4' ? 32 : 64;
  const chunks = { '1X': 1, '2X': 2, '4X': 4 }[combo.scaleVec];
  // Finite patterns mostly (E5M2 and E4M3 NaNs and infinities now and then), and zeros.
  const isSpecial = (t: keyof typeof ELEMENT_BITS, x: bigint) =>
    (t === 'e5m2' && (x & 0x7fn) >= 0x7cn) || (t === 'e4m3' && (x & 0x7fn) === 0x7fn);
  const element = (t: keyof typeof ELEMENT_BITS) => {
    const any = fc.bigInt(0n, (1n << BigInt(ELEMENT_BITS[t])) - 1n);
    return fc.oneof(
      { weight: 60, arbitrary: any.filter((x) => !isSpecial(t, x)) },
      { weight: 10, arbitrary: fc.constant(0n) },
      { weight: 1, arbitrary: any },
    );
  };
  // Scales near 1 mostly, so that products meet; now and then anywhere (NaN included).
  const scale = fc.oneof(
    {
      weight: 4,
      arbitrary: fc.bigInt(
        combo.stype === 'ue8m0' ? 0x70n : 0x20n,
        combo.stype === 'ue8m0' ? 0x8fn : 0x50n,
      ),
    },
    { weight: 1, arbitrary: fc.bigInt(0n, 0xffn) },
  );
  const c = fc.oneof(
    { weight: 2, arbitrary: fc.constant(0n) },
    { weight: 3, arbitrary: fc.integer({ min: -64, max: 64 }).map((x) => f32(x / 4)) },
    { weight: 1, arbitrary: fc.bigInt(0n, 0xffffffffn) },
  );
  return fc
    .record({
      a: fc.array(element(combo.atype), { minLength: k, maxLength: k }),
      b: fc.array(element(combo.btype), { minLength: k, maxLength: k }),
      c,
      scaleA: fc.array(scale, { minLength: chunks, maxLength: chunks }),
      scaleB: fc.array(scale, { minLength: chunks, maxLength: chunks }),
    })
    .map((r) => ({ ...combo, ...r }));
}

describe('block-scaled mma against the reference, random elements', () => {
  for (const combo of COMBOS) {
    it(`${combo.kind} .scale_vec::${combo.scaleVec} .${combo.atype} × .${combo.btype} (.${combo.stype})`, () => {
      fc.assert(
        fc.property(requestArb(combo), (r) => {
          expect(d(r).toString(16)).toBe(refBlockScaledDot(r).toString(16));
        }),
        { numRuns: Math.max(10, Math.round(RANDOM / (combo.kind === 'mxf8f6f4' ? 3 : 1))) },
      );
    });
  }
});

describe('a quantized row and column into the block-scaled mma (the block panel hand-off)', () => {
  const f32Bits = (x: number) => Number(f32(x));

  it('MXFP8 E4M3: a block of ones gives 32 exactly, nothing lost', () => {
    const ones = Array<number>(32).fill(f32Bits(1));
    const q = quantizeBlock({ scheme: 'mxfp8-e4m3', scaleRule: 'ocp', values: ones });
    if (!q.ok) throw new Error(q.message);
    const h = blockDotHandOff(q, q, ones, ones);
    expect(h.form).toBe(
      'mma.sync.aligned.m16n8k32.row.col.kind::mxf8f6f4.block_scale.scale_vec::1X.f32.e4m3.e4m3.f32.ue8m0',
    );
    expect(h.mma.ok && h.mma.d).toBe(f32(32));
    expect(h.exact?.decimal).toBe('32');
    expect(h.error?.decimal).toBe('0');
  });

  it('NVFP4: the block is the first chunk of 16 of k = 64, d times the tensor scales', () => {
    const values = Array.from({ length: 16 }, (_, i) => f32Bits(i + 1));
    const q = quantizeBlock({ scheme: 'nvfp4', scaleRule: 'nvfp4', values });
    if (!q.ok) throw new Error(q.message);
    const h = blockDotHandOff(q, q, values, values);
    expect(h.request).toMatchObject({ kind: 'mxf4nvf4', scaleVec: '4X', stype: 'ue4m3' });
    expect(h.padding).toBe(48);
    expect(h.mma.ok && h.mma.d).toBe(refBlockScaledDot(h.request));
    // Σ i² for i = 1 … 16
    expect(h.exact?.decimal).toBe('1496');
    expect(h.relative).not.toBeNull();
    expect(Math.abs(h.relative!)).toBeLessThan(0.2);
  });

  const SCHEMES = [
    'mxfp8-e4m3',
    'mxfp8-e5m2',
    'mxfp6-e3m2',
    'mxfp6-e2m3',
    'mxfp4',
    'nvfp4',
  ] as const;
  for (const scheme of SCHEMES) {
    it(`${scheme}: random rows and columns, the mma element as the reference computes it`, () => {
      const size = scheme === 'nvfp4' ? 16 : 32;
      const value = fc.double({ min: -1000, max: 1000, noNaN: true }).map(f32Bits);
      fc.assert(
        fc.property(
          fc.array(value, { minLength: size, maxLength: size }),
          fc.array(value, { minLength: size, maxLength: size }),
          (x, y) => {
            const rule = scheme === 'nvfp4' ? 'nvfp4' : 'rp';
            const row = quantizeBlock({ scheme, scaleRule: rule, values: x });
            const column = quantizeBlock({ scheme, scaleRule: rule, values: y });
            if (!row.ok || !column.ok) throw new Error('refused');
            const h = blockDotHandOff(row, column, x, y);
            expect(h.mma.ok && h.mma.d).toBe(refBlockScaledDot(h.request));
          },
        ),
        { numRuns: Math.max(5, Math.round(RANDOM / 10)) },
      );
    });
  }
});
