/**
 * Block quantization (src/engine/block-scale) against the independent reference
 * (tests/reference/block-scale-ref.ts: exact rationals, the cvt reference): the published cases
 * as fixtures, every block-scale decision pinned by a vector, structured errors for bad
 * requests, random blocks of every scheme and rule (fast-check), and the what-if comparison.
 *
 * Size: PTXF_BLOCK_RANDOM random blocks per scheme and rule (default 30; .rs gets half).
 */
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import {
  BLOCK_SCALE_DECISIONS,
  BLOCK_SCHEMES,
  compareScaleRules,
  quantizeBlock,
  SCHEMES,
  type BlockQuantization,
  type BlockScaleDecisionId,
  type BlockScaleRequest,
  type BlockScaleResult,
} from '../src/engine/block-scale/index.ts';
import { divRnF32, mulRnF32 } from '../src/engine/block-scale/f32-arith.ts';
import { evaluate } from '../src/engine/pipeline.ts';
import type { ExactValue } from '../src/engine/value.ts';
import {
  refErrorSummary,
  refQuantizeBlock,
  type RefBlockRequest,
} from './reference/block-scale-ref.ts';
import { roundRational } from './reference/neighbour-round.ts';
import { compare, div, mul, pow2, rational, type Rational } from './reference/rational.ts';
import { REF_FORMATS, decode } from './reference/ref-formats.ts';

const RANDOM = Number(process.env.PTXF_BLOCK_RANDOM ?? 30);
let blocksChecked = 0;
afterAll(() => console.log(`block-scale: ${blocksChecked} blocks checked against the reference`));

/** The binary32 pattern of a number (rounded to nearest by the platform). */
function f32(x: number): number {
  const view = new DataView(new ArrayBuffer(4));
  view.setFloat32(0, x);
  return view.getUint32(0);
}
const bitsOf = (hex: string) => Number.parseInt(hex, 16) >>> 0;

function ok(result: BlockScaleResult): BlockQuantization {
  if (!result.ok) throw new Error(`${result.code}: ${result.message}`);
  return result;
}

/** An ExactValue's reduced dyadic ("-3 × 2^-26", "0") as a rational. */
function rationalOf(v: ExactValue): Rational {
  if (v.rational === '0' || v.rational === '-0') return rational(0n);
  const m = /^(-?\d+) × 2\^(-?\d+)$/.exec(v.rational);
  if (!m) throw new Error(`not a dyadic: ${v.rational}`);
  return mul(rational(BigInt(m[1]!)), pow2(Number(m[2])));
}
const sameRational = (x: Rational, y: Rational) => compare(x, y) === 0;

const padded = (head: number[], fill: number, size: number) => [
  ...head,
  ...Array.from({ length: size - head.length }, () => fill),
];

/** The engine and the reference on one request: every bit, every exact value, every flag. */
function checkAgainstReference(request: RefBlockRequest & { rounding?: 'rn' | 'rs' }) {
  blocksChecked++;
  const engine = ok(
    quantizeBlock({
      ...request,
      rounding: request.rbits ? 'rs' : 'rn',
      ...(request.rbits ? { rbits: request.rbits } : {}),
    } as BlockScaleRequest),
  );
  const ref = refQuantizeBlock(request);
  const where = JSON.stringify({ ...request, values: request.values.map((v) => v.toString(16)) });
  expect(bitsOf(engine.scale.bits), where).toBe(ref.scale);
  expect(engine.globalScale ? bitsOf(engine.globalScale.bits) : null, where).toBe(ref.global);
  expect(
    engine.elements.map((e) => bitsOf(e.scaled.bits)),
    where,
  ).toEqual(ref.scaled);
  expect(
    engine.elements.map((e) => bitsOf(e.stored.bits)),
    where,
  ).toEqual(ref.elements);
  engine.elements.forEach((e, i) => {
    expect(sameRational(rationalOf(e.decoded), ref.decoded[i]!), `${where} decoded ${i}`).toBe(
      true,
    );
    expect(sameRational(rationalOf(e.error!.absolute), ref.errors[i]!), `${where} error ${i}`).toBe(
      true,
    );
    expect(e.flags.flushedToZero, `${where} flushed ${i}`).toBe(ref.flushedToZero[i]);
    if (!request.rbits) expect(e.flags.saturated, `${where} saturated ${i}`).toBe(ref.saturated[i]);
  });
  const summary = refErrorSummary(ref.errors);
  expect(sameRational(rationalOf(engine.summary.maxAbsolute.value), summary.max), where).toBe(true);
  expect(Math.abs(engine.summary.rms - summary.rms)).toBeLessThanOrEqual(summary.rms * 1e-12);
  return engine;
}

