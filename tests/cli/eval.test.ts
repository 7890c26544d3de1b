import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { findForm } from '../../src/catalog/all-forms.ts';
import { NEWEST_PTX } from '../../src/catalog/ptx-versions.ts';
import { captureIO } from '../../src/cli/io.ts';
import { main } from '../../src/cli/main.ts';
import { evaluate } from '../../src/engine/pipeline.ts';
import { traceText } from '../../src/present/step-text.ts';
import { traceWords } from '../../src/present/step-words.ts';
import { decision } from '../../src/engine/decisions.ts';

async function run(...argv: string[]) {
  const io = captureIO();
  const status = await main(argv, { io, stdin: Readable.from([]) });
  return { status, out: io.stdout, err: io.stderr };
}

describe('ptxf eval', () => {
  it('--ftz-tininess and --oob-nan choose the other readings of two documented decisions', async () => {
    // 2^-14 − 2^-28: below the smallest normal, it rounds up to it at 11 bits: not tiny after
    // rounding (kept), tiny before rounding (flushed).
    const after = await run('eval', 'fma.rn.ftz.f16', '0x0400', '0x8400', '0x0400', '--no-trace');
    expect(after.out[0]).toBe('fma.rn.ftz.f16  →  d = 0x0400');
    const before = await run(
      'eval',
      'fma.rn.ftz.f16',
      '0x0400',
      '0x8400',
      '0x0400',
      '--ftz-tininess',
      'before-rounding',
    );
    expect(before.out[0]).toBe('fma.rn.ftz.f16  →  d = 0x0000');
    expect(before.out.join('\n')).toContain(
      'the other reading, as asked: tininess judged before rounding',
    );
    const oob = await run(
      'eval',
      'add.f16',
      '0x3c00',
      '--oob',
      'a',
      '--oob-nan',
      '0x7e01',
      '--json',
    );
    expect(JSON.parse(oob.out[0]!).d).toBe('0x7fff'); // NaN + 1: canonical NaN either way
    const marked = await run('eval', 'neg.f16', '--oob', 'a', '--oob-nan', '0x3c00', '--no-trace');
    expect(marked.out[0]).toBe('neg.f16  →  d = 0xbc00'); // the marked lane holds 1.0 here
    const bad = await run('eval', 'add.f16', '0x0', '0x0', '--ftz-tininess', 'sometimes');
    expect(bad.status).toBe(2);
    expect((await run('eval', 'add.f16', '0x0', '0x0', '--oob-nan', '7fff')).status).toBe(2);
  });

  it('takes values as operands (1.5, 2, -0.25, inf), says what each stored, and bits as before', async () => {
    // It used to refuse decimals: `ptxf eval add.f16 1.5 2` is 1.5 + 2.
    const { status, out, err } = await run('eval', 'add.f16', '1.5', '2', '--no-trace');
    expect(status).toBe(0);
    expect(out[0]).toBe('add.f16  →  d = 0x4300');
    expect(err).toEqual(['note: a = 1.5: stored 0x3e00 = 1.5', 'note: b = 2: stored 0x4000 = 2']);
    // A negative value is an operand, not an option; a packed register gets it in both lanes.
    const neg = await run('eval', 'mul.bf16x2', '-0.25', 'inf', '--json');
    const answer = JSON.parse(neg.out[0]!);
    expect(answer.d).toBe('0xff80ff80');
    expect(answer.stored).toEqual([
      'a = -0.25: stored 0xbe80be80 = -0.25 in each lane',
      'b = inf: stored 0x7f807f80 = +inf in each lane',
    ]);
    // Rounded by round-to-nearest-even, and said so.
    const rounded = await run('eval', 'neg.f16', '0.1', '--no-trace');
    expect(rounded.err).toEqual([
      'note: a = 0.1: 0.1 is not an f16 value: stored 0x2e66 = 0.0999755859375 (rounded to nearest even; error -2.44140625e-5)',
    ]);
    // Bare hex is neither bits nor a value.
    const bare = await run('eval', 'neg.f16', '3c00');
    expect(bare.status).toBe(1);
    expect(bare.err.join('\n')).toMatch(/take the 0x prefix \(0x3c00\)/);
    // An option mistake is still one.
    expect((await run('eval', 'neg.f16', '-x')).status).toBe(2);
  });

  it('prints the result bits and value, then the trace with spec sections', async () => {
    const { status, out, err } = await run('eval', 'fma.rn.f16', '0x3e00', '0x4000', '0x3400');
    expect(status).toBe(0);
    expect(err).toEqual([]);
    expect(out[0]).toBe('fma.rn.f16  →  d = 0x4280');
    expect(out[1]).toContain('0x4280 (3.25, normal)');
    const text = out.join('\n');
    expect(text).toMatch(
      /1\. Inputs\n {6}a = 1\.5 \(f16 0x3e00\) = 1\.1b × 2\^0\n {6}b = 2 \(f16 0x4000\) = 1b × 2\^1\n {6}c = 0\.25 \(f16 0x3400\)/,
    );
    expect(text).toMatch(/Round to f16 with \.rn .*\n.*G=0 R=0 S=0/);
    expect(text).toMatch(/§9\.7\.4\.\d+: /);
  });

  it('shows the rounding decision with guard, round and sticky bits', async () => {
    // 1 + 2^-11 is exactly half an ulp above 1.0 in f16: a tie, rounded to even (down).
    const { out } = await run('eval', 'add.rn.f16', '0x3c00', '0x1000');
    const text = out.join('\n');
    expect(text).toMatch(
      /G=1 R=0 S=0\n.*\n.*a tie: to the even neighbour; rounded down \(smaller magnitude\), inexact/,
    );
    expect(out[0]).toBe('add.rn.f16  →  d = 0x3c00');
  });

  it('prints each lane of an x2 form', async () => {
    const { out } = await run('eval', 'add.bf16x2', '0x3c003c00', '0x40008000');
    expect(out.slice(0, 3)).toEqual([
      'add.bf16x2  →  d = 0x40003c00',
      '  lane 0: 0x3c00 (0.0078125, normal)',
      '  lane 1: 0x4000 (2, normal)',
    ]);
    expect(out).toContain('lane 0: d[15:0] from a[15:0], b[15:0]:');
    expect(out).toContain('lane 1: d[31:16] from a[31:16], b[31:16]:');
  });

  it('shows documented decisions as notes', async () => {
    const { out } = await run('eval', 'add.f16', '0x7e01', '0x3c00');
    const text = out.join('\n');
    expect(out[0]).toBe('add.f16  →  d = 0x7fff');
    expect(text).toMatch(/note \[canonical-nan\]: /);
    expect(text).toMatch(/Documented decisions this result depends on:\n {2}\[canonical-nan\] /);
  });

  it('evaluates a form invalid for the target, warns with the reasons, and exits 0', async () => {
    const { status, out, err } = await run(
      'eval',
      'add.bf16',
      '0x3c00',
      '0x3c00',
      '--target',
      'sm_80',
      '--ptx',
      '7.0',
    );
    expect(status).toBe(0);
    expect(out[0]).toBe('add.bf16  →  d = 0x3c80'); // 2^-7 + 2^-7
    expect(err).toContain(
      'warning: not valid for sm_80 / PTX ISA 7.0: add.bf16 requires sm_90 or higher; target is sm_80',
    );
    expect(err).toContain(
      'warning: not valid for sm_80 / PTX ISA 7.0: add.bf16 requires PTX ISA 7.8; PTX ISA version is 7.0',
    );
  });

  it('evaluates an order ptxas accepts as its form, and notes the spec spelling', async () => {
    const r = await run('eval', 'add.sat.ftz.f16', '0x3c00', '0x3c00', '--no-trace');
    expect(r.status).toBe(0);
    expect(r.out[0]).toBe('add.ftz.sat.f16  →  d = 0x3c00');
    expect(r.err).toEqual(['note: ptxas accepts this order; the spec writes add.ftz.sat.f16']);
  });

  it('flags a form only ptxas documents, and lists the decision it is evaluated under', async () => {
    const r = await run('eval', 'fma.rp.bf16', '0x3f81', '0x3f81', '0xbf80');
    expect(r.status).toBe(0);
    expect(r.err).toEqual([
      'note: fma.rp.bf16 assembles; behaviour not documented, not yet measured (the spec does not list it)',
    ]);
    expect(r.out[0]).toBe('fma.rp.bf16  →  d = 0x3c81');
    expect(r.out.some((l) => l.startsWith('  [ptxas-only-forms] '))).toBe(true);
    const json = JSON.parse(
      (await run('eval', 'fma.rn.sat.oob.f16', '0x4000', '0x3c00', '0x0000', '--json')).out[0]!,
    );
    expect(json.d).toBe('0x3c00');
    expect(json.result.decisions[0]).toBe('ptxas-only-forms');
    expect(json.verdict).toMatchObject({
      flag: 'assembles; behaviour not documented, not yet measured',
      spelling: { canonical: 'fma.rn.oob.sat.f16', reordered: true },
    });
  });

  it("runs on the page's default target, sm_90 with PTX ISA 8.6, unless told otherwise", async () => {
    // It ran on the newest target (sm_121a): the model's 0x3b3e where the page showed the H100's.
    const json = async (...extra: string[]) =>
      JSON.parse(
        (await run('eval', 'tanh.approx.f16', '1.5', '--json', '--no-trace', ...extra)).out[0]!,
      ) as { d: string; verdict: { target: string; ptx: string } };
    expect(await json()).toMatchObject({ d: '0x3b3d', verdict: { target: 'sm_90', ptx: '8.6' } });
    expect(await json('--target', 'sm_100')).toMatchObject({
      d: '0x3b3e',
      verdict: { target: 'sm_100', ptx: NEWEST_PTX },
    });
    // --ptx alone: the newest target that version knows.
    expect((await json('--ptx', '7.0')).verdict.target).toBe('sm_80');
  });

  it('takes mixed add operands as a and c', async () => {
    const { status, out } = await run(
      'eval',
      'add.rn.f32.f16',
      '0x3c00',
      '0x3f800000',
      '--no-trace',
    );
    expect(status).toBe(0);
    expect(out).toEqual([
      'add.rn.f32.f16  →  d = 0x40000000',
      '  0x40000000 (2, normal)',
      '  summary: 2 is exact in f32: no rounding',
      '  reference: exact 2; f32 math gives 2 (0x40000000); f64 math gives 2 (0x4000000000000000)',
    ]);
  });

  it('marks OOB-NaN operands, whose bits may then be left out', async () => {
    const full = await run(
      'eval',
      'fma.rn.oob.f16',
      '0x3c00',
      '0x3c00',
      '0x3c00',
      '--oob',
      'b',
      '--no-trace',
    );
    const short = await run('eval', 'fma.rn.oob.f16', '0x3c00', '0x3c00', '--oob=b', '--no-trace');
    expect(full.out[0]).toBe('fma.rn.oob.f16  →  d = 0x0000');
    expect(short.out).toEqual(full.out);
  });

  it('prints JSON with the EvalResult, the hex d and the verdict', async () => {
    const { status, out } = await run(
      'eval',
      'add.bf16',
      '0x3c00',
      '0x3c00',
      '--target',
      'sm_80',
      '--json',
    );
    expect(status).toBe(0);
    expect(out).toHaveLength(1);
    const json = JSON.parse(out[0]!);
    expect(json.ok).toBe(true);
    expect(json.d).toBe('0x3c80');
    expect(json.verdict).toMatchObject({ valid: false, target: 'sm_80', minTarget: 'sm_90' });
    expect(json.result).toEqual(
      JSON.parse(JSON.stringify(evaluate('add.bf16', { a: 0x3c00n, b: 0x3c00n }))),
    );
    const noTrace = JSON.parse(
      (await run('eval', 'add.bf16', '0x3c00', '0x3c00', '--json', '--no-trace')).out[0]!,
    );
    expect(noTrace.result.elements).toBeUndefined();
    expect(noTrace.result.d).toBe('0x3c80');
  });

  it('rejects bad instructions, targets and operands with a structured error and exit 1', async () => {
    const cases: [string[], string][] = [
      [['fma.f16', '0x0', '0x0', '0x0'], 'syntax'],
      [['add.f16', '0x0', '0x0', '--target', 'sm_1'], 'target'],
      [['add.f16', '0x0', '0x0', '--ptx', '1.0'], 'ptx-version'],
      [['add.f16', '0x0'], 'operand'],
      [['add.f16', '0x0', '0x0', '0x0'], 'operand'],
      [['add.f16', '0x0', '0x10000'], 'operand'],
      [['add.f16', '0x0', 'zz'], 'operand'],
      [['add.f16', '0x0', '0x0', '--oob', 'c'], 'operand'],
    ];
    for (const [args, code] of cases) {
      const human = await run('eval', ...args);
      expect(human.status).toBe(1);
      expect(human.out).toEqual([]);
      expect(human.err[0]).toMatch(new RegExp(`^ptxf eval: error \\(${code}\\): `));
      const json = await run('eval', ...args, '--json');
      expect(json.status).toBe(1);
      expect(JSON.parse(json.out[0]!)).toMatchObject({ ok: false, error: { code } });
    }
  });

  it('answers usage errors with exit 2', async () => {
    for (const args of [
      ['eval'],
      ['eval', 'add.f16', '--bogus'],
      ['eval', 'add.f16', '0x0', '0x0', '--target'],
      ['eval', '--json=1', 'add.f16'],
    ]) {
      const { status, err } = await run(...args);
      expect(status).toBe(2);
      expect(err.join('\n')).toContain('usage: ptxf eval');
    }
    expect((await run('eval', '--help')).status).toBe(0);
  });
});

