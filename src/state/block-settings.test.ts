import { describe, expect, it } from 'vitest';
import { quantizeBlock } from '../engine/block-scale/index.ts';
import { readRbitsList, readValueList, withScheme } from './block-settings.ts';
import { DEFAULT_BLOCK_SETTINGS, SAMPLE_BLOCK } from './block-state.ts';
import { cvtTraceQuery } from './block-trace-link.ts';
import { decodeUrl } from './url-codec.ts';

describe('a typed block', () => {
  it('reads values and bits, separated by commas, spaces or lines, and says what it rounded', () => {
    const r = readValueList('0.1, 0x40000000\n-3  1e-3,0b0');
    expect(r).toEqual({
      ok: true,
      bits: [0x3dcccccd, 0x40000000, 0xc0400000, 0x3a83126f, 0],
      rounded: [0, 3],
    });
  });

  it('names every item it cannot read, by its place', () => {
    const r = readValueList('1, two, 3, 0x1ffffffff');
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.count).toBe(4);
    expect(r.errors.map((e) => [e.item, e.text])).toEqual([
      [2, 'two'],
      [4, '0x1ffffffff'],
    ]);
    expect(r.errors[1]!.message).toMatch(/32 bits/);
  });

  it('takes random bits as bits only', () => {
    expect(readRbitsList('0x80ff7f01, 0b1')).toEqual({
      ok: true,
      bits: [0x80ff7f01, 1],
      rounded: [],
    });
    const r = readRbitsList('0x1, 5');
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.errors[0]).toMatchObject({ item: 2, text: '5' });
  });
});

describe('another scheme', () => {
  it('cuts the block to 16 for NVFP4 and pads it with +0 to 32 back, with its own rule', () => {
    const nv = withScheme({ ...DEFAULT_BLOCK_SETTINGS, rule: 'rp' }, 'nvfp4');
    expect(nv.resized).toBe('cut');
    expect(nv.settings.rule).toBe('nvfp4');
    expect(nv.settings.values).toEqual(SAMPLE_BLOCK.slice(0, 16));
    const mx = withScheme(nv.settings, 'mxfp6-e2m3');
    expect(mx.resized).toBe('padded');
    expect(mx.settings.rule).toBe('ocp');
    expect(mx.settings.values.slice(16)).toEqual(Array<number>(16).fill(0));
    expect(withScheme(DEFAULT_BLOCK_SETTINGS, 'mxfp8-e5m2').resized).toBeNull();
  });
});

describe("an element's cvt link", () => {
  it('loads that cvt with the registers that give the element, on a target that has it', () => {
    const q = quantizeBlock({
      scheme: 'mxfp8-e4m3',
      scaleRule: 'ocp',
      values: [0x446f4000, ...Array<number>(31).fill(0)],
    });
    if (!q.ok) throw new Error(q.message);
    const e = q.elements[0]!;
    const { state, ignored } = decodeUrl(cvtTraceQuery(e.cvt, q.cvtForms));
    expect(ignored).toEqual([]);
    expect(state.instr).toBe(e.cvt.form);
    expect(state.target).toBe(q.cvtForms.find((f) => f.form === e.cvt.form)!.minTarget);
    for (const [name, hex] of Object.entries(e.cvt.registers))
      expect(state.registers[name as 'a']).toBe(BigInt(hex));
  });
});