describe('block schemes', () => {
  it("hold issue 26's table: element, block, max_elem, emax_elem", () => {
    const table = BLOCK_SCHEMES.map((s) => {
      const i = SCHEMES[s];
      return [s, i.element, i.blockSize, i.scaleFormat, i.maxElem, i.emaxElem, i.rules.join(' ')];
    });
    expect(table).toEqual([
      ['mxfp8-e4m3', 'e4m3', 32, 'ue8m0', 448, 8, 'ocp rp rz'],
      ['mxfp8-e5m2', 'e5m2', 32, 'ue8m0', 57344, 15, 'ocp rp rz'],
      ['mxfp6-e3m2', 'e3m2', 32, 'ue8m0', 28, 4, 'ocp rp rz'],
      ['mxfp6-e2m3', 'e2m3', 32, 'ue8m0', 7.5, 2, 'ocp rp rz'],
      ['mxfp4', 'e2m1', 32, 'ue8m0', 6, 2, 'ocp rp rz'],
      ['nvfp4', 'e2m1', 16, 'ue4m3', 6, 2, 'nvfp4'],
    ]);
    expect(SCHEMES['mxfp8-e4m3'].maxElemBits).toBe(0x43e00000);
  });
});

describe('div.rn.f32 and mul.rn.f32', () => {
  const F32 = REF_FORMATS.f32;
  const rn = (x: Rational) => roundRational(x, 'rn', F32) >>> 0;
  const finiteBits = fc
    .tuple(fc.boolean(), fc.integer({ min: 0, max: 254 }), fc.integer({ min: 0, max: 0x7fffff }))
    .map(([s, e, m]) => ((s ? 0x80000000 : 0) | (e << 23) | m) >>> 0)
    .filter((b) => (b & 0x7fffffff) !== 0);

  it('round the exact quotient and product once, to nearest even (subnormals and overflow too)', () => {
    fc.assert(
      fc.property(finiteBits, finiteBits, (a, b) => {
        const x = decode(a, F32);
        const y = decode(b, F32);
        expect(divRnF32(a, b).bits).toBe(rn(div(x, y)));
        expect(mulRnF32(a, b).bits).toBe(rn(mul(x, y)));
      }),
      { numRuns: 400 },
    );
  });

  it('give IEEE 754 specials, and the canonical NaN', () => {
    const nan = 0x7fffffff;
    const cases: [number, number, number, number][] = [
      // a, b, a / b, a × b
      [f32(1), 0, 0x7f800000, 0],
      [f32(-1), 0, 0xff800000, 0x80000000],
      [0, 0, nan, 0],
      [0x80000000, f32(3), 0x80000000, 0x80000000],
      [0x7f800000, 0x7f800000, nan, 0x7f800000],
      [0x7f800000, 0, 0x7f800000, nan],
      [f32(2), 0xff800000, 0x80000000, 0xff800000],
      [0x7fc00001, f32(1), nan, nan],
      [0x7f61b1e6, f32(2), 0x7ee1b1e6, 0x7f800000],
      [0x7f61b1e6, f32(0.5), 0x7f800000, 0x7ee1b1e6],
    ];
    for (const [a, b, quotient, product] of cases) {
      expect(divRnF32(a, b).bits, `${a.toString(16)} / ${b.toString(16)}`).toBe(quotient);
      expect(mulRnF32(a, b).bits, `${a.toString(16)} × ${b.toString(16)}`).toBe(product);
    }
  });
});

