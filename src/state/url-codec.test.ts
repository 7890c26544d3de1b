import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { FORMS } from '../catalog/all-forms.ts';
import type { SourceName } from '../catalog/instruction.ts';
import { PTX_VERSIONS } from '../catalog/ptx-versions.ts';
import { TARGETS } from '../catalog/targets.ts';
import { startRegisters } from './registers.ts';
import { decodeUrl, encodeUrl } from './url-codec.ts';
import { TABS, type UrlState } from './url-state.ts';

const example =
  '?v=3&instr=fma.rn.relu.bf16x2&target=sm_90&ptx=8.6&a=0x3c003c00&b=0x40004000&c=0x00000000&tab=corners';

describe('url codec', () => {
  it('decodes the documented example exactly', () => {
    const { state, ignored, stored } = decodeUrl(example);
    expect(ignored).toEqual([]);
    expect(stored).toEqual([]);
    expect(state).toEqual({
      instr: 'fma.rn.relu.bf16x2',
      target: 'sm_90',
      ptx: '8.6',
      registers: { a: 0x3c003c00n, b: 0x40004000n, c: 0n },
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
      bits: fc.array(fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }), {
        minLength: 6,
        maxLength: 6,
      }),
      // The panels every form has (the sweep is the single-input forms', the format page
      // carries its format: the tests below).
      tab: fc.constantFrom(null, ...TABS.filter((t) => t === 'corners' || t === 'repro')),
      vs: fc.constantFrom(null, 'unfused', ...forms),
    });
    let compared = 0;
    fc.assert(
      fc.property(arb, ({ instr, target, ptx, bits, tab, vs }) => {
        const form = FORMS.find((f) => f.text === instr)!;
        const registers = Object.fromEntries(
          form.registers.slice(1).map((r, i) => [r.name, bits[i]! & ((1n << BigInt(r.bits)) - 1n)]),
        ) as Partial<Record<SourceName, bigint>>;
        // A variant of the other kind is refused (variant.ts): leave it out here.
        const kind = (t: string) => FORMS.find((f) => f.text === t)?.family === 'convert';
        const sameKind =
          vs === null || (vs === 'unfused' ? !kind(instr) : kind(vs) === kind(instr));
        const state: UrlState = { instr, target, ptx, registers, tab, vs: sameKind ? vs : null };
        const decoded = decodeUrl(encodeUrl(state));
        expect(decoded.ignored).toEqual([]);
        expect(decoded.state).toEqual(state);
        compared++;
      }),
      { numRuns: 300 },
    );
    expect(compared).toBe(300);
  });

  it('loads what it can from a malformed URL and names each ignored part', () => {
    const { state, ignored } = decodeUrl(
      '?v=3&instr=fma.rn.bogus.f16&target=sm_999&ptx=banana&a=zz&b=0x12345&colour=red&tab=q',
    );
    expect(state.instr).toBe('fma.rn.f16');
    expect(state.target).toBe('sm_90');
    expect(state.ptx).toBe('8.6');
    expect(state.tab).toBeNull();
    expect(ignored).toHaveLength(7);
    expect(ignored.join('\n')).toMatch(/unknown parameter 'colour'/);
    expect(ignored.join('\n')).toMatch(/instr 'fma.rn.bogus.f16': unknown modifier '.bogus'/);
    expect(ignored.join('\n')).toMatch(/target 'sm_999' is unknown/);
    expect(ignored.join('\n')).toMatch(/operand a: 'zz' is neither bits .* nor a value/);
    expect(ignored.join('\n')).toMatch(
      /operand b: '0x12345' has 5 hex digits; the register is 16 bits/,
    );
    expect(ignored.join('\n')).toMatch(/tab 'q' is not a panel \(expected corners, sweep, repro/);
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
    expect(state.registers.a).toBe(0x3f80n);
  });

  it('reads a hand-written value as a value, rounded to the operand, and says what it stored', () => {
    const { state, ignored, stored } = decodeUrl('?instr=add.f16&a=1.5&b=2');
    expect(ignored).toEqual([]);
    expect(state.registers).toEqual({ a: 0x3e00n, b: 0x4000n });
    expect(stored).toEqual(['a = 1.5: stored 0x3e00 = 1.5', 'b = 2: stored 0x4000 = 2']);
    // Rounded by round-to-nearest-even, said so; a packed register gets it in both lanes.
    const x2 = decodeUrl('?instr=add.bf16x2&a=0.1&b=-inf');
    expect(x2.state.registers).toEqual({ a: 0x3dcd3dcdn, b: 0xff80ff80n });
    expect(x2.stored[0]).toMatch(
      /^a = 0\.1: 0\.1 is not a bf16 value: stored 0x3dcd3dcd = 0\.10009765625 in each lane \(rounded to nearest even; error \+9\.765625e-5\)$/,
    );
    // Past the largest finite value: the infinity, and why.
    expect(decodeUrl('?instr=add.f16&a=70000').stored).toEqual([
      'a = 70000: 70000 is above the largest f16 (65504): stored 0x7c00 = +inf (rounded to nearest even)',
    ]);
    // The app's own links write bits, and stay clean.
    expect(encodeUrl(state)).toMatch(/&a=0x3e00&b=0x4000$/);
  });

  it('keeps a v1 link meaning what it meant: bare hex was bits, oob marks are the pattern', () => {
    const v1 = decodeUrl('?v=1&instr=add.f16&a=3c00&b=2');
    expect(v1.ignored).toEqual([]);
    expect(v1.stored).toEqual([]);
    expect(v1.state.registers).toEqual({ a: 0x3c00n, b: 0x0002n });
    const marked = decodeUrl(
      '?v=1&instr=fma.rn.oob.relu.bf16x2&a=0x3f803f80&b=0x40004000&c=0x3f803f80&oob=a1,b',
    );
    expect(marked.ignored).toEqual([]);
    expect(marked.state.registers).toEqual({ a: 0x7ff73f80n, b: 0x7ff77ff7n, c: 0x3f803f80n });
    expect(encodeUrl(marked.state)).not.toContain('&oob=');
  });

  it("v2's two sweep panels are v3's one: the error plot opens the sweep, an exact form's is dropped", () => {
    const approx = decodeUrl('?v=2&instr=tanh.approx.f16&tab=approx');
    expect(approx.state.tab).toBe('sweep');
    expect(approx.ignored).toEqual([]);
    expect(encodeUrl(approx.state)).toMatch(/^\?v=3&.*&tab=sweep$/);
    const exact = decodeUrl('?v=2&instr=add.f16&tab=approx');
    expect(exact.state.tab).toBeNull();
    expect(exact.ignored).toEqual(["tab 'approx': add.f16 is exact, so it has no error plot"]);
    // A v2 link's cvt sweep is v3's; v3 sweeps tanh, ex2, neg and abs too, never an add.
    expect(decodeUrl('?v=2&instr=cvt.rn.f16.f32&tab=sweep').state.tab).toBe('sweep');
    expect(decodeUrl('?v=3&instr=neg.f16&tab=sweep').state.tab).toBe('sweep');
    expect(decodeUrl('?v=3&instr=add.f16&tab=sweep').ignored[0]).toMatch(
      /^tab 'sweep': the sweep over many inputs is cvt's, .*; add\.f16 has 2$/,
    );
    // The GPU program is every form's.
    expect(decodeUrl('?v=3&instr=cvt.rn.f16.f32&tab=repro').state.tab).toBe('repro');
  });

  it('reads a future version as the current one and says so', () => {
    const { state, ignored } = decodeUrl('?v=7&instr=add.f16');
    expect(state.instr).toBe('add.f16');
    expect(ignored[0]).toMatch(/schema version v=7 is unknown \(this page reads up to v=3\)/);
  });

  it('rejects operands the form does not have, and oob lanes a scalar lacks', () => {
    const { ignored } = decodeUrl('?v=1&instr=neg.f16&b=0x1&oob=a1');
    expect(ignored).toEqual([
      "oob item 'a1': a has one lane in neg.f16",
      'operand b: neg.f16 has no operand b',
    ]);
  });

  it('carries a cvt form by its registers, .f64 as 16 hex digits, x4 with e, f and rbits', () => {
    const url = '?v=3&instr=cvt.rn.f32.f64&target=sm_90&ptx=8.6&a=0x3ff0000000000001';
    const { state, ignored } = decodeUrl(url);
    expect(ignored).toEqual([]);
    expect(state).toMatchObject({ instr: 'cvt.rn.f32.f64', registers: { a: 0x3ff0000000000001n } });
    expect(encodeUrl(state)).toBe(url);
    const x4 =
      '?v=3&instr=cvt.rs.satfinite.e4m3x4.f32&target=sm_100a&ptx=8.7&a=0x43fa0000&b=0x40880000&e=0xbe99999a&f=0x3a83126f&rbits=0x9e3779b9';
    expect(encodeUrl(decodeUrl(x4).state)).toBe(x4);
    expect(decodeUrl(x4).state.registers).toMatchObject({ e: 0xbe99999an, rbits: 0x9e3779b9n });
  });

  it("reads a cvt's values by the one rule, and says what they stored or could not use", () => {
    const r = decodeUrl('?instr=cvt.rn.satfinite.e4m3x2.f16x2&a=500&b=1');
    expect(r.state.registers.a).toBe(0x5fd05fd0n);
    expect(r.stored).toEqual(['a = 500: stored 0x5fd05fd0 = 500 in each element']);
    expect(r.ignored).toEqual(['operand b: cvt.rn.satfinite.e4m3x2.f16x2 has no operand b']);
    // The form's registers first, in its order; then those it does not have.
    const bad = decodeUrl('?v=3&instr=cvt.rn.f16x2.e4m3x2&a=500&c=0x1&rbits=0x0');
    expect(bad.ignored).toEqual([
      expect.stringMatching(
        /^operand a: '500' is past e4m3's largest finite value 448.*; using 0x/,
      ),
      'operand c: cvt.rn.f16x2.e4m3x2 has no operand c',
      'operand rbits: cvt.rn.f16x2.e4m3x2 has no operand rbits',
    ]);
    expect(decodeUrl('?v=3&instr=add.f16&e=0x1').ignored).toEqual([
      'operand e: add.f16 has no operand e',
    ]);
  });

  it('opens the format pages on a format, or the form’s destination format', () => {
    const page = decodeUrl('?v=3&instr=add.f16&tab=format&format=e4m3');
    expect(page.state).toMatchObject({ tab: 'format', format: 'e4m3' });
    expect(encodeUrl(page.state)).toMatch(/&tab=format&format=e4m3$/);
    expect(decodeUrl('?v=3&instr=cvt.rn.satfinite.e2m1x2.f32&tab=format').state.format).toBe(
      'e2m1',
    );
    expect(decodeUrl('?v=3&instr=add.f16&tab=format&format=e9m9').ignored[0]).toMatch(
      /format 'e9m9' is not a format/,
    );
    expect(decodeUrl('?v=3&instr=add.f16&format=e4m3').ignored[0]).toMatch(/tab=format/);
  });

  it('every form loads from its canonical link with its start values and goes out again unchanged', () => {
    for (const form of FORMS) {
      const state = decodeUrl(`?v=3&instr=${form.text}`).state;
      expect(state.instr).toBe(form.text);
      const start = startRegisters(form);
      for (const r of form.registers.slice(1))
        expect(state.registers[r.name as SourceName], form.text).toBe(start[r.name as SourceName]);
      const again = decodeUrl(encodeUrl(state));
      expect(again.ignored).toEqual([]);
      expect(again.state).toEqual(state);
    }
  });
});
