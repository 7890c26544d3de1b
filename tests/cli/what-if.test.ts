import fc from 'fast-check';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { FORMS } from '../../src/catalog/all-forms.ts';
import { NEWEST_TARGET } from '../../src/catalog/targets.ts';
import { runBatch } from '../../src/cli/batch.ts';
import { captureIO } from '../../src/cli/io.ts';
import { main } from '../../src/cli/main.ts';
import { compareWith, parseVariant } from '../../src/engine/what-if/comparison.ts';

/**
 * What-if from the CLI: `ptxf eval … --vs <instr|unfused>` (text and JSON), the summary line of a
 * plain eval, and a batch line's "vs" field, whose answer is the comparison's B (fast path and
 * traced evaluation agree) and whose failure never fails the line's own answer.
 */

async function run(...argv: string[]) {
  const io = captureIO();
  const status = await main(argv, { io, stdin: Readable.from([]) });
  return { status, out: io.stdout, err: io.stderr };
}

async function batch(lines: readonly object[]) {
  const io = captureIO();
  const status = await runBatch(
    Readable.from([lines.map((l) => `${JSON.stringify(l)}\n`).join('')]),
    io,
  );
  return { status, answers: io.stdout.map((l) => JSON.parse(l) as Record<string, unknown>) };
}

const FMA = ['fma.rn.f16', '0x3c01', '0x3c01', '0xbc02'];