describe('published cases', () => {
  it('957 in an MXFP8 E4M3 block: the floor rule (ocp) saturates it to 448 × 2, rp keeps it', () => {
    const values = padded([f32(957)], f32(1.5), 32);
    const ocp = checkAgainstReference({ scheme: 'mxfp8-e4m3', scaleRule: 'ocp', values });
    // floor(log2 957) = 9, minus emax_elem 8: scale 2^1 (0x80); 957 / 2 = 478.5 > 448.
    expect(ocp.scale.bits).toBe('0x80');
    expect(ocp.elements[0]!.scaled.value.decimal).toBe('478.5');
    expect(ocp.elements[0]!.stored.bits).toBe('0x7e');
    expect(ocp.elements[0]!.flags.saturated).toBe(true);
    expect(ocp.elements[0]!.decoded.decimal).toBe('896');
    expect(ocp.elements[0]!.error!.absolute.decimal).toBe('-61');
    expect(ocp.summary.saturated).toEqual([0]);
    // rp: 957 / 448 = 2.136… rounds up to 2^2; 239.25 → 240; decoded 960.
    const rp = checkAgainstReference({ scheme: 'mxfp8-e4m3', scaleRule: 'rp', values });
    expect(rp.scale.bits).toBe('0x81');
    expect(rp.elements[0]!.stored.bits).toBe('0x77');
    expect(rp.elements[0]!.decoded.decimal).toBe('960');
    expect(rp.summary.saturated).toEqual([]);
    const rz = checkAgainstReference({ scheme: 'mxfp8-e4m3', scaleRule: 'rz', values });
    expect(rz.scale.bits).toBe('0x80');
  });

  it('127.9999 in an E5M2 block: ocp clamps it to 112, rp stores 128', () => {
    const values = padded([f32(127.9999)], f32(1), 32);
    expect(values[0]).toBe(0x42fffff3);
    const ocp = checkAgainstReference({ scheme: 'mxfp8-e5m2', scaleRule: 'ocp', values });
    // floor(log2 127.9999) = 6, minus 15: 2^-9; × 512 = 65535.95 > 57344 (e5m2's largest).
    expect(ocp.scale.bits).toBe('0x76');
    expect(ocp.elements[0]!.stored.bits).toBe('0x7b');
    expect(ocp.elements[0]!.decoded.decimal).toBe('112');
    expect(ocp.elements[0]!.flags.saturated).toBe(true);
    const rp = checkAgainstReference({ scheme: 'mxfp8-e5m2', scaleRule: 'rp', values });
    expect(rp.scale.bits).toBe('0x77');
    expect(rp.elements[0]!.stored.bits).toBe('0x78');
    expect(rp.elements[0]!.decoded.decimal).toBe('128');
    expect(rp.elements[0]!.error!.absolute.decimal).toBe('0.00009918212890625');
  });

  it('all-tiny blocks: the scale stops at 2^-127, and values below its reach flush to zero', () => {
    const deep = Array.from({ length: 32 }, (_, i) => f32(2 ** -140 * (1 + i / 32)));
    for (const scaleRule of ['ocp', 'rp', 'rz'] as const) {
      const r = checkAgainstReference({ scheme: 'mxfp8-e4m3', scaleRule, values: deep });
      expect(r.scale.bits).toBe('0x00');
      expect(r.scale.exponent).toBe(-127);
      expect(r.summary.flushedToZero).toHaveLength(32);
    }
    const mxfp4 = checkAgainstReference({
      scheme: 'mxfp4',
      scaleRule: 'ocp',
      values: deep.map((v, i) => (i % 2 ? v | 0x80000000 : v) >>> 0),
    });
    expect(mxfp4.elements.map((e) => e.stored.bits)).toEqual(
      Array.from({ length: 32 }, (_, i) => (i % 2 ? '0x8' : '0x0')),
    );
    // Just above 2^-127 the clamped scale still reaches them.
    const shallow = Array.from({ length: 32 }, (_, i) => f32(1e-38 * (1 + i / 32)));
    const r = checkAgainstReference({ scheme: 'mxfp8-e4m3', scaleRule: 'ocp', values: shallow });
    expect(r.scale.bits).toBe('0x00');
    expect(r.summary.flushedToZero).toEqual([]);
  });

  it("amax exactly at the element format's largest normal: scale 2^0, stored exactly", () => {
    for (const scheme of BLOCK_SCHEMES.filter((s) => s !== 'nvfp4')) {
      const info = SCHEMES[scheme];
      const values = padded([f32(-info.maxElem), f32(info.maxElem / 3)], f32(1), 32);
      for (const scaleRule of info.rules) {
        const r = checkAgainstReference({ scheme, scaleRule, values });
        expect(r.scale.bits, `${scheme} ${scaleRule}`).toBe('0x7f');
        expect(r.elements[0]!.decoded.decimal).toBe(String(-info.maxElem));
        expect(r.elements[0]!.flags.saturated).toBe(false);
        expect(r.summary.saturated).toEqual([]);
      }
      // 2^10 times higher: the same elements under 2^10.
      const high = values.map((v) => f32(decodeF32(v) * 1024));
      for (const scaleRule of info.rules)
        expect(checkAgainstReference({ scheme, scaleRule, values: high }).scale.bits).toBe('0x89');
    }
  });

  it('an all-zero block: scale 2^-127 (MX), zeros of the values’ signs', () => {
    const values = padded([0x80000000], 0, 32);
    for (const scheme of BLOCK_SCHEMES.filter((s) => s !== 'nvfp4'))
      for (const scaleRule of SCHEMES[scheme].rules) {
        const r = checkAgainstReference({ scheme, scaleRule, values });
        expect(r.scale.bits).toBe('0x00');
        expect(r.elements[0]!.stored.class).toBe('zero');
        expect(r.elements[0]!.stored.value.negative).toBe(true);
        expect(r.summary.maxAbsolute.number).toBe(0);
      }
    const nv = checkAgainstReference({
      scheme: 'nvfp4',
      scaleRule: 'nvfp4',
      values: values.slice(0, 16),
    });
    expect(nv.globalScale).toMatchObject({ bits: '0x3f800000', zeroReplaced: true });
    expect(nv.scale.bits).toBe('0x00');
    expect(nv.elements.map((e) => e.stored.bits)).toEqual(['0x8', ...Array(15).fill('0x0')]);
  });

  it('NVFP4 with tensorAmax 2688: global 1.0, block scale e4m3(16 / 6) = 2.75', () => {
    const values = padded([f32(16)], f32(1), 16);
    const r = checkAgainstReference({
      scheme: 'nvfp4',
      scaleRule: 'nvfp4',
      values,
      tensorAmax: f32(2688),
    });
    expect(r.globalScale).toMatchObject({ bits: '0x3f800000', from: 'tensor-amax' });
    expect(r.scale).toMatchObject({ format: 'ue4m3', bits: '0x43' });
    expect(r.scale.value.decimal).toBe('2.75');
    // 16 / 2.75 = 5.82 → 6 (0x7), decoded 16.5; 1 / 2.75 = 0.36 → 0.5 (0x1), decoded 1.375.
    expect(r.elements[0]!.stored.bits).toBe('0x7');
    expect(r.elements[0]!.decoded.decimal).toBe('16.5');
    expect(r.elements[1]!.decoded.decimal).toBe('1.375');
  });

  it("NVFP4 without tensorAmax: the block's amax sets the global scale, the block scale is 448", () => {
    const values = [0.1, 2, 3, -4, 5, 6, 7, 8, 0, 0, 0, 0, 0, 0, 0, 1e-3].map(f32);
    const r = checkAgainstReference({ scheme: 'nvfp4', scaleRule: 'nvfp4', values });
    expect(r.globalScale?.from).toBe('block-amax');
    expect(r.globalScale?.dividend.bits).toBe('0x41000000');
    expect(r.scale.bits).toBe('0x7e');
    expect(r.scale.saturated).toBe(false);
    // The same as tensorAmax = the block's amax.
    const same = ok(
      quantizeBlock({ scheme: 'nvfp4', scaleRule: 'nvfp4', values, tensorAmax: f32(8) }),
    );
    expect(same.elements.map((e) => e.stored.bits)).toEqual(r.elements.map((e) => e.stored.bits));
  });

  it("a zero NVFP4 block scale gives zeros of the values' signs", () => {
    const values = padded([f32(-0.125)], f32(0.1), 16);
    const r = checkAgainstReference({
      scheme: 'nvfp4',
      scaleRule: 'nvfp4',
      values,
      tensorAmax: f32(2 ** 20),
    });
    expect(r.scale.bits).toBe('0x00');
    expect(r.elements.map((e) => e.stored.bits)).toEqual(['0x8', ...Array(15).fill('0x0')]);
    expect(r.summary.flushedToZero).toHaveLength(16);
    const copies = r.program.lines.filter((l) => l.text.includes('copysign.f32'));
    expect(copies.every((l) => l.result !== null)).toBe(true);
    expect(
      r.program.lines
        .filter((l) => l.text.includes('div.rn.f32') && l.phase === 'scale-values')
        .every((l) => l.result === null),
    ).toBe(true);
  });
});

