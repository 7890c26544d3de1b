/**
 * `ptxf quantize` and the batch `quantize` line, run in-process: the text output (the PTX
 * sequence, amax, the scale, the elements, the block's error, the cvt commands that reproduce
 * each conversion), --json, --compare, --rbits, --tensor-amax, and the structured errors.
 */
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { captureIO } from '../../src/cli/io.ts';
import { main } from '../../src/cli/main.ts';
import { quantizeBlock } from '../../src/engine/block-scale/index.ts';

async function run(argv: string[], stdin: string[] = []) {
  const io = captureIO();
  const status = await main(argv, { io, stdin: Readable.from(stdin) });
  return { status, out: io.stdout, err: io.stderr };
}

const batch = async (...lines: object[]) =>
  (await run(['batch'], [lines.map((l) => JSON.stringify(l)).join('\n')])).out.map(
    (l) => JSON.parse(l) as Record<string, unknown>,
  );

/** 957 and 31 small values: the published MXFP8 E4M3 case. */
const BLOCK = ['957', ...Array.from({ length: 31 }, (_, i) => String((i + 1) / 4))];

describe('ptxf quantize', () => {
  it('prints amax, the scale, the PTX sequence, each element and the block error', async () => {
    const r = await run(['quantize', '--scheme', 'mxfp8-e4m3', '--scale-rule', 'ocp', ...BLOCK]);
    expect(r.status).toBe(0);
    expect(r.err).toEqual([]);
    const text = r.out.join('\n');
    expect(r.out[0]).toBe(
      'mxfp8-e4m3, scale rule ocp: 32 values → e4m3 elements, rounded to nearest even',
    );
    expect(r.out[1]).toBe('amax   = 957 (0x446f4000, value 0)');
    expect(r.out[2]).toBe('scale  = 0x80 = 2^1 = 2 (UE8M0)');
    expect(text).toContain('cvt.rz.satfinite.ue8m0x2.f32 %rs1, %f95, %f95;');
    expect(text).toMatch(/sub\.s16 %rs3, %rs2, 8;\s+\/\/ 0x0080/);
    expect(text).toMatch(/mul\.rn\.f32 %f96, %f1, 0f3F000000;\s+\/\/ 0x43ef4000 = 478\.5/);
    const element0 = r.out.find((l) => /^ {3}0 {2}957 /.test(l))!;
    expect(element0.split(/\s+/).filter(Boolean)).toEqual([
      '0',
      '957',
      '0x43ef4000',
      '0x7e',
      '896',
      '-61',
      '6.37%',
      '-0.953',
      'saturated',
    ]);
    expect(text).toContain('block error: max 61 (value 0)');
    expect(text).toContain('saturated: 0;');
    expect(text).toContain(
      'values 0, 1: ptxf eval cvt.rn.satfinite.e4m3x2.f32 0x43ef4000 0x3e000000 --target sm_89 --ptx 8.1',
    );
  });

  it('takes values as numbers or binary32 bits, with commas, and notes what a value stored', async () => {
    const bits = await run([
      'quantize',
      '--scheme',
      'mxfp4',
      '--json',
      '0x3dcccccd,2',
      ...BLOCK.slice(2),
    ]);
    const values = await run(['quantize', '--scheme', 'mxfp4', '0.1', '2', ...BLOCK.slice(2)]);
    expect(values.err).toEqual([
      'note: value 0 = 0.1: 0.1 is not an f32 value: stored 0x3dcccccd = 0.10000000149011611… (rounded to nearest even; error +1.4901161193847656…e-9)',
    ]);
    const json = JSON.parse(bits.out[0]!) as { ok: boolean; result: { scaleRule: string } };
    expect(json.ok).toBe(true);
    // MX defaults to OCP's rule.
    expect(json.result.scaleRule).toBe('ocp');
    expect(values.out[1]).toBe('amax   = 7.75 (0x40f80000, value 31)');
  });

  it('--json carries the whole quantization, as quantizeBlock answers it', async () => {
    const r = await run([
      'quantize',
      '--scheme',
      'mxfp8-e4m3',
      '--scale-rule',
      'rp',
      '--json',
      ...BLOCK,
    ]);
    expect(r.status).toBe(0);
    const json = JSON.parse(r.out[0]!) as { result: unknown };
    const values = [0x446f4000, ...Array.from({ length: 31 }, (_, i) => f32((i + 1) / 4))];
    expect(json.result).toEqual(
      JSON.parse(JSON.stringify(quantizeBlock({ scheme: 'mxfp8-e4m3', scaleRule: 'rp', values }))),
    );
  });

  it('nvfp4: the global scale from --tensor-amax, the block scale, and --rbits for .rs', async () => {
    const values = Array.from({ length: 16 }, (_, i) => String(i + 1));
    const r = await run(['quantize', '--scheme', 'nvfp4', '--tensor-amax', '2688', ...values]);
    expect(r.status).toBe(0);
    expect(r.out[2]).toBe('global = 0x3f800000 = 1 (tensorAmax 2688 / 2688)');
    expect(r.out[3]).toBe('scale  = 0x43 = 2.75 (UE4M3)');
    const rs = await run([
      'quantize',
      '--scheme',
      'nvfp4',
      '--rbits',
      '0x80ff7f01',
      '--json',
      ...values,
    ]);
    const json = JSON.parse(rs.out[0]!) as {
      result: {
        rounding: string;
        elements: { cvt: { form: string; registers: { rbits: string } } }[];
      };
    };
    expect(json.result.rounding).toBe('rs');
    expect(json.result.elements[0]!.cvt).toMatchObject({
      form: 'cvt.rs.satfinite.e2m1x4.f32',
      registers: { rbits: '0x80ff7f01' },
    });
  });

  it('--compare adds every scheme and rule, ranked, and f32 / bf16', async () => {
    const r = await run(['quantize', '--scheme', 'mxfp8-e4m3', '--compare', ...BLOCK]);
    const text = r.out.join('\n');
    expect(text).toContain('what if: the same 32 values under every scheme and rule');
    expect(text).toMatch(/mxfp8-e4m3\/rp .*← least loss/);
    expect(text).toMatch(/\n {2}f32 +32 +0 +0 /);
    expect(text).toContain('least loss per scheme: mxfp8-e4m3 rp');
  });

  it('refuses a bad block or option with a structured error (exit 1), and usage mistakes (exit 2)', async () => {
    const cases: [string[], string, RegExp][] = [
      [['--scheme', 'mxfp4', '1', '2'], 'length', /a mxfp4 block holds 32 values; 2 given/],
      [['--scheme', 'mxfp5', ...BLOCK], 'scheme', /unknown scheme "mxfp5"/],
      [
        ['--scheme', 'mxfp4', '--scale-rule', 'nvfp4', ...BLOCK],
        'scale-rule',
        /rules: ocp, rp, rz/,
      ],
      [['--scheme', 'mxfp4', 'nan', ...BLOCK.slice(1)], 'value', /value 0 \(0x7fffffff\) is NaN/],
      [['--scheme', 'mxfp4', 'x', ...BLOCK.slice(1)], 'value', /value 0: 'x' is neither/],
      [
        ['--scheme', 'mxfp4', '--tensor-amax', '1', ...BLOCK],
        'tensor-amax',
        /nvfp4's global scale/,
      ],
      [['--scheme', 'mxfp4', '--rbits', '12', ...BLOCK], 'rbits', /not a bit pattern/],
      [
        ['--scheme', 'mxfp4', '--rbits', '0x1,0x2', ...BLOCK],
        'rbits',
        /one 32-bit word for every cvt, or 8/,
      ],
    ];
    for (const [argv, code, message] of cases) {
      const r = await run(['quantize', ...argv]);
      expect(r.status, argv.join(' ')).toBe(1);
      expect(r.err.join('\n'), argv.join(' ')).toMatch(message);
      expect(r.err[0]).toContain(`error (${code})`);
      const json = await run(['quantize', '--json', ...argv]);
      expect(JSON.parse(json.out[0]!)).toMatchObject({ ok: false, error: { code } });
    }
    for (const argv of [['1', '2'], ['--scheme'], ['--scheme', 'mxfp4', '--colour', '1']]) {
      const r = await run(['quantize', ...argv]);
      expect(r.status, argv.join(' ')).toBe(2);
      expect(r.err.join('\n')).toContain('usage: ptxf quantize');
    }
  });

  it('--help prints the options; ptxf --help lists the command', async () => {
    const help = await run(['quantize', '--help']);
    expect(help.status).toBe(0);
    expect(help.out[0]).toMatch(/^usage: ptxf quantize --scheme/);
    const all = await run(['--help']);
    expect(all.out.join('\n')).toMatch(/quantize v1 v2 … +quantize a block/);
  });
});