describe('ptxf eval --vs', () => {
  it('prints both results, both summaries, the difference and why', async () => {
    const { status, out } = await run('eval', ...FMA, '--vs', 'unfused');
    expect(status).toBe(0);
    expect(out).toEqual([
      'fma.rn.f16  →  d = 0x0010',
      '  0x0010 (9.5367431640625e-7, subnormal)',
      '  summary: 9.5367431640625e-7 is exact in f16: no rounding',
      '  reference: exact 9.5367431640625e-7; f32 math gives 9.5367431640625e-7 (0x35800000); f64 math gives 9.5367431640625e-7 (0x3eb0000000000000)',
      '',
      'vs unfused  →  d = 0x0000',
      '  0x0000 (+0, zero)',
      '  summary: t: 1.0019540786743164… rounds down to 1.001953125 (.rn: below the halfway point); error -9.5367431640625e-7 = -0.0009766 ulp; d: the exact sum is 0, which is +0 by the sign rule',
      '  mul.rn.f16 t, a, b;',
      '  add.rn.f16 d, t, c;',
      '  t = 0x3c02 (1.001953125, normal): a × b rounded to f16',
      '',
      "B differs from A: B − A = -16 ulps of f16 at A's result.",
      'differing bits: 0x0010',
      "error against A's exact result: A exact, B -9.5367431640625e-7 = -16 ulps of f16 at A's result",
      'why: mul rounds a × b to f16 (t − a × b = -9.5367431640625e-7); c cancels most of the product, so that rounding error is a large part of what is left',
    ]);
  });

  it('another form: the operands carried by value, the difference in each format', async () => {
    const { out } = await run('eval', 'add.rn.f16', '0.1', '0.1', '--vs', 'add.rn.bf16');
    expect(out).toContain(
      '  carried a: 0.0999755859375 (f16 0x2e66) is not a bf16 value: it becomes the nearest, 0.10009765625 (bf16 0x3dcd) (round to nearest even)',
    );
    expect(out).toContain("B differs from A: B − A = +2 ulps of f16 at A's result.");
    // B's own reference: the exact sum of the carried operands, and what f32 and f64 give.
    expect(out).toContain(
      '  reference: exact 0.2001953125; f32 math gives 0.2001953125 (0x3e4d0000); f64 math gives 0.2001953125 (0x3fc9a00000000000)',
    );
    // A spelling ptxas accepts is the form it spells.
    const spelled = await run('eval', 'add.f16', '1', '2', '--vs', 'add.sat.rn.f16', '--json');
    expect(JSON.parse(spelled.out[0]!).vs.variant).toBe('add.rn.sat.f16');
  });

  it('--json: A with its summary, B, and the difference', async () => {
    const { status, out } = await run('eval', ...FMA, '--vs', 'unfused', '--json');
    expect(status).toBe(0);
    const answer = JSON.parse(out[0]!);
    expect(answer).toMatchObject({
      ok: true,
      d: '0x0010',
      summary: '9.5367431640625e-7 is exact in f16: no rounding',
      reference: [
        {
          element: 0,
          exact: '0.00000095367431640625',
          f32: '0x35800000',
          f64: '0x3eb0000000000000',
          error: { ulps: 0 },
        },
      ],
      vs: {
        ok: true,
        variant: 'unfused',
        d: '0x0000',
        lines: ['mul.rn.f16 t, a, b;', 'add.rn.f16 d, t, c;'],
        t: '0x3c02',
        why: expect.stringMatching(/cancels/),
      },
      difference: {
        same: false,
        differingBits: '0x0010',
        elements: [
          {
            element: 0,
            exact: '0.00000095367431640625',
            unit: { format: 'f16', exponent: -24, at: '0x0010' },
            difference: { ulps: -16 },
            a: { bits: '0x0010', error: { ulps: 0 } },
            b: { bits: '0x0000', error: { value: '-0.00000095367431640625', ulps: -16 } },
          },
        ],
      },
    });
    expect(answer.vs.traces.mul.form).toBe('mul.rn.f16');
    const form = await run('eval', 'add.rn.f16', '0.1', '0.1', '--vs', 'add.rn.bf16', '--json');
    expect(JSON.parse(form.out[0]!).vs.carried[0]).toEqual({
      operand: 'a',
      element: 0,
      how: 'rounded',
      from: '0x2e66',
      bits: '0x3dcd',
    });
  });

  it('says where the variant does not exist, and refuses one it cannot read', async () => {
    const relu = await run('eval', 'fma.rn.relu.f16', '1', '1', '1', '--vs', 'unfused');
    expect(relu.status).toBe(0);
    expect(relu.out.at(-1)).toBe(
      'vs: no such variant: fma.rn.relu.f16: .relu has no unfused variant (PTX has no mul or add with .relu for .f16)',
    );
    const reluJson = await run(
      'eval',
      'fma.rn.relu.f16',
      '1',
      '1',
      '1',
      '--vs',
      'unfused',
      '--json',
    );
    expect(JSON.parse(reluJson.out[0]!)).toMatchObject({
      ok: true,
      vs: { ok: false, error: { code: 'variant' } },
      difference: null,
    });
    const bad = await run('eval', 'add.f16', '1', '1', '--vs', 'add.rq.f16');
    expect(bad.status).toBe(1);
    expect(bad.err).toEqual([
      "ptxf eval: error (syntax): vs: add.rq.f16: unknown modifier '.rq' on add with .f16; allowed: .sat, .ftz, .rn",
    ]);
    const badJson = await run('eval', 'add.f16', '1', '1', '--vs', 'add.rq.f16', '--json');
    expect(JSON.parse(badJson.out[0]!)).toMatchObject({ ok: false, error: { code: 'syntax' } });
    // A cvt is no fma: it has no unfused sequence, as add has none.
    const cvt = await run('eval', 'cvt.rn.f16.f32', '0x3f800000', '--vs', 'unfused');
    expect(cvt.status).toBe(0);
    expect(cvt.out.at(-1)).toBe(
      'vs: no such variant: cvt.rn.f16.f32 is not an fma: only an fma has an unfused variant',
    );
    expect((await run('eval', 'add.f16', '1', '1', '--vs')).status).toBe(2);
    expect((await run('eval', '--help')).out.join('\n')).toContain('--vs <instr>');
  });

  it('judges B for A’s target and PTX ISA version, and compares it anyway', async () => {
    const { status, out, err } = await run(
      'eval',
      'add.f16',
      '1',
      '1',
      '--target',
      'sm_70',
      '--vs',
      'add.rn.bf16',
    );
    expect(status).toBe(0);
    expect(err).toContain(
      'warning: vs add.rn.bf16 is not valid for sm_70 / PTX ISA 9.1: add.bf16 requires sm_90 or higher; target is sm_70; compared anyway',
    );
    expect(out).toContain('vs add.rn.bf16  →  d = 0x4000');
    const json = await run(
      'eval',
      'add.f16',
      '1',
      '1',
      '--target',
      'sm_70',
      '--vs',
      'add.rn.bf16',
      '--json',
    );
    expect(JSON.parse(json.out[0]!).vs).toMatchObject({
      ok: true,
      d: '0x4000',
      verdict: { valid: false, target: 'sm_70', minTarget: 'sm_90' },
    });
    const valid = await run('eval', 'add.f16', '1', '1', '--vs', 'add.rn.bf16');
    expect(valid.err.filter((l) => l.startsWith('warning'))).toEqual([]);
  });

  it('plain eval prints the summary line after the result', async () => {
    const tie = await run('eval', 'add.rn.f16', '0x3c00', '0x1000');
    expect(tie.out[2]).toBe(
      '  summary: 1.00048828125 is halfway between 1 and 1.0009765625: the tie goes to the even one, 1; error -0.00048828125 = -0.5 ulp',
    );
    const json = await run('eval', 'add.f16', '0x7c00', '0xfc00', '--json');
    expect(JSON.parse(json.out[0]!).summary).toBe('∞ − ∞: invalid, canonical NaN 0x7fff');
    // What f32 math would give, per lane; an approx op's exact value is the trace's, not a double's.
    const approx = await run('eval', 'tanh.approx.f16x2', '0.5', '--no-trace');
    expect(approx.out.slice(-2)).toEqual(
      [0, 1].map(
        (lane) =>
          `  reference lane ${lane}: f32 math gives 0.46211716532707214… (0x3eec9a9f); f64 math gives 0.46211715726000973… (0x3fdd9353d7568af3)`,
      ),
    );
    const overflow = await run('eval', 'ex2.approx.f16', '0x7bff', '--no-trace');
    expect(overflow.out.at(-1)).toBe(
      '  reference: f32 math gives +inf (0x7f800000); f64 math gives +inf (0x7ff0000000000000)',
    );
    const negativeZero = await run('eval', 'neg.f16', '0x0000', '--no-trace');
    expect(negativeZero.out.at(-1)).toBe(
      '  reference: exact -0; f32 math gives -0 (0x80000000); f64 math gives -0 (0x8000000000000000)',
    );
    const approxJson = await run('eval', 'tanh.approx.f16', '0.5', '--json');
    expect(JSON.parse(approxJson.out[0]!).reference).toMatchObject([
      { element: 0, approximate: true, f32: '0x3eec9a9f', f64: '0x3fdd9353d7568af3' },
    ]);
  });
});