function decodeF32(bits: number): number {
  const view = new DataView(new ArrayBuffer(4));
  view.setUint32(0, bits);
  return view.getFloat32(0);
}

describe('the answer carries what reproduces it', () => {
  const values = Array.from({ length: 32 }, (_, i) => f32(Math.sin(i * 1.7) * (i === 5 ? 40 : 3)));

  it('each element names a catalog cvt and registers that give its stored bits', () => {
    for (const rounding of ['rn', 'rs'] as const) {
      const r = ok(
        quantizeBlock({
          scheme: 'mxfp6-e2m3',
          scaleRule: 'rp',
          values,
          rounding,
          ...(rounding === 'rs' ? { rbits: [0x80ff7f01] } : {}),
        }),
      );
      for (const e of r.elements) {
        const registers = Object.fromEntries(
          Object.entries(e.cvt.registers).map(([k, v]) => [k, BigInt(v!)]),
        );
        const again = evaluate(e.cvt.form, registers);
        expect(again.elements[e.cvt.element]!.result.toLowerCase()).toBe(e.stored.bits);
        expect(`0x${again.d.slice(2).toLowerCase()}`).toBe(e.cvt.d);
        expect(bitsOf(e.cvt.registers[(['a', 'b', 'e', 'f'] as const)[e.cvt.element]!]!)).toBe(
          bitsOf(e.scaled.bits),
        );
      }
      expect(r.cvtForms.map((f) => f.form)).toContain(
        rounding === 'rn' ? 'cvt.rn.satfinite.e2m3x2.f32' : 'cvt.rs.satfinite.e2m3x4.f32',
      );
    }
  });

  it('the program lists every step as PTX, and its lines hold the values the result reports', () => {
    const r = ok(quantizeBlock({ scheme: 'mxfp8-e4m3', scaleRule: 'rp', values }));
    const lines = r.program.lines;
    expect(r.program.inputs).toHaveLength(32);
    expect(lines.filter((l) => l.phase === 'amax')).toHaveLength(63);
    const scale = lines.filter((l) => l.phase === 'scale').map((l) => l.text);
    expect(scale).toEqual([
      'div.rn.f32 %f96, %f95, 0f43E00000;',
      'cvt.rp.satfinite.ue8m0x2.f32 %rs1, %f96, %f96;',
    ]);
    const amaxLine = lines.filter((l) => l.phase === 'amax').at(-1)!;
    expect(amaxLine.result).toBe(r.amax.bits);
    r.elements.forEach((e, i) => {
      const scaling = lines.find((l) => l.phase === 'scale-values' && l.elements?.[0] === i)!;
      expect(scaling.text).toMatch(/^mul\.rn\.f32 %f\d+, %f\d+, 0f[0-9A-F]{8};$/);
      expect(scaling.result).toBe(e.scaled.bits);
    });
    expect(lines.filter((l) => l.phase === 'convert')).toHaveLength(16);
  });
});

