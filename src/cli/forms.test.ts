import { describe, expect, it } from 'vitest';
import { FORMS } from '../catalog/all-forms.ts';
import { findTarget } from '../catalog/targets.ts';
import { verdictFor } from '../catalog/verdict.ts';
import { runForms } from './forms.ts';
import { captureIO } from './io.ts';

async function forms(...args: string[]) {
  const io = captureIO();
  const code = await runForms(args, io);
  return { code, out: io.stdout, err: io.stderr };
}

interface Row {
  form: string;
  opcode: string;
  type: string;
  modifiers: string[];
  minTarget: string;
  minPtx: string;
  documented: boolean;
}

describe('ptxf forms', () => {
  it('lists every catalog form with its minimal target and PTX ISA version', async () => {
    const r = await forms('--json');
    expect(r.code).toBe(0);
    const rows: Row[] = JSON.parse(r.out[0]!);
    expect(rows.map((x) => x.form)).toEqual(FORMS.map((f) => f.text));
    const fma = rows.find((x) => x.form === 'fma.rn.oob.relu.bf16x2');
    expect(fma).toEqual({
      form: 'fma.rn.oob.relu.bf16x2',
      opcode: 'fma',
      type: 'bf16x2',
      modifiers: ['rn', 'oob', 'relu'],
      minTarget: 'sm_90',
      minPtx: '8.1',
      documented: true,
    });
    expect(rows.find((x) => x.form === 'fma.rp.relu.bf16')).toMatchObject({
      minTarget: 'sm_80',
      minPtx: '7.0',
      documented: false,
    });
  });

  it('prints a table with a count', async () => {
    const r = await forms('--opcode', 'fma', '--type', '.bf16x2');
    expect(r.code).toBe(0);
    expect(r.out[0]).toMatch(/^form\s+min target\s+min PTX$/);
    expect(r.out).toContain('fma.rn.oob.relu.bf16x2  sm_90       8.1');
    // The forms only ptxas assembles carry the flag.
    expect(r.out).toContain(
      'fma.rz.oob.relu.bf16x2  sm_90       8.1      assembles; behaviour not documented, not yet measured',
    );
    expect(r.out.at(-1)).toBe('16 forms (12 not in the spec; ptxas assembles them)');
  });

  it("lists the tensor cores' forms when their opcode is asked for", async () => {
    const r = await forms('--opcode', 'mma', '--type', 'f32.f16.f16.f32');
    expect(r.code).toBe(0);
    expect(r.out).toContain('mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32  sm_80       7.0');
    expect(r.out.at(-1)).toBe('6 forms');
    const wgmma: Row[] = JSON.parse(
      (await forms('--opcode', 'wgmma.mma_async', '--target', 'sm_90a', '--json')).out[0]!,
    );
    expect(wgmma.length).toBeGreaterThan(0);
    expect(wgmma.every((x) => x.opcode === 'wgmma.mma_async' && x.minTarget === 'sm_90a')).toBe(
      true,
    );
    // The default list stays the arithmetic's and cvt's.
    const all: Row[] = JSON.parse((await forms('--json')).out[0]!);
    expect(all.some((x) => x.opcode === 'mma')).toBe(false);
  });

  it('filters by opcode and type', async () => {
    const rows: Row[] = JSON.parse(
      (await forms('--opcode', 'add', '--type', 'f32.f16', '--json')).out[0]!,
    );
    expect(rows).toHaveLength(10);
    expect(rows.every((x) => x.opcode === 'add' && x.type === 'f32.f16')).toBe(true);
  });

  it('with --target and --ptx lists exactly the forms valid there', async () => {
    const r = await forms('--target', 'sm_86', '--ptx', '7.2', '--json');
    const rows: Row[] = JSON.parse(r.out[0]!);
    const target = findTarget('sm_86')!;
    const expected = FORMS.filter((f) => verdictFor(f, target, '7.2').valid).map((f) => f.text);
    expect(rows.map((x) => x.form)).toEqual(expected);
    expect(expected).toContain('min.xorsign.abs.f16');
    expect(expected).not.toContain('add.bf16');
    expect(expected).not.toContain('fma.rn.oob.f16');
    expect(expected).toContain('cvt.rn.relu.bf16x2.f32');
    expect(expected).not.toContain('cvt.rn.satfinite.e4m3x2.f32');
    expect(expected.length).toBeLessThan(FORMS.length);
  });

  it('lists cvt forms by opcode, by one of their types and by their type pair', async () => {
    const pair: Row[] = JSON.parse(
      (await forms('--opcode', 'cvt', '--type', 'e4m3x2.f32', '--json')).out[0]!,
    );
    expect(pair.map((x) => x.form)).toEqual([
      'cvt.rn.satfinite.e4m3x2.f32',
      'cvt.rn.satfinite.relu.e4m3x2.f32',
    ]);
    expect(pair[0]).toMatchObject({
      type: 'e4m3x2.f32',
      dtype: 'e4m3x2',
      atype: 'f32',
      minTarget: 'sm_89',
      minPtx: '8.1',
    });
    const either: Row[] = JSON.parse((await forms('--type', '.ue8m0x2', '--json')).out[0]!);
    expect(either.map((x) => x.form)).toContain('cvt.rn.bf16x2.ue8m0x2');
    expect(either.map((x) => x.form)).toContain('cvt.rz.satfinite.ue8m0x2.f32');
    expect((await forms('--type', 'e4m3')).code).toBe(2);
  });

  it('defaults the missing one of --target/--ptx to the newest (target: the newest the PTX knows)', async () => {
    const onlyPtx: Row[] = JSON.parse((await forms('--ptx', '8.0', '--json')).out[0]!);
    // PTX ISA 8.0 alone means sm_90a: bf16 add is there, .oob (8.1) and mixed precision are not.
    expect(onlyPtx.some((x) => x.form === 'add.bf16')).toBe(true);
    expect(onlyPtx.some((x) => x.form === 'fma.rn.oob.f16')).toBe(false);
    expect(onlyPtx.some((x) => x.opcode !== 'cvt' && x.type.startsWith('f32.'))).toBe(false);
    const onlyTarget: Row[] = JSON.parse((await forms('--target', 'sm_90', '--json')).out[0]!);
    expect(onlyTarget.some((x) => x.opcode !== 'cvt' && x.type.startsWith('f32.'))).toBe(false);
    expect(onlyTarget.some((x) => x.form === 'fma.rn.oob.f16')).toBe(true);
  });

  it('says so when nothing matches, and exits 0', async () => {
    const r = await forms('--opcode', 'tanh', '--type', 'f32.f16');
    expect(r.code).toBe(0);
    expect(r.out).toEqual(['no forms match']);
  });

  it.each([
    [['--opcode', 'div'], /unknown opcode 'div'/],
    [['--type', 'f8'], /unknown type 'f8'/],
    [['--target', 'sm_99'], /unknown target 'sm_99'/],
    [['--ptx', '3.0'], /unknown PTX ISA version '3.0'/],
    [['--opcode'], /--opcode needs a value/],
    [['fma'], /forms takes only options/],
    [['--all'], /unknown option --all/],
  ])('exits 2 on usage error %j', async (args, message) => {
    const r = await forms(...args);
    expect(r.code).toBe(2);
    expect(r.err[0]).toMatch(message);
  });
});