describe('ptxf batch "vs"', () => {
  it('answers vs_d beside d, and a bad variant beside the line’s own answer', async () => {
    const { status, answers } = await batch([
      { id: 1, instr: 'fma.rn.f16', a: '0x3c01', b: '0x3c01', c: '0xbc02', vs: 'unfused' },
      { id: 2, instr: 'add.f16', a: '0.1', b: '0.1', vs: 'add.rn.bf16' },
      { id: 3, instr: 'add.f16', a: '1', b: '1', vs: 'add.rq.f16' },
      { id: 4, instr: 'fma.rn.relu.f16', a: '1', b: '1', c: '1', vs: 'unfused' },
      { id: 5, instr: 'add.f16', a: '1', b: '1', vs: 7 },
      { id: 6, instr: 'add.f16', a: '1', b: '1', vs: null },
      { id: 7, instr: 'cvt.rn.f16.f32', a: '0x3f800000', vs: 'unfused' },
      { id: 8, instr: 'add.f16', a: 'zz', b: '1', vs: 'unfused' },
      { id: 9, instr: 'add.f16', target: 'sm_70', a: '1', b: '1', vs: 'add.rn.bf16' },
      { id: 10, instr: 'add.f16', ptx: '7.0', a: '1', b: '1', vs: 'add.rn.f32.f16' },
    ]);
    // A failed comparison does not fail the line: only line 8's own operand does.
    expect(status).toBe(1);
    expect(answers[0]).toEqual({ id: 1, ok: true, d: '0x0010', vs_ok: true, vs_d: '0x0000' });
    expect(answers[1]).toEqual({ id: 2, ok: true, d: '0x3266', vs_ok: true, vs_d: '0x3e4d' });
    expect(answers[2]).toMatchObject({
      id: 3,
      ok: true,
      d: '0x4000',
      vs_ok: false,
      vs_error: { code: 'syntax', message: expect.stringMatching(/^line 3: vs: add\.rq\.f16: /) },
    });
    expect(answers[3]).toMatchObject({
      ok: true,
      d: '0x4000',
      vs_ok: false,
      vs_error: { code: 'variant', message: expect.stringMatching(/\.relu has no unfused/) },
    });
    expect(answers[4]).toMatchObject({ ok: true, vs_ok: false, vs_error: { code: 'syntax' } });
    expect(answers[5]).toEqual({ id: 6, ok: true, d: '0x4000' });
    expect(answers[6]).toMatchObject({ ok: true, d: '0x3c00', vs_ok: false });
    expect(answers[7]).toMatchObject({ ok: false, error: { code: 'operand' } });
    expect(answers[7]).not.toHaveProperty('vs_ok');
    // The variant is judged for the line's target and PTX ISA version, as the line's form is.
    expect(answers[8]).toMatchObject({
      ok: true,
      d: '0x4000',
      vs_ok: false,
      vs_error: {
        code: 'target',
        message: expect.stringMatching(/^line 9: vs: add\.rn\.bf16 is not valid for sm_70/),
      },
    });
    expect(answers[9]).toMatchObject({ ok: true, vs_ok: false, vs_error: { code: 'target' } });
  });

  it('vs_d is the comparison’s B for any pair of forms (fast path and traced agree)', async () => {
    const arithmetic = FORMS.filter((f) => f.family !== 'convert').map((f) => f.text);
    const sample = fc.sample(
      fc.record({
        instr: fc.constantFrom(...arithmetic),
        vs: fc.oneof(fc.constant('unfused'), fc.constantFrom(...arithmetic)),
        a: fc.nat(0xffffffff),
        b: fc.nat(0xffffffff),
        c: fc.nat(0xffffffff),
      }),
      { numRuns: 600, seed: 1515 },
    );
    // Each line with the registers it sends (a form without b or c sends none).
    const cases = sample.map(({ instr, vs, a, b, c }, i) => {
      const form = FORMS.find((f) => f.text === instr)!;
      const register = (name: 'a' | 'b' | 'c', bits: number) => {
        const op = form.registers.find((r) => r.name === name);
        return op ? BigInt(op.bits === 16 ? bits & 0xffff : bits >>> 0) : undefined;
      };
      const input = { a: register('a', a)!, b: register('b', b), c: register('c', c) };
      const fields = Object.fromEntries(
        Object.entries(input)
          .filter(([, v]) => v !== undefined)
          .map(([k, v]) => [k, `0x${v!.toString(16)}`]),
      );
      // The newest target has every form, and no measured tables: the model, as compareWith.
      return { line: { id: i, instr, vs, target: NEWEST_TARGET, ...fields }, input };
    });
    const { answers } = await batch(cases.map((c) => c.line));
    answers.forEach((answer, i) => {
      const { line, input } = cases[i]!;
      const variant = parseVariant(line.vs);
      if ('error' in variant) throw new Error(variant.error.message);
      const c = compareWith(line.instr, input, variant);
      if (c.b.kind === 'refused') {
        expect(answer, JSON.stringify(line)).toMatchObject({ ok: true, vs_ok: false });
        return;
      }
      const b = c.b.kind === 'form' ? c.b.result : c.b.sequence;
      const width = b.dBits / 4;
      expect(answer, JSON.stringify(line)).toMatchObject({
        ok: true,
        vs_ok: true,
        vs_d: `0x${BigInt(b.d).toString(16).padStart(width, '0')}`,
      });
    });
  });
});