describe('bad requests: structured errors, never an exception', () => {
  const block32 = Array.from({ length: 32 }, () => f32(1));
  const cases: [Record<string, unknown>, string, number?][] = [
    [{ scheme: 'mxfp9', scaleRule: 'ocp', values: block32 }, 'scheme'],
    [{ scheme: 'mxfp4', scaleRule: 'floor', values: block32 }, 'scale-rule'],
    [{ scheme: 'mxfp4', scaleRule: 'nvfp4', values: block32 }, 'scale-rule'],
    [{ scheme: 'nvfp4', scaleRule: 'ocp', values: block32.slice(16) }, 'scale-rule'],
    [{ scheme: 'mxfp4', scaleRule: 'ocp', values: block32.slice(1) }, 'length'],
    [{ scheme: 'nvfp4', scaleRule: 'nvfp4', values: block32 }, 'length'],
    [{ scheme: 'mxfp4', scaleRule: 'ocp', values: 'x' }, 'length'],
    [
      { scheme: 'mxfp4', scaleRule: 'ocp', values: padded([f32(1), 0x7fc00000], 0, 32) },
      'value',
      1,
    ],
    [{ scheme: 'mxfp4', scaleRule: 'rp', values: padded([0xff800000], 0, 32) }, 'value', 0],
    [{ scheme: 'mxfp4', scaleRule: 'rp', values: padded([1.5], 0, 32) }, 'value', 0],
    [{ scheme: 'mxfp4', scaleRule: 'rp', values: padded([2 ** 32], 0, 32) }, 'value', 0],
    [{ scheme: 'mxfp4', scaleRule: 'ocp', values: block32, tensorAmax: f32(1) }, 'tensor-amax'],
    [
      { scheme: 'nvfp4', scaleRule: 'nvfp4', values: block32.slice(16), tensorAmax: f32(-1) },
      'tensor-amax',
    ],
    [
      { scheme: 'nvfp4', scaleRule: 'nvfp4', values: block32.slice(16), tensorAmax: 0x7f800000 },
      'tensor-amax',
    ],
    [{ scheme: 'mxfp4', scaleRule: 'ocp', values: block32, rounding: 'rna' }, 'rounding'],
    [{ scheme: 'mxfp4', scaleRule: 'ocp', values: block32, rounding: 'rs' }, 'rbits'],
    [
      { scheme: 'mxfp4', scaleRule: 'ocp', values: block32, rounding: 'rs', rbits: [1, 2] },
      'rbits',
    ],
    [{ scheme: 'mxfp4', scaleRule: 'ocp', values: block32, rbits: [1] }, 'rbits'],
  ];
  it.each(cases)('%j → %s', (request, code, index) => {
    const r = quantizeBlock(request as unknown as BlockScaleRequest);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.code).toBe(code);
    expect(r.message.length).toBeGreaterThan(10);
    if (index !== undefined) expect(r.index).toBe(index);
  });

  it('garbage of any shape is answered, not thrown', () => {
    const anything = fc.oneof(
      fc.anything({ withBigInt: true }),
      fc.constantFrom('mxfp4', 'nvfp4', 'ocp', 'nvfp4', 'rs'),
    );
    fc.assert(
      fc.property(
        fc.tuple(anything, anything, anything, anything, anything, anything),
        ([scheme, scaleRule, values, rounding, rbits, tensorAmax]) => {
          const r = quantizeBlock({
            scheme,
            scaleRule,
            values,
            rounding,
            rbits,
            tensorAmax,
          } as BlockScaleRequest);
          expect(typeof r.ok).toBe('boolean');
        },
      ),
      { numRuns: 200 },
    );
    // A good block with bad options: the checks past the block's own.
    const ones = Array.from({ length: 16 }, () => f32(1));
    fc.assert(
      fc.property(fc.tuple(anything, anything, anything), ([rounding, rbits, tensorAmax]) => {
        const request = { scheme: 'nvfp4', scaleRule: 'nvfp4', values: ones, rounding, rbits };
        const r = quantizeBlock({ ...request, tensorAmax } as BlockScaleRequest);
        expect(typeof r.ok).toBe('boolean');
      }),
      { numRuns: 300 },
    );
  });
});

