import { Readable, Writable } from 'node:stream';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import {
  MAX_LINE_CHARS,
  runBatch,
  runBatchSummary,
  streamSink,
  type BatchSink,
} from '../../src/cli/batch.ts';
import { captureIO } from '../../src/cli/io.ts';
import { compileFast } from '../../src/engine/fast/index.ts';
import { evaluate } from '../../src/engine/pipeline.ts';

interface Answer {
  id: unknown;
  ok: boolean;
  d?: string;
  steps?: unknown[][];
  error?: { code: string; message: string };
}

async function batch(
  lines: readonly string[],
): Promise<{ status: number; answers: Answer[]; raw: string[] }> {
  const io = captureIO();
  const status = await runBatch(Readable.from([lines.map((l) => `${l}\n`).join('')]), io);
  return { status, answers: io.stdout.map((l) => JSON.parse(l) as Answer), raw: io.stdout };
}

async function one(request: Record<string, unknown> | string): Promise<Answer> {
  const { answers } = await batch([
    typeof request === 'string' ? request : JSON.stringify(request),
  ]);
  expect(answers).toHaveLength(1);
  return answers[0]!;
}

const FMA = { id: 1, instr: 'fma.rn.f16', a: '0x3e00', b: '0x4000', c: '0x3400' }; // 1.5 * 2 + 0.25

