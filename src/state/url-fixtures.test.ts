import { describe, expect, it } from 'vitest';
import { ALL_FORMS, findForm } from '../catalog/all-forms.ts';
import type { SourceName } from '../catalog/instruction.ts';
import rawFixtures from '../../tests/fixtures/share-urls.json';
import type { BlockSettings } from './block-state.ts';
import { registerHex } from './registers.ts';
import { decodeUrl, encodeUrl } from './url-codec.ts';

/**
 * Share links people already hold must keep loading to the same state. Each fixture in
 * tests/fixtures/share-urls.json is a query string, the state it must load to (operands as hex
 * register patterns, the open tab when there is one), one substring per notice the decoder must
 * give, in order (none: the link must load cleanly), and one substring per operand value it
 * must say it stored. A fixture URL may write `{c*N}` for the character c repeated N times, so a
 * 100 KB parameter fits in the file.
 *
 * v1 links with OOB-NaN marks (`oob=b`, `oob=a1`) load with the OOB-NaN pattern 0x7ff7 in the
 * marked lanes: what the engine read a marked lane as.
 *
 * A schema change keeps these passing through a migration, and adds its own fixtures.
 */

interface Fixture {
  readonly name: string;
  readonly url: string;
  readonly expect: {
    readonly instr: string;
    readonly target: string;
    readonly ptx: string;
    readonly a?: string;
    readonly b?: string;
    readonly c?: string;
    readonly e?: string;
    readonly f?: string;
    readonly rbits?: string;
    /** A block-scaled mma's scales of the row and of the column (the link's sa= and sb=). */
    readonly scale_a?: string;
    readonly scale_b?: string;
    readonly tab?: string;
    /** The variant compared with (what-if), when the link holds one. */
    readonly vs?: string;
    readonly format?: string;
    /** The corner-case table's filters and a cvt sweep's range, when the link holds them. */
    readonly corners?: { query: string; resultClass: string | null; happened: string | null };
    readonly sweep?: { from: number; to: number; count: number };
    /** The block panel's settings (block-settings.ts), binary32 values as hex. */
    readonly block?: {
      scheme: string;
      rule: string;
      values: string[];
      column: string[] | null;
      tensorAmax: string | null;
      rbits: string[] | null;
    };
  };
  readonly ignored: readonly string[];
  readonly stored?: readonly string[];
}

const fixtures = rawFixtures as unknown as readonly Fixture[];

const hex32 = (bits: number) => `0x${(bits >>> 0).toString(16).padStart(8, '0')}`;

function blockFixture(b: BlockSettings) {
  return {
    scheme: b.scheme,
    rule: b.rule,
    values: b.values.map(hex32),
    column: b.column ? b.column.map(hex32) : null,
    tensorAmax: b.tensorAmax === null ? null : hex32(b.tensorAmax),
    rbits: b.rbits ? b.rbits.map(hex32) : null,
  };
}

function expand(url: string): string {
  return url.replace(/\{(.)\*(\d+)\}/g, (_, ch: string, n: string) => ch.repeat(Number(n)));
}

/** The families, types and schema shapes the list must keep covering. */
const MUST_COVER = {
  opcodes: [
    ...['add', 'sub', 'mul', 'fma', 'neg', 'abs', 'min', 'max', 'tanh', 'ex2', 'cvt'],
    ...['mma', 'wgmma.mma_async'],
  ],
  types: ['f16', 'f16x2', 'bf16', 'bf16x2', 'f32.f16', 'f32.bf16'],
  urls: [
    /^\?v=3&/,
    /^\?v=2&/,
    /^\?v=1&/,
    /^\?v=0&/,
    /^\?(?!.*\bv=)./,
    /[?&]v=99(&|$)/,
    /[?&]oob=/,
    /[?&]tab=/,
    /[?&][abc]=-?\d+(\.\d+)?(&|$)/,
    /[?&]vs=unfused(&|$)/,
    /[?&]vs=[a-z]+\./,
    /\{.\*100000\}/,
    // cvt links: the x4 registers and rbits, a 64-bit register, the sweep and format pages.
    /[?&]e=.*[?&]f=.*[?&]rbits=0x[0-9a-f]{8}(&|$)/,
    /[?&]a=0x[0-9a-f]{16}(&|$)/,
    /^\?v=2&instr=cvt\..*[?&]tab=sweep/,
    /^\?v=2&instr=cvt\..*[?&]tab=format/,
    // What-if across formats: a cvt beside a cvt.
    /^\?v=2&instr=cvt\..*[?&]vs=cvt\./,
    // The open panel's settings: the corner-case filters, a sweep's range (panel-url.ts).
    /[?&]tab=corners.*[?&]filter=.*[?&]class=.*[?&]happened=/,
    /[?&]tab=sweep.*[?&]from=.*[?&]to=.*[?&]count=/,
    // v3: one sweep panel for every single-input form (v2's tab=approx), the GPU program of a cvt.
    /^\?v=3&instr=(tanh|ex2)\..*[?&]tab=sweep/,
    /^\?v=3&instr=cvt\..*[?&]tab=repro/,
    /^\?v=2&.*[?&]tab=approx/,
    // The block panel: its block, scheme and rule, NVFP4's tensorAmax and cvt.rs bits.
    /[?&]tab=block.*[?&]scheme=.*[?&]rule=.*[?&]block=/,
    /[?&]tab=block.*[?&]tamax=.*[?&]rs=/,
    // A tensor core's row and column as lists of their elements (url-matrix.ts).
    /[?&]a=0x[0-9a-f]+,0x[0-9a-f]+.*[?&]b=/,
    // A block-scaled mma's scales of the row and of the column (sa=, sb=).
    /[?&]sa=0x[0-9a-f]+,0x[0-9a-f]+.*[?&]sb=/,
  ],
};