/** Random binary32 blocks: a base exponent and a spread below it, some zeros, few-bit values for ties. */
function blockOf(size: number) {
  const element = fc.record({
    negative: fc.boolean(),
    offset: fc.nat(),
    mantissa: fc.integer({ min: 0, max: 0x7fffff }),
    mask: fc.constantFrom(0x7fffff, 0x780000, 0x700000, 0x400000, 0),
    zero: fc.integer({ min: 0, max: 11 }),
  });
  return fc
    .record({
      base: fc.integer({ min: -149, max: 127 }),
      spread: fc.integer({ min: 0, max: 40 }),
      elements: fc.array(element, { minLength: size, maxLength: size }),
    })
    .map(({ base, spread, elements }) =>
      elements.map((e) => {
        const sign = e.negative ? 0x80000000 : 0;
        if (e.zero === 0) return sign >>> 0;
        const exponent = Math.max(-149, base - (e.offset % (spread + 1)));
        const mantissa = e.mantissa & e.mask;
        if (exponent >= -126) return (sign | ((exponent + 127) << 23) | mantissa) >>> 0;
        // Below the normal range: the significand shifted into the subnormal field.
        return (sign | ((0x800000 | mantissa) >>> (-126 - exponent))) >>> 0;
      }),
    );
}

const rbitsOf = (count: number) =>
  fc.array(fc.integer({ min: 0, max: 0xffffffff }), { minLength: count, maxLength: count });

describe('random blocks against the reference', () => {
  const mx = BLOCK_SCHEMES.filter((s) => s !== 'nvfp4');
  for (const scheme of mx)
    for (const scaleRule of SCHEMES[scheme].rules)
      it(`${scheme} ${scaleRule}`, () => {
        fc.assert(
          fc.property(blockOf(32), (values) => {
            checkAgainstReference({ scheme, scaleRule, values });
          }),
          { numRuns: RANDOM },
        );
      });

  it('nvfp4, with and without tensorAmax', () => {
    const tensorAmax = fc.option(
      fc.oneof(
        fc.integer({ min: 0, max: 0x7f7fffff }),
        fc.constantFrom(0, 0x80000000, 0x00000001, 0x45280000),
      ),
    );
    fc.assert(
      fc.property(blockOf(16), tensorAmax, (values, t) => {
        const engine = checkAgainstReference({
          scheme: 'nvfp4',
          scaleRule: 'nvfp4',
          values,
          ...(t === null ? {} : { tensorAmax: t }),
        });
        // The divisor is zero exactly when the block scale is (decision nvfp4-zero-divisor).
        const divisorLine = engine.program.lines.find((l) => l.text.startsWith('setp.eq.f32 %p2'))!;
        expect(divisorLine.result === '1').toBe(engine.scale.bits === '0x00');
      }),
      { numRuns: RANDOM * 3 },
    );
  });

  it('.rs with random bits, every scheme', () => {
    for (const scheme of BLOCK_SCHEMES) {
      const info = SCHEMES[scheme];
      fc.assert(
        fc.property(blockOf(info.blockSize), rbitsOf(info.blockSize / 4), (values, rbits) => {
          checkAgainstReference({ scheme, scaleRule: info.rules[0]!, values, rbits });
        }),
        { numRuns: Math.max(5, Math.round(RANDOM / 2)) },
      );
    }
  });
});