describe('cvt: ptxf eval --vs <cvt form> and batch "vs"', () => {
  const E4M3 = ['cvt.rn.satfinite.e4m3x2.f32', '0x43fa0000', '0x40880000'];

  it('prints both results element by element, errors, differences and the verdict', async () => {
    const { status, out } = await run('eval', ...E4M3, '--vs', 'cvt.rn.satfinite.e5m2x2.f32');
    expect(status).toBe(0);
    // A's lines, with what an H200 measured of A (sm_90), then B's.
    expect(out[4]).toBe(
      '  measured on NVIDIA H200 (driver 580.159.04, CUDA 13.0): every input (2^32), as row hashes; the rows compared agree (hw/captures/sm_90/h200)',
    );
    expect(out.slice(7)).toEqual([
      '',
      'vs cvt.rn.satfinite.e5m2x2.f32  →  d = 0x6044',
      '  element 0: 0x60 (512, normal)',
      '  element 1: 0x44 (4, normal)',
      '  summary: element 0: 500 rounds up to 512 (.rn: above the halfway point); error +12 = +0.09375 ulp. element 1: 4.25 rounds down to 4 (.rn: below the halfway point); error -0.25 = -0.25 ulp',
      '  reference element 0: exact 500; f32 math gives 500 (0x43fa0000); f64 math gives 500 (0x407f400000000000)',
      '  reference element 1: exact 4.25; f32 math gives 4.25 (0x40880000); f64 math gives 4.25 (0x4011000000000000)',
      '',
      "B differs from A: element 0: B − A = +2 ulps of e4m3 at A's result.",
      "error against A's exact result: element 0: A -52 = -1.625 ulps of e4m3 at A's result, B +12 = +0.375 ulp of e4m3 at A's result; element 1: A -0.25 = -0.5 ulp of e4m3 at A's result, B -0.25 = -0.5 ulp of e4m3 at A's result",
    ]);
  });

  it('--json: B, what was carried, and the difference per element', async () => {
    const { out } = await run(
      'eval',
      'cvt.rn.f16x2.e4m3x2',
      '0x7e7f',
      '--vs',
      'cvt.rn.f16x2.e2m1x2',
      '--target',
      'sm_100a',
      '--json',
    );
    const json = JSON.parse(out[0]!);
    expect(json.vs).toMatchObject({
      ok: true,
      variant: 'cvt.rn.f16x2.e2m1x2',
      d: '0x46000000', // 448 → e2m1's 6; NaN → +0 (e2m1 has no NaN)
      carried: [
        { element: 0, how: 'rounded', from: '0x7e', bits: '0x7' },
        { element: 1, how: 'no-nan', from: '0x7f', bits: '0x0' },
      ],
      verdict: { valid: true },
    });
    // Both destinations are f16 here: 6 − 448 in the one unit, an ulp of f16 at A's 448 (0.25).
    expect(json.difference.elements[0]).toMatchObject({
      unit: { format: 'f16', exponent: -2, at: '0x5f00' },
      difference: { value: '-442', ulps: -442 * 4 },
    });
  });

  it('compares a cvt with an arithmetic B, and the arithmetic with a cvt B', async () => {
    // B reads A's values input by input: fma's a is A's source 500; A has no b or c (+0).
    const a = await run('eval', ...E4M3, '--vs', 'fma.rn.f16');
    expect(a.status).toBe(0);
    expect(a.out).toContain('vs fma.rn.f16  →  d = 0x0000');
    expect(a.out).toContain('  carried a: 500 (f32 0x43fa0000) is exactly 500 (f16 0x5fd0)');
    const b = await run('eval', 'add.f16', '1', '1', '--vs', 'cvt.rn.f16.f32');
    expect(b.status).toBe(0);
    expect(b.out).toContain('vs cvt.rn.f16.f32  →  d = 0x3c00');
    expect(b.out).toContain(
      "error against A's exact result: A exact, B not measured: B computes another operation",
    );
  });

  it('batch: vs_d beside d, a B not valid for the line’s target refused beside it', async () => {
    const { status, answers } = await batch([
      { id: 1, instr: E4M3[0], a: E4M3[1], b: E4M3[2], vs: 'cvt.rn.satfinite.e5m2x2.f32' },
      {
        id: 2,
        instr: E4M3[0],
        target: 'sm_100a',
        ptx: '8.7',
        a: E4M3[1],
        b: E4M3[2],
        vs: 'cvt.rn.satfinite.e2m1x2.f32',
      },
      {
        id: 3,
        instr: E4M3[0],
        target: 'sm_90',
        a: E4M3[1],
        b: E4M3[2],
        vs: 'cvt.rn.satfinite.e2m1x2.f32',
      },
      { id: 4, instr: E4M3[0], a: E4M3[1], b: E4M3[2], vs: 'add.f16' },
    ]);
    expect(status).toBe(0);
    expect(answers[0]).toEqual({ id: 1, ok: true, d: '0x7e48', vs_ok: true, vs_d: '0x6044' });
    expect(answers[1]).toEqual({ id: 2, ok: true, d: '0x7e48', vs_ok: true, vs_d: '0x76' });
    expect(answers[2]).toMatchObject({ id: 3, ok: true, d: '0x7e48', vs_ok: false });
    // add.f16 on A's first source, 500, and +0 (A has no second input there).
    expect(answers[3]).toEqual({ id: 4, ok: true, d: '0x7e48', vs_ok: true, vs_d: '0x5fd0' });
  });
});
