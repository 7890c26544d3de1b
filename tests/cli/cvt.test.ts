import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { FORMS } from '../../src/catalog/all-forms.ts';
import { findTarget } from '../../src/catalog/targets.ts';
import { verdictFor } from '../../src/catalog/verdict.ts';
import { captureIO } from '../../src/cli/io.ts';
import { main } from '../../src/cli/main.ts';
import { evaluate } from '../../src/engine/pipeline.ts';
import { traceText } from '../../src/present/step-text.ts';
import { traceWords } from '../../src/present/step-words.ts';

async function run(argv: string[], stdin: string[] = []) {
  const io = captureIO();
  const status = await main(argv, { io, stdin: Readable.from(stdin) });
  return { status, out: io.stdout, err: io.stderr };
}

const batch = async (...lines: object[]) =>
  (await run(['batch'], [lines.map((l) => JSON.stringify(l)).join('\n')])).out.map(
    (l) => JSON.parse(l) as Record<string, unknown>,
  );

describe('ptxf eval with cvt', () => {
  it('prints d at the destination width, element by element, and the trace', async () => {
    const r = await run(['eval', 'cvt.rn.satfinite.e4m3x2.f32', '0x43fa0000', '0x40880000']);
    expect(r.status).toBe(0);
    expect(r.out[0]).toBe('cvt.rn.satfinite.e4m3x2.f32  →  d = 0x7e48');
    expect(r.out[1]).toBe('  element 0: 0x7e (448, normal)');
    expect(r.out[2]).toBe('  element 1: 0x48 (4, normal)');
    expect(r.out.join('\n')).toMatch(
      /\.satfinite: the value lies past MAX_NORM, so it becomes \+MAX_NORM: 448 \(e4m3 0x7e\)/,
    );
    expect(r.out.join('\n')).toMatch(/a tie: to the even neighbour/);
  });

  it('takes 64-bit and 8-bit registers and rbits, and shows the .rs addition', async () => {
    const f64 = await run(['eval', 'cvt.rni.f64.f64', '0x4004000000000000', '--no-trace']);
    expect(f64.out[0]).toBe('cvt.rni.f64.f64  →  d = 0x4000000000000000');
    const e2m1 = await run(['eval', 'cvt.rn.f16x2.e2m1x2', '0x7f', '--no-trace']);
    expect(e2m1.out[0]).toBe('cvt.rn.f16x2.e2m1x2  →  d = 0x4600c600');
    const rs = await run([
      'eval',
      'cvt.rs.f16x2.f32',
      '0x3f801400',
      '0x3f800000',
      '0x10000000',
      '--target',
      'sm_100a',
    ]);
    expect(rs.status).toBe(0);
    expect(rs.err).toEqual([]);
    expect(rs.out.join('\n')).toContain(
      'random bits 1000000000000 + dropped bits 1010000000000 = 10010000000000: carry out 1, away from zero',
    );
  });

  it('warns about a form invalid for the target and evaluates it anyway', async () => {
    const r = await run([
      'eval',
      'cvt.rn.satfinite.e2m1x2.f32',
      '0x40c00000',
      '0x0',
      '--target',
      'sm_90',
      '--no-trace',
    ]);
    expect(r.status).toBe(0);
    expect(r.err.join('\n')).toMatch(/supported on sm_100a, sm_101a, sm_120a/);
    expect(r.out[0]).toBe('cvt.rn.satfinite.e2m1x2.f32  →  d = 0x70');
  });

  it('answers --json with the verdict and the element traces', async () => {
    const r = await run([
      'eval',
      'cvt.rn.satfinite.e2m1x2.f16x2',
      '0x5fd0be00',
      '--json',
      '--target',
      'sm_100a',
    ]);
    const json = JSON.parse(r.out[0]!);
    expect(json).toMatchObject({
      ok: true,
      d: '0x7b',
      verdict: { valid: true, flag: expect.stringMatching(/not documented/) },
    });
    expect(json.result.elements).toHaveLength(2);
    expect(json.result.decisions).toContain('ptxas-only-forms');
  });

  it('reads a value as the page does: rounded to the source format, in every element, with a note of what was stored', async () => {
    const r = await run(['eval', 'cvt.rn.satfinite.e4m3x2.f32', '500', '4.25', '--no-trace']);
    expect(r.status).toBe(0);
    // 500 clamps to e4m3's MAX_NORM 448 (0x7E); 4.25 is a tie between 4 and 4.5: even, 4 (0x48).
    expect(r.out[0]).toBe('cvt.rn.satfinite.e4m3x2.f32  →  d = 0x7e48');
    expect(r.err).toEqual([
      'note: a = 500: stored 0x43fa0000 = 500',
      'note: b = 4.25: stored 0x40880000 = 4.25',
    ]);
    const x2 = await run(['eval', 'cvt.rn.f16x2.e4m3x2', '0.1', '--json']);
    const json = JSON.parse(x2.out.join('\n')) as { stored: string[]; result: { d: string } };
    // 0.1 is no e4m3 value: the nearest, 0.1015625 (0x1D), in both elements.
    expect(json.stored).toEqual([
      'a = 0.1: 0.1 is not an e4m3 value: stored 0x1d1d = 0.1015625 in each element (rounded to nearest even; error +0.0015625)',
    ]);
    expect(json.result.d).toBe('0x2e802e80');
  });

  it('rejects what does not fit, with the operand named', async () => {
    const cases: [string[], RegExp][] = [
      [['cvt.rn.f16.f32', '0x3f80000000'], /operand a: .* is 32 bits \(at most 8 hex digits\)/],
      [['cvt.rn.f16x2.e4m3x2', '0x12345'], /operand a: .* is 16 bits/],
      [['cvt.rn.satfinite.e4m3x2.f32', '0x3f800000'], /takes 2 operands \(a, b\); 1 given/],
      [['cvt.rn.f16.f32', '3c00'], /operand a: '3c00' is neither bits .*0x3c00/],
      [['cvt.rn.f16.f32', '0x3f800000', '--oob', 'a'], /has none/],
      [['cvt.rn.f32.s32', '0x1'], /integer type \.s32/],
    ];
    for (const [argv, message] of cases) {
      const r = await run(['eval', ...argv]);
      expect(r.status, argv.join(' ')).toBe(1);
      expect(r.err.join('\n'), argv.join(' ')).toMatch(message);
    }
  });

  it('renders every step of a cvt trace in words', () => {
    const seen = new Set<string>();
    const inputs = [
      ['cvt.rn.satfinite.relu.e2m1x2.f32', { a: 0x7fc00000n, b: 0xc0a00000n }],
      ['cvt.rp.ue8m0x2.f32', { a: 0xc0400000n, b: 0x7f800000n }],
      ['cvt.rn.ftz.sat.f32.f64', { a: 0x380fffffff000000n }],
      ['cvt.rn.ftz.bf16.f32', { a: 0x00000001n }], // .ftz flushes into .bf16, not .f16 (cvt-ftz-f16-source)
      ['cvt.rn.f16.f32', { a: 0x7f800000n }],
      ['cvt.rn.f16.f32', { a: 0x477ff000n }],
      ['cvt.rn.f16x2.e2m3x2', { a: 0xc101n }],
    ] as const;
    for (const [form, input] of inputs) {
      const result = evaluate(form, input);
      for (const e of result.elements) for (const s of e.steps) seen.add(s.kind);
      for (const line of traceText(traceWords(result)))
        expect(line).not.toMatch(/undefined|NaN\(|\[object/);
    }
    for (const kind of [
      'inputs',
      'flush-input',
      'special',
      'exact',
      'round',
      'overflow',
      'unsigned',
      'flush-result',
      'satfinite',
      'saturate',
      'relu',
      'result',
    ])
      expect(seen, kind).toContain(kind);
  });
});

describe('ptxf check and forms with cvt', () => {
  it('judges cvt for a target, with the reasons of the notes', async () => {
    const ok = await run([
      'check',
      'cvt.rn.satfinite.e4m3x2.f32 %rs1, %f1, %f2;',
      '--target',
      'sm_89',
      '--ptx',
      '8.1',
    ]);
    expect(ok.status).toBe(0);
    const no = await run([
      'check',
      'cvt.rn.satfinite.e4m3x2.f32',
      '--target',
      'sm_89',
      '--ptx',
      '8.0',
      '--json',
    ]);
    expect(no.status).toBe(1);
    const json = JSON.parse(no.out[0]!);
    expect(json.reasons.map((r: { message: string }) => r.message).join(' ')).toMatch(
      /sm_90 or higher/,
    );
    expect(json.minTarget).toBe('sm_89');
  });

  it('lists every cvt form with the verdict check gives', async () => {
    const rows = JSON.parse(
      (await run(['forms', '--opcode', 'cvt', '--target', 'sm_100a', '--ptx', '8.7', '--json']))
        .out[0]!,
    ) as { form: string }[];
    const target = findTarget('sm_100a')!;
    const cvtForms = FORMS.filter((f) => f.opcode === 'cvt');
    expect(rows.map((r) => r.form)).toEqual(
      cvtForms.filter((f) => verdictFor(f, target, '8.7').valid).map((f) => f.text),
    );
    expect(rows.length).toBe(cvtForms.length);
  });
});

describe('ptxf batch with cvt', () => {
  it('answers with d at the destination width, fast path and traced alike', async () => {
    const lines = [
      { id: 1, instr: 'cvt.rn.satfinite.e4m3x2.f32', a: '0x43fa0000', b: '0x40880000' },
      { id: 2, instr: 'cvt.rn.f32.f64', a: '0x3ff0000000000001' },
      {
        id: 3,
        instr: 'cvt.rs.f16x2.f32',
        target: 'sm_100a',
        a: '0x3f801400',
        b: '0x3f800000',
        rbits: '0x10000000',
      },
      { id: 4, instr: 'cvt.rn.f16x2.e2m1x2', target: 'sm_100a', a: '0x7f' },
      { id: 5, instr: 'cvt.f64.f32', a: '0x7fc00001' },
      {
        id: 6,
        instr: 'cvt.rs.satfinite.e2m1x4.f32',
        target: 'sm_100a',
        a: '0x3fa00000',
        b: '0x3fa00000',
        e: '0x3fa00000',
        f: '0x3fa00000',
        rbits: '0x00008000',
      },
    ];
    const fast = await batch(...lines);
    const traced = await batch(...lines.map((l) => ({ ...l, trace: true })));
    expect(fast.map((x) => x.d)).toEqual([
      '0x7e48',
      '0x3f800000',
      '0x3c013c00',
      '0x4600c600',
      '0x7ff8000020000000', // the NaN's payload kept and quieted (decision cvt-nan)
      '0x2322',
    ]);
    expect(traced.map((x) => x.d)).toEqual(fast.map((x) => x.d));
    expect(Array.isArray(traced[0]!.steps)).toBe(true);
  });

  it('reports errors as for the other forms', async () => {
    const answers = await batch(
      { id: 1, instr: 'cvt.rn.f16.f32', a: '0x3f800000', c: '0x1' },
      { id: 2, instr: 'cvt.rn.f16.f32', a: '0x3f800000', oob: ['a'] },
      { id: 3, instr: 'cvt.rs.f16x2.f32', a: '0x0', b: '0x0', rbits: '0x0', target: 'sm_90' },
      { id: 4, instr: 'cvt.rn.f16.f32' },
      { id: 5, instr: 'cvt.rn.f16.f32', a: '0x3f800000', d: '0x0' },
      { id: 6, instr: 'cvt.f16.f32', a: '0x3f800000' },
    );
    expect(answers.map((x) => (x.error as { code: string }).code)).toEqual([
      'operand',
      'operand',
      'target',
      'operand',
      'operand',
      'syntax',
    ]);
  });
});