describe('ptxf batch: results', () => {
  it('answers an ok line with d zero-padded to the destination width', async () => {
    expect(await one(FMA)).toEqual({ id: 1, ok: true, d: '0x4280' });
    expect(await one({ id: 2, instr: 'add.f16', a: '0x3c00', b: '0xbc00' })).toEqual({
      id: 2,
      ok: true,
      d: '0x0000',
    });
    expect(await one({ id: 3, instr: 'add.f16x2', a: '0x3c00bc00', b: '0xbc003c00' })).toEqual({
      id: 3,
      ok: true,
      d: '0x00000000',
    });
    // bf16 lanes: 2^-7 * 2 + 0 = 2^-6 in both lanes.
    expect(
      await one({
        id: 4,
        instr: 'fma.rn.relu.bf16x2',
        a: '0x3c003c00',
        b: '0x40004000',
        c: '0x00000000',
      }),
    ).toEqual({ id: 4, ok: true, d: '0x3c803c80' });
  });

  it('evaluates every spelling ptxas assembles: other orders, repeats, forms the spec lacks', async () => {
    // (1 + 2^-7)^2 - 1 rounded once, upward: 2^-6 + 2^-13.
    const rp = { a: '0x3f81', b: '0x3f81', c: '0xbf80' };
    expect(await one({ id: 1, instr: 'fma.relu.rp.bf16', ...rp })).toEqual({
      id: 1,
      ok: true,
      d: '0x3c81',
    });
    expect(await one({ id: 2, instr: 'add.f16.sat.sat', a: '0x3c00', b: '0x3c00' })).toEqual({
      id: 2,
      ok: true,
      d: '0x3c00',
    });
  });

  it('names mixed-precision add operands a and c, with a 32-bit c and d', async () => {
    const add = { id: 1, instr: 'add.rn.f32.f16', a: '0x3c00', c: '0x3f800000', target: 'sm_100' };
    expect(await one(add)).toEqual({ id: 1, ok: true, d: '0x40000000' });
  });

  it("defaults to the page's target and PTX ISA version, sm_90 and 8.6, and accepts explicit ones", async () => {
    expect((await one({ ...FMA, target: 'sm_90', ptx: '8.6' })).d).toBe('0x4280');
    expect((await one({ ...FMA, target: null, ptx: null })).d).toBe('0x4280');
    // sm_90's tanh.approx is the H100's, as on the page: 0x3b3d where the model gives 0x3b3e.
    const tanh = { id: 1, instr: 'tanh.approx.f16', a: '0x3e00' };
    expect((await one(tanh)).d).toBe('0x3b3d');
    expect((await one({ ...tanh, target: 'sm_100' })).d).toBe('0x3b3e');
    // A form sm_90 lacks is refused, and the message says the default applied.
    const mixed = await one({ id: 1, instr: 'add.rn.f32.f16', a: '0x3c00', c: '0x3f800000' });
    expect(mixed.ok).toBe(false);
    expect(JSON.stringify(mixed)).toContain(
      'the line names no \\"target\\" or \\"ptx\\", so the default sm_90 with PTX ISA 8.6 applies',
    );
  });

  it('with only a PTX ISA version, the target is the newest that version knows', async () => {
    const add = { id: 1, instr: 'add.f16', a: '0x3c00', b: '0x3c00' };
    expect(await one({ ...add, ptx: '7.0' })).toEqual({ id: 1, ok: true, d: '0x4000' });
    const bf16 = await one({ ...add, instr: 'add.bf16', a: '0x3f80', b: '0x3f80', ptx: '7.0' });
    expect(bf16.ok).toBe(false);
    expect(JSON.stringify(bf16)).toContain('not valid for sm_80 with PTX ISA 7.0');
  });

  it('reads line 1 after a UTF-8 byte order mark', async () => {
    const { status, answers } = await batch([`\uFEFF${JSON.stringify(FMA)}`, JSON.stringify(FMA)]);
    expect(status).toBe(0);
    expect(answers.map((a) => a.ok)).toEqual([true, true]);
  });

  it('reads an operand that is not 0x/0b bits as a value, rounded to the operand, in every lane', async () => {
    expect(await one({ id: 1, instr: 'add.f16', a: '1.5', b: '2' })).toEqual({
      id: 1,
      ok: true,
      d: '0x4300', // 3.5
    });
    // -0.1 rounds to 0xae66 in each lane; 1e-3 to 0x1419: what `0x…` bits would give.
    const values = await one({ id: 2, instr: 'mul.f16x2', a: '-0.1', b: '1e-3' });
    const bits = await one({ id: 2, instr: 'mul.f16x2', a: '0xae66ae66', b: '0x14191419' });
    expect(values).toEqual(bits);
  });

  it('accepts upper-case hex, fewer digits than the width, and CRLF line ends', async () => {
    const { answers } = await batch([
      `${JSON.stringify({ id: 'crlf', instr: 'add.f16', a: '0X3C00', b: '0x0' })}\r`,
    ]);
    expect(answers).toEqual([{ id: 'crlf', ok: true, d: '0x3c00' }]);
  });

  it('gives the fast path and the traced path the same d, and steps per lane when trace is true', async () => {
    const form = 'fma.rn.sat.f16x2';
    const fast = compileFast(form);
    for (const [a, b, c] of [
      [0x3c00bc00, 0x40007bff, 0x0001fc00],
      [0x7e00_3555, 0x8001_0400, 0x3c00_3c00],
    ] as const) {
      const hex = (x: number) => `0x${x.toString(16).padStart(8, '0')}`;
      const plain = await one({ id: 0, instr: form, a: hex(a), b: hex(b), c: hex(c) });
      const traced = await one({
        id: 0,
        instr: form,
        a: hex(a),
        b: hex(b),
        c: hex(c),
        trace: true,
      });
      expect(plain.d).toBe(hex(fast.words!(a, b, c)));
      expect(traced.d).toBe(plain.d);
      const registers = { a: BigInt(a), b: BigInt(b), c: BigInt(c) };
      expect(traced.steps).toEqual(
        JSON.parse(JSON.stringify(evaluate(form, registers).elements.map((e) => e.steps))),
      );
      expect(traced.steps).toHaveLength(2);
    }
    expect((await one({ ...FMA, trace: false })).steps).toBeUndefined();
  });

  it('evaluates oob marks: .oob lanes give +0, other forms see a NaN, marked operands may be left out', async () => {
    expect(
      await one({
        id: 1,
        instr: 'fma.rn.oob.f16',
        a: '0x3c00',
        b: '0x3c00',
        c: '0x3c00',
        oob: ['b'],
      }),
    ).toEqual({ id: 1, ok: true, d: '0x0000' });
    expect(
      await one({
        id: 2,
        instr: 'fma.rn.oob.relu.bf16x2',
        a: '0x3c003c00',
        c: '0x3c003c00',
        oob: ['b'],
      }),
    ).toEqual({ id: 2, ok: true, d: '0x00000000' });
    expect(
      await one({ id: 3, instr: 'fma.rn.oob.f16', a: '0x3c00', b: '0x3c00', c: '0x3c00', oob: [] }),
    ).toEqual({ id: 3, ok: true, d: '0x4000' });
    // Without .oob the OOB-NaN is just a NaN operand: canonical NaN out.
    expect(await one({ id: 4, instr: 'add.f16', a: '0x3c00', oob: ['b'] })).toEqual({
      id: 4,
      ok: true,
      d: '0x7fff',
    });
    const traced = await one({
      id: 5,
      instr: 'fma.rn.oob.f16',
      a: '0x3c00',
      b: '0x3c00',
      c: '0x3c00',
      oob: ['a'],
      trace: true,
    });
    expect(traced.d).toBe('0x0000');
    expect(JSON.stringify(traced.steps)).toContain(
      '"kind":"oob-check","oobOperands":["a"],"forcesZero":true',
    );
  });
});

