import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { FORMS, PTX_VERSIONS, TARGETS } from '../catalog/index.ts';
import { decodeUrl, encodeUrl, TABS, type UrlState } from './url-codec.ts';

const example =
  '?v=2&instr=fma.rn.relu.bf16x2&target=sm_90&ptx=8.6&a=0x3c003c00&b=0x40004000&c=0x00000000&tab=corners';

describe('url codec', () => {
  it('decodes the documented example exactly', () => {
    const { state, ignored, stored } = decodeUrl(example);
    expect(ignored).toEqual([]);
    expect(stored).toEqual([]);
    expect(state).toEqual({
      instr: 'fma.rn.relu.bf16x2',
      target: 'sm_90',
      ptx: '8.6',
      operands: { a: 0x3c003c00, b: 0x40004000, c: 0 },
      tab: 'corners',
      vs: null,
    });
    expect(encodeUrl(state)).toBe(example);
  });

  it('round-trips every form, target, version and open tab with random bits', () => {
    const forms = FORMS.map((f) => f.text);
    const arb = fc.record({
      instr: fc.constantFrom(...forms),
      target: fc.constantFrom(...TARGETS.map((t) => t.name)),
      ptx: fc.constantFrom(...PTX_VERSIONS),
      bits: fc.tuple(fc.nat(0xffffffff), fc.nat(0xffffffff), fc.nat(0xffffffff)),
      // The arithmetic's panels of every form (the error plot is the approximate forms', the
      // sweep cvt's; the format page carries its format: tests in cvt-url.test.ts).
      tab: fc.constantFrom(null, ...TABS.filter((t) => t === 'corners' || t === 'repro')),
      vs: fc.constantFrom(null, 'unfused', ...forms),
    });
    fc.assert(
      fc.property(arb, ({ instr, target, ptx, bits, tab, vs }) => {
        const form = FORMS.find((f) => f.text === instr)!;
        const op = (k: 'a' | 'b' | 'c') => form.operands.find((o) => o.name === k);
        const mask = (k: 'a' | 'b' | 'c', v: number) => (op(k)?.bits === 16 ? v & 0xffff : v >>> 0);
        const state: UrlState = {
          instr,
          target,
          ptx,
          operands: { a: mask('a', bits[0]), b: mask('b', bits[1]), c: mask('c', bits[2]) },
          tab,
          vs,
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
      '?v=2&instr=fma.rn.bogus.f16&target=sm_999&ptx=banana&a=zz&b=0x12345&colour=red&tab=q',
    );
    expect(state.instr).toBe('fma.rn.f16');
    expect(state.target).toBe('sm_90');
    expect(state.ptx).toBe('8.6');
    expect(state.tab).toBeNull();
    expect(ignored).toHaveLength(7);
    expect(ignored.join('\n')).toMatch(/unknown parameter 'colour'/);
    expect(ignored.join('\n')).toMatch(/instr 'fma.rn.bogus.f16': unknown modifier '.bogus'/);
    expect(ignored.join('\n')).toMatch(/target 'sm_999' is unknown/);
    expect(ignored.join('\n')).toMatch(/operand a: 'zz' is neither register bits .* nor a value/);
    expect(ignored.join('\n')).toMatch(
      /operand b: '0x12345' has 5 hex digits; the register is 16 bits/,
    );
    expect(ignored.join('\n')).toMatch(/tab 'q' is not a panel/);
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
    const { state, ignored } = decodeUrl('?form=add.bf16&sm=90a&a=0x3f80');
    expect(ignored).toEqual([]);
    expect(state.instr).toBe('add.bf16');
    expect(state.target).toBe('sm_90a');
    expect(state.operands.a).toBe(0x3f80);
  });

  it('reads a hand-written value as a value, rounded to the operand, and says what it stored', () => {
    // a=1.5 used to be refused while b=2 was silently the bit pattern 0x0002.
    const { state, ignored, stored } = decodeUrl('?instr=add.f16&a=1.5&b=2');
    expect(ignored).toEqual([]);
    expect(state.operands).toMatchObject({ a: 0x3e00, b: 0x4000 });
    expect(stored).toEqual(['a = 1.5: stored 0x3e00 = 1.5', 'b = 2: stored 0x4000 = 2']);
    // Rounded by round-to-nearest-even, said so; a packed register gets it in both lanes.
    const x2 = decodeUrl('?instr=add.bf16x2&a=0.1&b=-inf');
    expect(x2.state.operands).toMatchObject({ a: 0x3dcd3dcd, b: 0xff80ff80 });
    expect(x2.stored[0]).toMatch(
      /^a = 0\.1: 0\.1 is not a bf16 value: stored 0x3dcd3dcd = 0\.1000976562\d* in each lane \(rounded to nearest even; error 9\.77e-5\)$/,
    );
    // The app's own links write bits, and stay clean.
    expect(encodeUrl(state)).toMatch(/&a=0x3e00&b=0x4000$/);
  });

  it('keeps a v1 link meaning what it meant: bare hex was bits, oob marks are the pattern', () => {
    const v1 = decodeUrl('?v=1&instr=add.f16&a=3c00&b=2');
    expect(v1.ignored).toEqual([]);
    expect(v1.stored).toEqual([]);
    expect(v1.state.operands).toMatchObject({ a: 0x3c00, b: 0x0002 });
    const marked = decodeUrl(
      '?v=1&instr=fma.rn.oob.relu.bf16x2&a=0x3f803f80&b=0x40004000&c=0x3f803f80&oob=a1,b',
    );
    expect(marked.ignored).toEqual([]);
    expect(marked.state.operands).toEqual({ a: 0x7ff73f80, b: 0x7ff77ff7, c: 0x3f803f80 });
    expect(encodeUrl(marked.state)).not.toContain('&oob=');
  });

  it('keeps the open tab, and drops an error plot an exact form cannot have', () => {
    expect(decodeUrl('?v=2&instr=tanh.approx.f16&tab=approx').state.tab).toBe('approx');
    const exact = decodeUrl('?v=2&instr=add.f16&tab=approx');
    expect(exact.state.tab).toBeNull();
    expect(exact.ignored).toEqual(["tab 'approx': add.f16 is exact, so it has no error plot"]);
  });

  it('reads a future version as the current one and says so', () => {
    const { state, ignored } = decodeUrl('?v=7&instr=add.f16');
    expect(state.instr).toBe('add.f16');
    expect(ignored[0]).toMatch(/schema version v=7 is unknown/);
  });

  it('rejects operands the form does not have, and oob lanes a scalar lacks', () => {
    const { ignored } = decodeUrl('?v=1&instr=neg.f16&b=0x1&oob=a1');
    expect(ignored).toEqual([
      "oob item 'a1': a has one lane in neg.f16",
      'operand b: neg.f16 has no operand b',
    ]);
  });
});