describe('ptxf main', () => {
  it('prints usage for --help (exit 0) and for no arguments or an unknown command (exit 2)', async () => {
    const help = await run('--help');
    expect(help.status).toBe(0);
    expect(help.out[0]).toBe('usage: ptxf <command> [arguments]');
    // An overview, one line per command: each command's options are its own --help.
    for (const cmd of ['eval', 'batch', 'check', 'forms'])
      expect(help.out.filter((l) => l.startsWith(`  ${cmd} `))).toHaveLength(1);
    expect(help.out.length).toBeLessThanOrEqual(20);
    expect(help.out.join('\n')).toContain('ptxf <command> --help');
    const none = await run();
    expect(none.status).toBe(2);
    expect(none.err[0]).toBe('ptxf: missing command');
    const unknown = await run('evaluate');
    expect(unknown.status).toBe(2);
    expect(unknown.err[0]).toBe("ptxf: unknown command 'evaluate'");
  });

  it('dispatches check and forms', async () => {
    expect((await run('check', 'add.bf16', '--target', 'sm_80')).status).toBe(1);
    expect((await run('check', 'add.bf16', '--target', 'sm_90')).status).toBe(0);
    const forms = await run('forms', '--opcode', 'tanh', '--json');
    expect(forms.status).toBe(0);
    expect(JSON.parse(forms.out.join('\n')).length).toBeGreaterThan(0);
  });

  it('runs batch on the injected stdin, and rejects arguments to batch', async () => {
    const io = captureIO();
    const stdin = Readable.from(['{"id":7,"instr":"neg.f16","a":"0x3c00"}\n']);
    expect(await main(['batch'], { io, stdin })).toBe(0);
    expect(io.stdout).toEqual(['{"id":7,"ok":true,"d":"0xbc00"}']);
    expect((await run('batch', 'file.jsonl')).status).toBe(2);
    expect((await run('batch', '--help')).out[0]).toBe(
      'usage: ptxf batch < requests.jsonl > answers.jsonl',
    );
  });
});