describe('ptxf batch: ids', () => {
  it('echoes ids of every JSON type, and null when absent', async () => {
    const ids: unknown[] = [
      0,
      -1.5,
      1e300,
      'x',
      '',
      'ünïcødé \u2028 "q"',
      true,
      false,
      null,
      [],
      [1, [2]],
      {},
      { a: { b: [null] } },
    ];
    const { answers } = await batch([
      ...ids.map((id) => JSON.stringify({ ...FMA, id })),
      JSON.stringify({ instr: FMA.instr, a: FMA.a, b: FMA.b, c: FMA.c }),
    ]);
    expect(answers.map((a) => a.id)).toEqual([...ids, null]);
    expect(answers.every((a) => a.ok && a.d === '0x4280')).toBe(true);
  });

  it('echoes the id on errors after the line parsed as an object', async () => {
    expect(await one({ id: { k: 'v' }, instr: 'nope.f16', a: '0x0', b: '0x0' })).toMatchObject({
      id: { k: 'v' },
      ok: false,
      error: { code: 'syntax' },
    });
  });
});

describe('ptxf batch: every error code', () => {
  const cases: [string, Record<string, unknown> | string, string, RegExp][] = [
    ['not JSON', 'garbage', 'json', /not valid JSON/],
    ['truncated JSON', '{"id": 1, "instr": "add.f16"', 'json', /not valid JSON/],
    ['a JSON array', '[1, 2]', 'json', /expected a JSON object, found an array/],
    ['a JSON string', '"add.f16"', 'json', /found a string/],
    ['JSON null', 'null', 'json', /found null/],
    ['a blank line', '   ', 'json', /empty line/],
    ['an unknown field', { ...FMA, trcae: true }, 'json', /unknown field "trcae"/],
    ['trace not a boolean', { ...FMA, trace: 'yes' }, 'json', /"trace" must be true or false/],
    ['a bad opcode', { ...FMA, instr: 'fmaa.rn.f16' }, 'syntax', /unknown opcode 'fmaa'/],
    [
      'a modifier inside the mixed type',
      { ...FMA, instr: 'fma.rn.f32.sat.f16' },
      'syntax',
      /\.f32 must be followed directly by the source type/,
    ],
    ['a missing instr', { id: 1, a: '0x0' }, 'syntax', /missing "instr"/],
    [
      'instr not a string',
      { ...FMA, instr: 42 },
      'syntax',
      /"instr" must be a string, found a number/,
    ],
    ['an unknown target', { ...FMA, target: 'sm_91' }, 'target', /unknown target 'sm_91'/],
    ['target not a string', { ...FMA, target: 90 }, 'target', /"target" must be a string/],
    [
      'a form invalid for the target',
      { id: 1, instr: 'add.bf16', a: '0x0', b: '0x0', target: 'sm_80' },
      'target',
      /requires sm_90 or higher; target is sm_80/,
    ],
    [
      'an unknown PTX ISA version',
      { ...FMA, ptx: '9.9' },
      'ptx-version',
      /unknown PTX ISA version '9.9'/,
    ],
    ['ptx not a string', { ...FMA, ptx: 8.6 }, 'ptx-version', /"ptx" must be a string/],
    [
      'a PTX ISA version too old for the form',
      { id: 1, instr: 'fma.rn.oob.f16', a: '0x0', b: '0x0', c: '0x0', target: 'sm_90', ptx: '8.0' },
      'ptx-version',
      /requires PTX ISA 8\.1/,
    ],
    ['a missing operand', { id: 1, instr: 'add.f16', a: '0x3c00' }, 'operand', /missing operand b/],
    [
      'an operand the form does not take',
      { id: 1, instr: 'add.f32.f16', a: '0x3c00', b: '0x3c00', target: 'sm_100' },
      'operand',
      /takes operands a, c; "b"/,
    ],
    [
      'c on a two-operand form',
      { id: 1, instr: 'add.f16', a: '0x0', b: '0x0', c: '0x0' },
      'operand',
      /"c" is not one of them/,
    ],
    ['the destination given', { ...FMA, d: '0x0' }, 'operand', /"d" is the destination/],
    // ('3e00' would be the value 3: a decimal with an exponent.)
    ['an operand without 0x', { ...FMA, a: '3c00' }, 'operand', /take the 0x prefix \(0x3c00\)/],
    [
      'a malformed operand',
      { ...FMA, a: '0xzz' },
      'operand',
      /0x must be followed by hexadecimal digits/,
    ],
    [
      'a 32-bit operand on a 16-bit register',
      { ...FMA, a: '0x00003e00' },
      'operand',
      /the register is 16 bits \(at most 4 hex digits\)/,
    ],
    [
      'a 9-digit operand on a 32-bit register',
      { id: 1, instr: 'add.f16x2', a: '0x100000000', b: '0x0' },
      'operand',
      /the register is 32 bits/,
    ],
    ['an operand as a JSON number', { ...FMA, a: 15872 }, 'operand', /must be a string such as/],
    ['oob not an array', { ...FMA, oob: 'b' }, 'operand', /"oob" must be an array/],
    ['oob naming a non-operand', { ...FMA, oob: ['d'] }, 'operand', /oob names "d"/],
    ['oob naming an operand twice', { ...FMA, oob: ['a', 'a'] }, 'operand', /twice/],
    [
      'oob on a .f32 register',
      { id: 1, instr: 'add.rn.f32.f16', a: '0x3c00', c: '0x0', oob: ['c'], target: 'sm_100' },
      'operand',
      /only 16-bit/,
    ],
  ];
  for (const [what, request, code, message] of cases) {
    it(`answers ${what} with code ${code}`, async () => {
      const { status, answers } = await batch([
        typeof request === 'string' ? request : JSON.stringify(request),
        JSON.stringify(FMA),
      ]);
      expect(status).toBe(1);
      expect(answers[0]).toMatchObject({ ok: false, error: { code } });
      expect(answers[0]!.error!.message).toMatch(/^line 1: /);
      expect(answers[0]!.error!.message).toMatch(message);
      // The id is echoed whenever the line parsed as an object.
      expect(answers[0]!.id).toEqual(typeof request === 'string' ? null : (request.id ?? null));
      // A bad line never stops the batch.
      expect(answers[1]).toEqual({ id: 1, ok: true, d: '0x4280' });
    });
  }

  it('uses only the documented codes in error objects with exactly code and message', async () => {
    const { answers } = await batch(
      cases.map(([, r]) => (typeof r === 'string' ? r : JSON.stringify(r))),
    );
    for (const a of answers) {
      expect(Object.keys(a)).toEqual(['id', 'ok', 'error']);
      expect(Object.keys(a.error!)).toEqual(['code', 'message']);
      expect(['json', 'syntax', 'target', 'ptx-version', 'operand']).toContain(a.error!.code);
    }
  });
});