describe('share URL fixtures', () => {
  it('cover every instruction family, type, schema version and the broken shapes', () => {
    const clean = fixtures.filter((f) => f.ignored.length === 0).map((f) => f.expect.instr);
    for (const opcode of MUST_COVER.opcodes)
      expect(clean.some((i) => i.startsWith(`${opcode}.`))).toBe(true);
    for (const type of MUST_COVER.types)
      expect(clean.some((i) => i.endsWith(`.${type}`))).toBe(true);
    for (const shape of MUST_COVER.urls) expect(fixtures.some((f) => shape.test(f.url))).toBe(true);
    expect(new Set(fixtures.map((f) => f.name)).size).toBe(fixtures.length);
    // A malformed cvt link keeps the rest of its state: some fixture loads a cvt form while
    // refusing one of its registers.
    expect(
      fixtures.some(
        (f) =>
          f.expect.instr.startsWith('cvt.') &&
          f.ignored.some((notice) => /^operand (a|b|e|f|rbits): /.test(notice)),
      ),
    ).toBe(true);
  });

  for (const fixture of fixtures) {
    it(fixture.name, () => {
      const { state, ignored, stored } = decodeUrl(expand(fixture.url));
      const form = findForm(state.instr);
      expect(form, `${state.instr} is a form`).toBeDefined();
      const sources = form!.registers
        .slice(1)
        .map((r) => ({ name: r.name as SourceName, bits: r.bits }));
      // The form's registers by their spec names (a, b, c; a, b, e, f, rbits).
      const bitsOf = (name: SourceName, width: number) =>
        registerHex(state.registers[name]!, width);

      // The fixture names exactly the registers the loaded form has, so none goes unchecked.
      const keys: readonly SourceName[] = ['a', 'b', 'c', 'e', 'f', 'rbits', 'scale_a', 'scale_b'];
      const listed = keys.filter((k) => fixture.expect[k] !== undefined);
      expect(listed).toEqual(sources.map((o) => o.name));
      expect(Object.keys(state.registers)).toEqual(sources.map((o) => o.name));

      const loaded = {
        instr: state.instr,
        target: state.target,
        ptx: state.ptx,
        ...Object.fromEntries(sources.map((o) => [o.name, bitsOf(o.name, o.bits)])),
        ...(state.tab !== null ? { tab: state.tab } : {}),
        ...(state.vs !== null ? { vs: state.vs } : {}),
        ...(state.format ? { format: state.format } : {}),
        ...(state.corners ? { corners: state.corners } : {}),
        ...(state.sweep ? { sweep: state.sweep } : {}),
        ...(state.block ? { block: blockFixture(state.block) } : {}),
      };
      expect(loaded).toEqual(fixture.expect);

      expect(ignored).toHaveLength(fixture.ignored.length);
      fixture.ignored.forEach((part, i) => expect(ignored[i]).toContain(part));
      expect(stored).toHaveLength(fixture.stored?.length ?? 0);
      fixture.stored?.forEach((part, i) => expect(stored[i]).toContain(part));
      // A notice is one readable line even when the URL carried 100 KB.
      for (const notice of ignored) expect(notice.length).toBeLessThan(600);

      // What loaded is shared again as a clean URL that loads to the same state.
      const again = decodeUrl(encodeUrl(state));
      expect(again.ignored).toEqual([]);
      expect(again.stored).toEqual([]);
      expect(again.state).toEqual(state);
    });
  }

  it('every form in the catalog decodes from its own canonical URL', () => {
    for (const form of ALL_FORMS)
      expect(decodeUrl(`?v=1&instr=${form.text}`).state.instr).toBe(form.text);
  });
});