function f32(x: number): number {
  const view = new DataView(new ArrayBuffer(4));
  view.setFloat32(0, x);
  return view.getUint32(0);
}

describe('ptxf batch: a quantize line', () => {
  const values = ['0x3dcccccd', ...Array.from({ length: 31 }, (_, i) => String(i / 2))];

  it('answers the scale, the elements and the errors', async () => {
    const [a] = await batch({
      id: 7,
      quantize: { scheme: 'mxfp4', scaleRule: 'ocp' },
      values,
    });
    const r = quantizeBlock({
      scheme: 'mxfp4',
      scaleRule: 'ocp',
      values: [0x3dcccccd, ...Array.from({ length: 31 }, (_, i) => f32(i / 2))],
    });
    if (!r.ok) throw new Error(r.message);
    expect(a).toEqual({
      id: 7,
      ok: true,
      scheme: 'mxfp4',
      scaleRule: 'ocp',
      scale: r.scale.bits,
      elements: r.elements.map((e) => e.stored.bits),
      decoded: r.elements.map((e) => Number(e.decoded.decimal)),
      absErrors: r.elements.map((e) => e.error!.absoluteNumber),
      relErrors: r.elements.map((e) => e.error!.relative),
      ulpErrors: r.elements.map((e) => e.error!.ulps),
      maxAbsError: r.summary.maxAbsolute.number,
      rmsError: r.summary.rms,
      saturated: r.summary.saturated,
      flushedToZero: r.summary.flushedToZero,
    });
    // floor(log2 15) = 3, minus emax 2: 2^1, stored 0x80.
    expect(a!.scale).toBe('0x80');
  });

  it('nvfp4: globalScale beside the scale; "trace" adds the PTX lines and each cvt', async () => {
    const [a] = await batch({
      id: 'n',
      quantize: { scheme: 'nvfp4' },
      values: values.slice(0, 16),
      tensorAmax: '0x45280000',
      trace: true,
    });
    expect(a).toMatchObject({ id: 'n', ok: true, scaleRule: 'nvfp4', globalScale: '0x3f800000' });
    expect(a!.ptx).toContain('div.rn.f32 %f49, %f17, 0f45280000;');
    expect((a!.cvt as { form: string }[])[0]!.form).toBe('cvt.rn.satfinite.e2m1x2.f32');
  });

  it('refuses bad lines with a structured error, and goes on with the next line', async () => {
    const answers = await batch(
      { id: 1, quantize: { scheme: 'nvfp4' }, values: ['1'] },
      { id: 2, quantize: 'mxfp4', values },
      { id: 3, quantize: { scheme: 'mxfp4', rule: 'ocp' }, values },
      { id: 4, quantize: { scheme: 'mxfp4' }, values: [1, 2] },
      { id: 5, quantize: { scheme: 'mxfp4' }, values, tensorAmax: '1' },
      { id: 6, quantize: { scheme: 'mxfp4' }, values, extra: true },
      { id: 7, quantize: { scheme: 'mxfp4' }, values, rbits: ['0x1', 'x'] },
      { id: 8, instr: 'add.f16', a: '1', b: '2' },
    );
    expect(answers.map((a) => (a.ok ? 'ok' : (a.error as { code: string }).code))).toEqual([
      'length',
      'json',
      'json',
      'value',
      'tensor-amax',
      'json',
      'rbits',
      'ok',
    ]);
    expect((answers[0]!.error as { message: string }).message).toBe(
      'line 1: a nvfp4 block holds 16 values; 1 given',
    );
  });
});