describe('decisions', () => {
  const values = Array.from({ length: 32 }, (_, i) => f32((i - 16) / 7));
  const cases: Record<BlockScaleDecisionId, () => void> = {
    'block-f32-arithmetic': () => {
      expect(divRnF32(f32(1), 0x80000000).bits).toBe(0xff800000);
      expect(divRnF32(0, 0).bits).toBe(0x7fffffff);
      // Subnormal results are kept: 2^-149 / 2 ties to even, 0; 3 × 2^-149 / 2 to 2 × 2^-149.
      expect(divRnF32(1, f32(2)).bits).toBe(0);
      expect(divRnF32(3, f32(2)).bits).toBe(2);
    },
    'block-ocp-exponent': () => {
      // Every binary32 exponent of amax, at both ends of its binade, against the definition.
      for (const scheme of ['mxfp8-e4m3', 'mxfp8-e5m2', 'mxfp6-e3m2', 'mxfp4'] as const) {
        for (let e = -149; e <= 127; e += scheme === 'mxfp8-e4m3' ? 1 : 7) {
          const low = e >= -126 ? (e + 127) << 23 : 1 << (e + 149);
          for (const amax of [low, e >= -126 ? low | 0x7fffff : (low * 2 - 1) >>> 0]) {
            const r = ok(
              quantizeBlock({ scheme, scaleRule: 'ocp', values: padded([amax], 0, 32) }),
            );
            const expected = Math.min(127, Math.max(-127, e - SCHEMES[scheme].emaxElem));
            expect(r.scale.exponent, `${scheme} amax 2^${e}`).toBe(expected);
          }
        }
      }
    },
    'block-scale-register': () => {
      const r = ok(quantizeBlock({ scheme: 'mxfp4', scaleRule: 'rp', values }));
      expect(r.scale.cvt.registers.a).toBe(r.scale.cvt.registers.b);
      expect(r.scale.cvt.d).toBe(`0x${r.scale.bits.slice(2).repeat(2)}`);
    },
    'block-mx-power-of-two': () => {
      // An all-zero block's scale 2^-127 multiplies by 2^127 (0x7F000000).
      const zero = ok(
        quantizeBlock({ scheme: 'mxfp4', scaleRule: 'ocp', values: padded([], 0, 32) }),
      );
      expect(zero.program.lines.find((l) => l.phase === 'scale-values')!.text).toContain(
        '0f7F000000',
      );
      // A tiny value under a large scale: the product is rounded (subnormal binary32).
      const wide = padded([f32(2 ** 20), 3], 0, 32);
      const r = ok(quantizeBlock({ scheme: 'mxfp8-e4m3', scaleRule: 'ocp', values: wide }));
      const tiny = r.program.lines.find(
        (l) => l.phase === 'scale-values' && l.elements?.[0] === 1,
      )!;
      expect(tiny.inexact).toBe(true);
      expect(r.elements[1]!.scaled.bits).toBe('0x00000000');
    },
    'block-rs-rbits': () => {
      const one = ok(
        quantizeBlock({
          scheme: 'mxfp4',
          scaleRule: 'ocp',
          values,
          rounding: 'rs',
          rbits: [0x1234abcd],
        }),
      );
      const eight = ok(
        quantizeBlock({
          scheme: 'mxfp4',
          scaleRule: 'ocp',
          values,
          rounding: 'rs',
          rbits: Array(8).fill(0x1234abcd),
        }),
      );
      expect(eight.elements.map((e) => e.stored.bits)).toEqual(
        one.elements.map((e) => e.stored.bits),
      );
      const distinct = ok(
        quantizeBlock({
          scheme: 'mxfp4',
          scaleRule: 'ocp',
          values,
          rounding: 'rs',
          rbits: [0, 1, 2, 3, 4, 5, 6, 0xffffffff],
        }),
      );
      expect(distinct.elements[31]!.cvt.registers.rbits).toBe('0xffffffff');
      expect(distinct.elements[4]!.cvt.registers.rbits).toBe('0x00000001');
    },
    'block-error-ulps': () => {
      const r = ok(
        quantizeBlock({
          scheme: 'mxfp8-e4m3',
          scaleRule: 'ocp',
          values: padded([f32(957)], 0, 32),
        }),
      );
      // -61 against ulp(448) = 32 in e4m3, times the scale 2.
      expect(r.elements[0]!.error!.ulps).toBe(-61 / 64);
      const nv = ok(
        quantizeBlock({ scheme: 'nvfp4', scaleRule: 'nvfp4', values: padded([0x80000000], 0, 16) }),
      );
      expect(nv.elements[0]!.error!.ulps).toBeNull();
    },
    'nvfp4-zero-divisor': () => {
      const r = ok(
        quantizeBlock({
          scheme: 'nvfp4',
          scaleRule: 'nvfp4',
          values: padded([f32(-1e-3), 0x80000000], f32(1e-3), 16),
          tensorAmax: f32(1e9),
        }),
      );
      expect(r.scale.bits).toBe('0x00');
      expect(r.elements.slice(0, 3).map((e) => e.scaled.bits)).toEqual([
        '0x80000000',
        '0x80000000',
        '0x00000000',
      ]);
    },
    'nvfp4-decoded-value': () => {
      const r = ok(
        quantizeBlock({
          scheme: 'nvfp4',
          scaleRule: 'nvfp4',
          values: padded([f32(5)], f32(1), 16),
          tensorAmax: f32(1000),
        }),
      );
      const global = rationalOf(r.globalScale!.value);
      const scale = rationalOf(r.scale.value);
      expect(sameRational(rationalOf(r.dequantizeFactor), mul(scale, global))).toBe(true);
      const e = r.elements[0]!;
      expect(
        sameRational(rationalOf(e.decoded), mul(rationalOf(e.stored.value), mul(scale, global))),
      ).toBe(true);
    },
    'nvfp4-tensor-amax': () => {
      const block = padded([f32(3)], f32(1), 16);
      const negativeZero = ok(
        quantizeBlock({
          scheme: 'nvfp4',
          scaleRule: 'nvfp4',
          values: block,
          tensorAmax: 0x80000000,
        }),
      );
      expect(negativeZero.globalScale).toMatchObject({ bits: '0x3f800000', zeroReplaced: true });
      const below = ok(
        quantizeBlock({
          scheme: 'nvfp4',
          scaleRule: 'nvfp4',
          values: block,
          tensorAmax: f32(0.001),
        }),
      );
      expect(below.scale).toMatchObject({ bits: '0x7e', saturated: true });
    },
    'block-compare-arrangement': () => {
      const sixteen = values.slice(0, 16);
      const c = compareScaleRules({ values: sixteen });
      if (!c.ok) throw new Error(c.message);
      const mxfp4 = c.entries.find((e) => e.key === 'mxfp4/rp');
      if (mxfp4?.kind !== 'block') throw new Error('no mxfp4/rp');
      expect(mxfp4.padding).toBe(16);
      const alone = ok(
        quantizeBlock({ scheme: 'mxfp4', scaleRule: 'rp', values: padded(sixteen, 0, 32) }),
      );
      expect(mxfp4.elements.map((e) => e.stored)).toEqual(
        alone.elements.slice(0, 16).map((e) => e.stored.bits),
      );
      const c32 = compareScaleRules({ values });
      if (!c32.ok) throw new Error(c32.message);
      const nv = c32.entries.find((e) => e.key === 'nvfp4/nvfp4');
      if (nv?.kind !== 'block') throw new Error('no nvfp4');
      expect(nv.blocks).toHaveLength(2);
      expect(nv.blocks[0]!.globalScale!.bits).toBe(nv.blocks[1]!.globalScale!.bits);
      expect(nv.blocks[0]!.globalScale!.dividend.bits).toBe(c32.tensorAmax.bits);
    },
  };
  it.each(BLOCK_SCALE_DECISIONS.map((d) => [d.id]))('%s', (id) => cases[id]());
  it('every result names the decisions it relies on, all of them documented', () => {
    const ids = new Set(BLOCK_SCALE_DECISIONS.map((d) => d.id));
    const r = ok(quantizeBlock({ scheme: 'mxfp4', scaleRule: 'ocp', values }));
    expect(r.decisions).toContain('block-ocp-exponent');
    for (const d of r.decisions) expect(ids.has(d)).toBe(true);
  });
});