describe('trace rendering', () => {
  it('describes every step kind the engine produces for a spread of forms without falling through', () => {
    const seen = new Set<string>();
    const inputs: [string, number, number, number][] = [
      ['fma.rn.ftz.sat.f16', 0x0001, 0x3c00, 0x3c00],
      ['fma.rn.oob.relu.bf16', 0x3c00, 0x7ff7, 0xbc00],
      ['add.rn.f16', 0x7bff, 0x7bff, 0],
      ['add.rz.f32.f16', 0x7bff, 0, 0x7f7fffff],
      ['mul.rn.f16', 0x0400, 0x3400, 0],
      ['mul.rn.f16', 0x0003, 0x3800, 0],
      ['mul.rn.ftz.f16', 0x0400, 0x3400, 0],
      ['fma.rn.relu.f16', 0xbc00, 0x3c00, 0],
      ['min.NaN.xorsign.abs.f16', 0xbc00, 0x7e00, 0],
      ['max.xorsign.abs.bf16', 0xbc00, 0x4000, 0],
      ['neg.ftz.f16', 0x0001, 0, 0],
      ['abs.bf16', 0xbc00, 0, 0],
      ['tanh.approx.f16', 0x3800, 0, 0],
      ['ex2.approx.ftz.bf16', 0x0001, 0, 0],
      ['fma.rn.sat.f32.f16', 0x3c00, 0x3c00, 0x3f800000],
      ['add.rm.f32.bf16', 0x3c00, 0, 0xbc000000],
      ['add.f16', 0x7c00, 0xfc00, 0],
    ];
    for (const [form, a, b, c] of inputs) {
      // The registers the form takes (a, c for a mixed add; a for neg), by name.
      const bits: Record<string, number> = { a, b, c };
      const registers = Object.fromEntries(
        findForm(form)!
          .registers.slice(1)
          .map((r) => [r.name, BigInt(bits[r.name]!)]),
      );
      const result = evaluate(form, registers);
      for (const element of result.elements) for (const step of element.steps) seen.add(step.kind);
      for (const line of traceText(traceWords(result, decision)))
        expect(line).not.toMatch(/undefined|NaN\(|\[object/);
    }
    for (const kind of [
      'inputs',
      'flush-input',
      'convert',
      'oob-check',
      'special',
      'exact',
      'round',
      'overflow',
      'tininess',
      'flush-result',
      'saturate',
      'relu',
      'negate',
      'absolute',
      'minmax',
      'abs-inputs',
      'xorsign',
      'approx',
      'result',
    ]) {
      expect(seen, kind).toContain(kind);
    }
  });
});
