import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { FORMS, PTX_VERSIONS, TARGETS } from '../catalog/index.ts';
import {
  decodeUrl,
  encodeUrl,
  parseBinaryBits,
  parseBits,
  parseHexBits,
  type UrlState,
} from './url-codec.ts';

const example =
  '?v=1&instr=fma.rn.relu.bf16x2&target=sm_90&ptx=8.6&a=0x3c003c00&b=0x40004000&c=0x00000000&oob=b';

describe('url codec', () => {
  it('decodes the documented example exactly', () => {
    const { state, ignored } = decodeUrl(example);
    expect(ignored).toEqual([]);
    expect(state).toEqual({
      instr: 'fma.rn.relu.bf16x2',
      target: 'sm_90',
      ptx: '8.6',
      operands: { a: 0x3c003c00, b: 0x40004000, c: 0 },
      oob: { a: [false, false], b: [true, true], c: [false, false] },
    });
    expect(encodeUrl(state)).toBe(example);
  });

  it('round-trips every form, target and version with random bits and lane marks', () => {
    const forms = FORMS.map((f) => f.text);
    const arb = fc.record({
      instr: fc.constantFrom(...forms),
      target: fc.constantFrom(...TARGETS.map((t) => t.name)),
      ptx: fc.constantFrom(...PTX_VERSIONS),
      bits: fc.tuple(fc.nat(0xffffffff), fc.nat(0xffffffff), fc.nat(0xffffffff)),
      marks: fc.array(fc.boolean(), { minLength: 6, maxLength: 6 }),
    });
    fc.assert(
      fc.property(arb, ({ instr, target, ptx, bits, marks }) => {
        const form = FORMS.find((f) => f.text === instr)!;
        const op = (k: 'a' | 'b' | 'c') => form.operands.find((o) => o.name === k);
        const mask = (k: 'a' | 'b' | 'c', v: number) => (op(k)?.bits === 16 ? v & 0xffff : v >>> 0);
        const lanes = (k: 'a' | 'b' | 'c', i: number): readonly [boolean, boolean] =>
          op(k) && op(k)!.format !== 'f32' // only 16-bit lanes can be OOB-NaN
            ? [marks[i]!, op(k)!.lanes === 2 && marks[i + 1]!]
            : [false, false];
        const state: UrlState = {
          instr,
          target,
          ptx,
          operands: { a: mask('a', bits[0]), b: mask('b', bits[1]), c: mask('c', bits[2]) },
          oob: { a: lanes('a', 0), b: lanes('b', 2), c: lanes('c', 4) },
        };
        const decoded = decodeUrl(encodeUrl(state));
        expect(decoded.ignored).toEqual([]);
        const used = (k: 'a' | 'b' | 'c') =>
          op(k) ? decoded.state.operands[k] : state.operands[k];
        expect({
          ...decoded.state,
          operands: { a: used('a'), b: used('b'), c: used('c') },
        }).toEqual(state);
      }),
      { numRuns: 300 },
    );
  });

  it('loads what it can from a malformed URL and names each ignored part', () => {
    const { state, ignored } = decodeUrl(
      '?v=1&instr=fma.rn.bogus.f16&target=sm_999&ptx=banana&a=zz&b=0x12345&colour=red&oob=q',
    );
    expect(state.instr).toBe('fma.rn.f16');
    expect(state.target).toBe('sm_90');
    expect(state.ptx).toBe('8.6');
    expect(ignored).toHaveLength(7);
    expect(ignored.join('\n')).toMatch(/unknown parameter 'colour'/);
    expect(ignored.join('\n')).toMatch(/instr 'fma.rn.bogus.f16': unknown modifier '.bogus'/);
    expect(ignored.join('\n')).toMatch(/target 'sm_999' is unknown/);
    expect(ignored.join('\n')).toMatch(/operand a: zz is not a hexadecimal/);
    expect(ignored.join('\n')).toMatch(/operand b: 0x12345 does not fit in 16 bits/);
  });

  it('never throws on arbitrary query strings', () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        const { state } = decodeUrl(s);
        expect(FORMS.some((f) => f.text === state.instr)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it('migrates an unversioned hand-written URL (form=, sm=90)', () => {
    const { state, ignored } = decodeUrl('?form=add.bf16&sm=90a&a=3f80');
    expect(ignored).toEqual([]);
    expect(state.instr).toBe('add.bf16');
    expect(state.target).toBe('sm_90a');
    expect(state.operands.a).toBe(0x3f80);
  });

  it('reads a future version as the current one and says so', () => {
    const { state, ignored } = decodeUrl('?v=7&instr=add.f16');
    expect(state.instr).toBe('add.f16');
    expect(ignored[0]).toMatch(/schema version v=7 is unknown/);
  });

  it('rejects operands the form does not have, and oob lanes a scalar lacks', () => {
    const { ignored } = decodeUrl('?v=1&instr=neg.f16&b=0x1&oob=a1');
    expect(ignored).toEqual([
      'operand b: neg.f16 has no operand b',
      "oob item 'a1': a has one lane in neg.f16",
    ]);
  });

  it('parses hex and binary bit patterns within the width', () => {
    expect(parseBits('0x7fff', 16)).toBe(0x7fff);
    expect(parseBits('0b1', 16)).toBe(1);
    expect(parseBits('0xffffffff', 32)).toBe(0xffffffff);
    expect(parseBits('0x0000ffff', 16)).toBe(0xffff);
    expect(typeof parseBits('0x10000', 16)).toBe('string');
  });

  it('the hex field reads hex and the binary field reads binary, with or without a prefix', () => {
    expect(parseHexBits('3c00', 16)).toBe(0x3c00);
    expect(parseHexBits('0x3C_00', 16)).toBe(0x3c00);
    expect(parseHexBits('0b11', 16)).toBe(0x0b11); // hex digits, not a binary prefix
    expect(parseHexBits('0x3g00', 16)).toMatch(/not a hexadecimal bit pattern/);
    expect(parseBinaryBits('101', 16)).toBe(0b101);
    expect(parseBinaryBits('0b11', 16)).toBe(0b11);
    expect(parseBinaryBits('0011110000000000', 16)).toBe(0x3c00);
    expect(parseBinaryBits('0011 1100 0000 0000', 16)).toBe(0x3c00);
    expect(parseBinaryBits('1'.repeat(32), 32)).toBe(0xffffffff);
    expect(parseBinaryBits('1'.repeat(17), 16)).toMatch(/has more than 16 bits/);
    expect(parseBinaryBits('0b102', 16)).toMatch(/not a binary bit pattern/);
    expect(parseBinaryBits('0b', 16)).toMatch(/not a binary bit pattern/);
    expect(parseBinaryBits('3c00', 16)).toMatch(/not a binary bit pattern/);
    // A 1 MB paste gets a one-line message, not the paste back.
    expect(String(parseHexBits('z'.repeat(1_000_000), 16)).length).toBeLessThan(100);
    expect(String(parseBinaryBits('1'.repeat(1_000_000), 16)).length).toBeLessThan(100);
  });
});