describe('what if: every scheme and rule, f32 and bf16', () => {
  const values = Array.from({ length: 32 }, (_, i) => f32(Math.sin(i * 1.7) * (i === 5 ? 40 : 3)));

  it('ranks the schemes by what they lose, and knows which rule loses least for each', () => {
    const c = compareScaleRules({ values });
    if (!c.ok) throw new Error(c.message);
    expect(c.entries.map((e) => e.key)).toEqual([
      ...BLOCK_SCHEMES.flatMap((s) => SCHEMES[s].rules.map((r) => `${s}/${r}`)),
      'f32',
      'bf16',
    ]);
    const rms = (key: string) => c.entries.find((e) => e.key === key)!.summary.rms;
    const ranked = c.ranking.map(rms);
    expect(ranked).toEqual([...ranked].sort((x, y) => x - y));
    expect(c.least).toBe(c.ranking[0]);
    // 40 sin(8.5) = 31.9 saturates under ocp in e4m3 (31.9 × 2^4 > 448); rp rounds the scale up.
    expect(c.leastPerScheme['mxfp8-e4m3']).toBe('rp');
    expect(c.entries.find((e) => e.key === 'mxfp8-e4m3/ocp')!.summary.saturated).toEqual([5]);
    expect(rms('f32')).toBe(0);
    expect(c.entries.find((e) => e.key === 'bf16')!.bitsPerValue).toBe(16);
  });

  it('stores bf16 by cvt.rn.bf16.f32, as the reference rounds it', () => {
    const c = compareScaleRules({ values });
    if (!c.ok) throw new Error(c.message);
    const bf16 = c.entries.find((e) => e.key === 'bf16')!;
    bf16.elements.forEach((e, i) => {
      const expected = roundRational(decode(values[i]!, REF_FORMATS.f32), 'rn', REF_FORMATS.bf16);
      expect(bitsOf(e.stored)).toBe(expected);
    });
  });

  it('refuses other lengths and bad values with the same structured errors', () => {
    expect(compareScaleRules({ values: values.slice(0, 20) })).toMatchObject({
      ok: false,
      code: 'length',
    });
    expect(compareScaleRules({ values: padded([0x7f800000], 0, 16) })).toMatchObject({
      ok: false,
      code: 'value',
      index: 0,
    });
  });
});