describe('ptxf batch: streaming', () => {
  it('keeps order and numbers lines from 1, counting blank lines', async () => {
    const lines = [
      '{"id":"a","instr":"add.f16","a":"0x3c00","b":"0x3c00"}',
      '',
      'x',
      '{"id":"d","instr":"neg.f16","a":"0x3c00"}',
    ];
    const { status, answers } = await batch(lines);
    expect(status).toBe(1);
    expect(answers.map((a) => a.id)).toEqual(['a', null, null, 'd']);
    expect(answers[1]!.error!.message).toMatch(/^line 2: /);
    expect(answers[2]!.error!.message).toMatch(/^line 3: /);
    expect(answers[3]).toEqual({ id: 'd', ok: true, d: '0xbc00' });
  });

  it('exits 0 when every line is ok, and answers an empty input with nothing', async () => {
    expect((await batch([JSON.stringify(FMA), JSON.stringify(FMA)])).status).toBe(0);
    const io = captureIO();
    expect(await runBatch(Readable.from([]), io)).toBe(0);
    expect(io.stdout).toEqual([]);
  });

  it('answers a last line without a newline', async () => {
    const io = captureIO();
    await runBatch(
      Readable.from([`${JSON.stringify(FMA)}\n${JSON.stringify({ ...FMA, id: 2 })}`]),
      io,
    );
    expect(io.stdout.map((l) => (JSON.parse(l) as Answer).id)).toEqual([1, 2]);
  });

  it('splits lines across chunk boundaries, including inside multi-byte UTF-8 characters', async () => {
    const text =
      [JSON.stringify({ ...FMA, id: 'ü€𝄞' }), 'x', JSON.stringify({ ...FMA, id: '日本' })].join(
        '\n',
      ) + '\n';
    const bytes = Buffer.from(text, 'utf8');
    const chunks = [...bytes].map((b) => Uint8Array.of(b)); // one byte per chunk
    const io = captureIO();
    await runBatch(Readable.from(chunks), io);
    expect(io.stdout.map((l) => (JSON.parse(l) as Answer).id)).toEqual(['ü€𝄞', null, '日本']);
  });

  it('answers a line longer than the limit with a json error without holding it, then goes on', async () => {
    const huge = 'x'.repeat(1024 * 1024);
    async function* input() {
      yield '{"id":"big","instr":"';
      for (let sent = 0; sent <= MAX_LINE_CHARS; sent += huge.length) yield huge;
      yield '"}\n';
      yield `${JSON.stringify(FMA)}\n`;
    }
    const io = captureIO();
    expect(await runBatch(input(), io)).toBe(1);
    const answers = io.stdout.map((l) => JSON.parse(l) as Answer);
    expect(answers[0]).toMatchObject({ id: null, ok: false, error: { code: 'json' } });
    expect(answers[0]!.error!.message).toMatch(/^line 1: line longer than/);
    expect(answers[1]).toEqual({ id: 1, ok: true, d: '0x4280' });
  });

  it('waits for a slow output stream (backpressure) and loses nothing', async () => {
    const received: string[] = [];
    let maxQueued = 0;
    const slow = new Writable({
      highWaterMark: 1024,
      write(chunk: Buffer, _enc, done) {
        received.push(chunk.toString());
        maxQueued = Math.max(maxQueued, slow.writableLength);
        setTimeout(done, 1);
      },
    });
    const n = 20_000; // about 800 KB of answers
    async function* input() {
      for (let i = 0; i < n; i++) yield `${JSON.stringify({ ...FMA, id: i })}\n`;
    }
    const summary = await runBatchSummary(input(), streamSink(slow));
    expect(summary).toEqual({ lines: n, failed: 0, stoppedEarly: false });
    const ids = received
      .join('')
      .trimEnd()
      .split('\n')
      .map((l) => (JSON.parse(l) as Answer).id);
    expect(ids).toEqual(Array.from({ length: n }, (_, i) => i));
    // Ignoring 'drain' would queue nearly all 800 KB in the stream; waiting keeps one chunk there.
    expect(maxQueued).toBeLessThan(100_000);
  });

  it('stops reading and ends quietly when the reader goes away (EPIPE)', async () => {
    let written = 0;
    const closing = new Writable({
      write(_chunk, _enc, done) {
        written++;
        const epipe = Object.assign(new Error('write EPIPE'), { code: 'EPIPE' });
        done(epipe);
      },
    });
    let produced = 0;
    async function* endless() {
      for (;;) {
        produced++;
        yield `${JSON.stringify(FMA)}\n`;
      }
    }
    const summary = await runBatchSummary(endless(), streamSink(closing));
    expect(summary.stoppedEarly).toBe(true);
    expect(summary.failed).toBe(0);
    expect(written).toBe(1);
    expect(produced).toBeLessThan(10_000);
  });

  it('does not write to a sink that is already closed', async () => {
    const writes: string[] = [];
    const sink: BatchSink = { closed: true, write: (t) => void writes.push(t) };
    const summary = await runBatchSummary(Readable.from([`${JSON.stringify(FMA)}\n`]), sink);
    expect(summary.stoppedEarly).toBe(true);
    expect(writes).toEqual([]);
  });

  it('keeps the live heap constant over 200,000 lines', async () => {
    // Expose V8's collector to this test so live memory can be measured exactly, not RSS.
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const padding = 'p'.repeat(400); // a retained line or answer would cost 400+ bytes
    const heapAt: number[] = [];
    async function* input() {
      for (let i = 0; i < 200_000; i++) {
        if (i === 20_000) {
          gc();
          heapAt.push(process.memoryUsage().heapUsed);
        }
        yield `${JSON.stringify({ ...FMA, id: `${padding}${i}` })}\n`;
      }
    }
    let answers = 0;
    const sink: BatchSink = {
      closed: false,
      write: (t) => void (answers += t.split('\n').length - 1),
    };
    const summary = await runBatchSummary(input(), sink);
    gc();
    heapAt.push(process.memoryUsage().heapUsed);
    expect(summary).toEqual({ lines: 200_000, failed: 0, stoppedEarly: false });
    expect(answers).toBe(200_000);
    // 180,000 more lines: holding them would add 70+ MB; a constant-memory batch adds ~nothing.
    expect(heapAt[1]! - heapAt[0]!).toBeLessThan(4 * 1024 * 1024);
  });
});
