import { describe, expect, it } from 'vitest';
import { agreementCases } from '../../tests/ptxas/cases.ts';
import { NEWEST_PTX } from '../catalog/ptx-versions.ts';
import { NEWEST_TARGET } from '../catalog/targets.ts';
import { parseInstruction } from '../catalog/parse-instruction.ts';
import { runCheck } from './check.ts';
import { captureIO } from './io.ts';

async function check(...args: string[]) {
  const io = captureIO();
  const code = await runCheck(args, io);
  return { code, out: io.stdout, err: io.stderr };
}

describe('ptxf check', () => {
  it('says valid, with the minimal target and PTX ISA version, and exits 0', async () => {
    const r = await check('fma.rn.relu.bf16x2', '--target', 'sm_90', '--ptx', '8.6');
    expect(r.code).toBe(0);
    expect(r.out).toEqual([
      'fma.rn.relu.bf16x2: valid for sm_90 at PTX ISA 8.6',
      '  minimal target: sm_80, minimal PTX ISA: 7.0',
    ]);
    expect(r.err).toEqual([]);
  });

  it('lists every reason when invalid and exits 1', async () => {
    const r = await check('fma.rn.oob.relu.bf16 d, a, b, c;', '--target=sm_86', '--ptx=7.8');
    expect(r.code).toBe(1);
    expect(r.out).toEqual([
      'fma.rn.oob.relu.bf16: not valid for sm_86 at PTX ISA 7.8',
      '  - modifier .oob requires sm_90 or higher; target is sm_86',
      '  - modifier .oob requires PTX ISA 8.1; PTX ISA version is 7.8',
      '  minimal target: sm_90, minimal PTX ISA: 8.1',
    ]);
  });

  it('names a target the PTX ISA version does not know', async () => {
    const r = await check('add.f16', '--target', 'sm_100a', '--ptx', '8.5');
    expect(r.code).toBe(1);
    expect(r.out).toContain('  - target sm_100a requires PTX ISA 8.6; PTX ISA version is 8.5');
  });

  it('defaults to the newest target and PTX ISA version', async () => {
    const r = await check('add.f32.bf16', '--json');
    expect(r.code).toBe(0);
    const v = JSON.parse(r.out[0]!);
    expect(v).toMatchObject({ ok: true, valid: true, target: NEWEST_TARGET, ptx: NEWEST_PTX });
  });

  it('prints the verdict as JSON', async () => {
    const r = await check('add.bf16 d, a, b;', '--target', 'sm_86', '--ptx', '8.6', '--json');
    expect(r.code).toBe(1);
    expect(r.out).toHaveLength(1);
    expect(JSON.parse(r.out[0]!)).toEqual({
      ok: true,
      form: 'add.bf16',
      valid: false,
      target: 'sm_86',
      ptx: '8.6',
      reasons: [
        {
          code: 'target',
          feature: 'add{.rnd}.{bf16,bf16x2}',
          message: 'add.bf16 requires sm_90 or higher; target is sm_86',
        },
      ],
      minTarget: 'sm_90',
      minPtx: '7.8',
      operands: ['d', 'a', 'b'],
      spelling: null,
      documented: true,
      flag: null,
      notes: [],
    });
  });

  it('shows a syntax error with a caret under its position and the expected list', async () => {
    const r = await check('fma.f16 d, a, b, c;');
    expect(r.code).toBe(1);
    // The missing rounding is marked where it belongs: after the opcode.
    expect(r.out[0]).toMatch(/^syntax error at column 4: fma with \.f16 requires \.rn/);
    expect(r.out[1]).toBe('  fma.f16 d, a, b, c;');
    expect(r.out[2]).toBe('     ^');
    expect(r.out[3]).toBe('  expected: fma.rn.f16');
  });

  it('puts the caret under the offending modifier', async () => {
    // (min.nan.f16 is read as min.NaN.f16, a name in another case: no syntax error.)
    const r = await check('min.rn.f16');
    expect(r.code).toBe(1);
    const caretLine = r.out[2]!;
    const inputLine = r.out[1]!;
    expect(inputLine).toBe('  min.rn.f16');
    expect(inputLine.slice(caretLine.indexOf('^'), caretLine.lastIndexOf('^') + 1)).toBe('.rn');
  });

  it('keeps the caret aligned for long input and control characters', async () => {
    const long = `add.f16 d, a, b; ${'x'.repeat(300)}`;
    const r = await check(long);
    expect(r.code).toBe(1);
    const caretColumn = r.out[2]!.indexOf('^');
    expect(r.out[1]![caretColumn]).toBe('x');
    expect(r.out[1]!.length).toBeLessThan(200);

    const tabbed = await check('add.f16\td,\ta, b;\u0000');
    expect(tabbed.code).toBe(1);
    const col = tabbed.out[2]!.indexOf('^');
    expect(tabbed.out[1]![col]).toBe('\u00b7');
  });

  it('prints a syntax error as JSON with its position', async () => {
    const r = await check('add.rn.f16.rz', '--json');
    expect(r.code).toBe(1);
    const e = JSON.parse(r.out[0]!);
    expect(e.ok).toBe(false);
    expect(e.error).toMatchObject({ code: 'syntax', position: 10 });
  });

  it.each([
    [['--target'], /--target needs a value/],
    [['add.f16', '--frobnicate'], /unknown option --frobnicate/],
    [['add.f16', '-t', 'sm_90'], /unknown option -t/],
    [[], /missing the instruction/],
    [['add.f16', 'sub.f16'], /expected one instruction/],
    [['add.f16', '--target', 'sm_91'], /unknown target 'sm_91'/],
    [['add.f16', '--ptx', '9.9'], /unknown PTX ISA version '9.9'/],
    [['add.f16', '--json=yes'], /--json takes no value/],
    [['add.f16', '--ptx', '8.6', '--ptx', '8.7'], /--ptx given twice/],
  ])('exits 2 on usage error %j', async (args, message) => {
    const r = await check(...args);
    expect(r.code).toBe(2);
    expect(r.err[0]).toMatch(message);
    expect(r.err.some((l) => l.startsWith('usage: ptxf check'))).toBe(true);
  });

  it('reports usage errors as JSON too when --json is given', async () => {
    const r = await check('add.f16', '--target', 'sm_91', '--json');
    expect(r.code).toBe(2);
    expect(JSON.parse(r.out[0]!)).toMatchObject({ ok: false, error: { code: 'usage' } });
  });

  it('reads an order ptxas accepts as the form, with the spec spelling and the assembler note', async () => {
    const r = await check('@%p1 add.sat.ftz.f16 d, a, b;', '--target', 'sm_90', '--ptx', '8.6');
    expect(r.code).toBe(0);
    expect(r.out.slice(0, 2)).toEqual([
      'add.ftz.sat.f16: valid for sm_90 at PTX ISA 8.6',
      '  note: ptxas accepts this order; the spec writes add.ftz.sat.f16',
    ]);
    const note = r.out.findIndex((l) => l.startsWith('  note: the PTX ISA and ptxas'));
    expect(note).toBeGreaterThan(0);
    expect(r.out[note + 3]).toMatch(/^ {4}the playground follows ptxas 13\.0: /);
    const json = JSON.parse((await check('add.f16.sat', '--json')).out[0]!);
    expect(json).toMatchObject({
      ok: true,
      form: 'add.sat.f16',
      valid: true,
      spelling: { written: 'add.f16.sat', canonical: 'add.sat.f16', reordered: true, repeated: [] },
      documented: true,
      flag: null,
    });
    expect(json.notes.map((n: { id: string }) => n.id)).toEqual(['modifier-order']);
  });

  it('flags a form only ptxas assembles, with its gates', async () => {
    const r = await check('fma.rz.oob.bf16x2', '--target', 'sm_90', '--ptx', '8.1');
    expect(r.code).toBe(0);
    expect(r.out.slice(0, 3)).toEqual([
      'fma.rz.oob.bf16x2: valid for sm_90 at PTX ISA 8.1',
      '  note: fma.rz.oob.bf16x2 assembles; behaviour not documented, not yet measured (the spec does not list it)',
      '  minimal target: sm_90, minimal PTX ISA: 8.1',
    ]);
    const json = JSON.parse((await check('fma.rz.bf16', '--json')).out[0]!);
    expect(json).toMatchObject({
      valid: true,
      documented: false,
      flag: 'assembles; behaviour not documented, not yet measured',
      spelling: null,
    });
    expect(json.notes.map((n: { id: string }) => n.id)).toEqual(['fma-bf16-directed-rounding']);
    const old = await check('fma.rn.sat.oob.f16', '--target', 'sm_89', '--ptx', '8.1');
    expect(old.code).toBe(1);
    expect(old.out).toContain('  - modifier .oob requires sm_90 or higher; target is sm_89');
  });

  it('says the right thing for the spellings of the spec examples and near misses', async () => {
    // .ftz with .oob is invalid in any order (ptxas agrees): no note about modifier order.
    const ftzOob = await check('fma.rn.oob.ftz.f16');
    expect(ftzOob.code).toBe(1);
    expect(ftzOob.out[0]).toMatch(
      /\.oob and \.ftz cannot be combined.*e\.g\. fma\.rn\.ftz\.f16 or fma\.rn\.oob\.f16$/,
    );
    expect(ftzOob.out.some((l) => l.includes('note:') || l.includes('order'))).toBe(false);
    // The examples of 9.7.5: the corrected spelling, and the repeated .sat named.
    const after = await check('add.rz.f32.bf16.sat');
    expect(after.code).toBe(0);
    expect(after.out[1]).toBe(
      '  note: ptxas accepts this order; the spec writes add.rz.sat.f32.bf16',
    );
    const twice = await check('fma.rz.sat.f32.f16.sat');
    expect(twice.code).toBe(0);
    expect(twice.out[0]).toMatch(/^fma\.rz\.sat\.f32\.f16: valid/);
    expect(twice.out[1]).toBe(
      '  note: ptxas accepts .sat written twice; the spec writes fma.rz.sat.f32.f16',
    );
    // A valid suggestion: the rounding kept (fma.f32.f16 itself would be invalid).
    const noSource = await check('fma.rn.f32');
    expect(noSource.code).toBe(1);
    expect(noSource.out[0]).toMatch(/e\.g\. fma\.rn\.f32\.f16\)$/);
  });

  it('suggests only valid instructions, for every near miss and spelling probe', async () => {
    // Every instruction name an error or a note puts forward parses as a valid form, whatever
    // the input: the mutations and spelling probes of the ptxas agreement suite, and more.
    const named = (text: string) =>
      [
        ...text.matchAll(
          /(?<![.\w])(?:add|sub|mul|fma|neg|abs|min|max|tanh|ex2|cvt)(?:\.[A-Za-z0-9]+)+/g,
        ),
      ].map((m) => m[0]);
    const extra = [
      'fma.f32',
      'add.f16.f32',
      'add.sat.f32',
      'min.abs.f16',
      'fma.relu.bf16',
      'fma.rz.f16',
    ];
    const inputs = [...agreementCases().map((c) => c.head), ...extra];
    let suggestions = 0;
    for (const input of inputs) {
      const r = JSON.parse((await check(input, '--json')).out[0]!);
      // A spelling note quotes the name as written (which ptxas may refuse): not a suggestion.
      const offered = r.ok
        ? [r.form, ...(r.spelling ? named(r.spelling.message) : [])].filter(
            (name) => name !== r.spelling?.written,
          )
        : [...named(r.error.message), ...r.error.expected.flatMap(named)];
      for (const name of offered) {
        const parsed = parseInstruction(name);
        expect(parsed.ok && parsed.spelling === null, `${input} suggests ${name}`).toBe(true);
        suggestions++;
      }
    }
    expect(suggestions).toBeGreaterThan(5000);
  });

  it('shows no note where ptxas and the PTX ISA agree', async () => {
    const r = await check('fma.rn.relu.bf16', '--target', 'sm_86', '--ptx', '8.0', '--json');
    expect(JSON.parse(r.out[0]!).notes).toEqual([]);
    const text = await check('add.foo.f16');
    expect(text.out.some((l) => l.includes('note:'))).toBe(false);
  });

  it('keys notes on the name as written, without guard and operands', async () => {
    const { writtenName } = await import('./check.ts');
    expect(writtenName('  @!%p1 add.f16.sat d, a, b;')).toBe('add.f16.sat');
    expect(writtenName('min.abs.xorsign.f16,junk')).toBe('min.abs.xorsign.f16');
    expect(writtenName('')).toBe('');
  });

  it('prints its usage with --help', async () => {
    const r = await check('--help');
    expect(r.code).toBe(0);
    expect(r.out[0]).toMatch(/^usage: ptxf check/);
  });
});
