/**
 * The traces that said untrue things (overflow, underflow, .ftz, zero products, NaN citations,
 * directions, long decimals, min/max words), each pinned by the command that showed it: the
 * pipeline's trace data, and what `ptxf eval` prints. The trace checker
 * (tests/trace-check*.test.ts) holds every field of these and many more to exact arithmetic.
 */
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { captureIO } from '../src/cli/io.ts';
import { main } from '../src/cli/main.ts';
import { evaluate, type Registers } from '../src/engine/pipeline.ts';
import type { Step } from '../src/engine/steps.ts';

async function ptxf(...argv: string[]): Promise<string> {
  const io = captureIO();
  const status = await main(argv, { io, stdin: Readable.from([]) });
  expect(status, io.stderr.join('\n')).toBe(0);
  return io.stdout.join('\n');
}

function steps(form: string, input: Registers, element = 0): Step[] {
  return [...evaluate(form, input).elements[element]!.steps];
}

/** A value's view, by its bits alone. */
const bits = (hex: string) => ({ bits: hex });

function step<K extends Step['kind']>(all: Step[], kind: K): Step & { kind: K } {
  const found = all.find((s) => s.kind === kind);
  if (!found) throw new Error(`no ${kind} step in ${all.map((s) => s.kind).join(', ')}`);
  return found as Step & { kind: K };
}

describe('1. an exact value past the largest finite value', () => {
  it('add.rn.f16 0x7bff 0x5000: 65536 is not an f16: inexact, upward, neighbours 0x7bff / 0x7c00', async () => {
    const round = step(steps('add.rn.f16', { a: 0x7bffn, b: 0x5000n }), 'round');
    expect(round).toMatchObject({
      inexact: true,
      direction: 'up',
      magnitude: 'larger',
      reason: 'overflow-threshold',
      lower: '0x7bff',
      upper: '0x7c00',
      // Past MAX_NORM the rounding gives no value of the format: the overflow step's is +inf.
      result: null,
    });
    expect(step(steps('add.rn.f16', { a: 0x7bffn, b: 0x5000n }), 'overflow')).toMatchObject({
      to: 'infinity',
      result: bits('0x7c00'),
    });
    // No bits with an exponent f16 lacks.
    expect(round.cut).toBeUndefined();
    const text = await ptxf('eval', 'add.rn.f16', '0x7bff', '0x5000');
    expect(text).not.toMatch(/× 2\^6|exact, nothing to round/);
    expect(text).toMatch(
      /between 65504 \(f16 0x7bff\) and \+inf \(f16 0x7c00\)\n.*rounded up \(larger magnitude\), inexact/,
    );
  });

  it('mul.rn.f16 0x7bff 0x4fb7 went up to +inf; sub.rn.f16 0xfbff 0x6b19 down to -inf', () => {
    expect(step(steps('mul.rn.f16', { a: 0x7bffn, b: 0x4fb7n }), 'round')).toMatchObject({
      direction: 'up',
      upper: '0x7c00',
    });
    expect(step(steps('mul.rn.f16', { a: 0x7bffn, b: 0x4fb7n }), 'overflow').result).toMatchObject(
      bits('0x7c00'),
    );
    expect(step(steps('sub.rn.f16', { a: 0xfbffn, b: 0x6b19n }), 'round')).toMatchObject({
      direction: 'down',
      magnitude: 'larger',
      lower: '0xfc00',
      upper: '0xfbff',
      result: null,
    });
    expect(step(steps('sub.rn.f16', { a: 0xfbffn, b: 0x6b19n }), 'overflow').result).toMatchObject(
      bits('0xfc00'),
    );
  });

  it('add.rz.f32.bf16 0x7f00 0x7f000000: 2^128 clamped to the largest finite value is inexact', async () => {
    const all = steps('add.rz.f32.bf16', { a: 0x7f00n, c: 0x7f000000n });
    expect(step(all, 'round')).toMatchObject({
      inexact: true,
      direction: 'down',
      magnitude: 'smaller',
      reason: 'toward-zero',
      lower: '0x7f7fffff',
      upper: '0x7f800000',
      result: null,
    });
    expect(step(all, 'overflow')).toMatchObject({ to: 'max-norm', result: bits('0x7f7fffff') });
  });

  it('no trace says "representable, nothing to round" and then "overflow"', () => {
    for (const [form, a, b] of [
      ['add.rn.f16', 0x7bffn, 0x5000n],
      ['add.rz.f32.bf16', 0x7f00n, 0x7f000000n],
      ['add.rp.f32.bf16', 0x7f00n, 0x7f000000n],
      ['mul.rn.bf16', 0x7f00n, 0x4000n],
    ] as const) {
      const input = form.includes('f32') ? { a, c: b } : { a, b };
      const all = steps(form, input);
      expect(
        all.some((s) => s.kind === 'overflow'),
        form,
      ).toBe(true);
      expect(step(all, 'round').reason, form).not.toBe('exact');
    }
  });
});

describe('2. tiny results are reported, with both readings', () => {
  it('mul.f16 0x0fff 0x3000 rounds up to the smallest normal: tiny before and after, inexact', async () => {
    expect(step(steps('mul.f16', { a: 0x0fffn, b: 0x3000n }), 'tininess')).toMatchObject({
      result: bits('0x0400'),
      tinyBeforeRounding: true,
      tinyAfterRounding: true,
      inexact: true,
    });
    expect(await ptxf('eval', 'mul.f16', '0x0fff', '0x3000')).toMatch(
      /Tiny before rounding: yes; after rounding \(to 11 significant bits with an unbounded exponent\): yes\n {6}inexact: underflow, whichever way tininess is judged/,
    );
  });

  it('fma.rn.f16 0x0800 0x8800 0x0400: tiny before rounding only', () => {
    expect(
      step(steps('fma.rn.f16', { a: 0x0800n, b: 0x8800n, c: 0x0400n }), 'tininess'),
    ).toMatchObject({
      result: bits('0x0400'),
      tinyBeforeRounding: true,
      tinyAfterRounding: false,
      inexact: true,
    });
  });

  it('an exact subnormal result is tiny, and exact: no underflow', () => {
    expect(step(steps('mul.f16', { a: 0x0200n, b: 0x3800n }), 'tininess')).toMatchObject({
      tinyAfterRounding: true,
      inexact: false,
    });
  });
});

describe('3. .ftz says which reading decided, and never contradicts itself', () => {
  it('mul.ftz.f16 0x3bff 0x0400: tiny after rounding too (11 significant bits, unbounded exponent)', async () => {
    const result = evaluate('mul.ftz.f16', { a: 0x3bffn, b: 0x0400n });
    expect(result.d).toBe('0x0000');
    expect(result.decisions).toContain('ftz-after-rounding');
    expect(step([...result.elements[0]!.steps], 'flush-result')).toMatchObject({
      before: bits('0x0400'),
      after: bits('0x0000'),
      tininess: 'after-rounding',
      tinyBeforeRounding: true,
      tinyAfterRounding: true,
    });
    const text = await ptxf(
      'eval',
      'mul.ftz.f16',
      '0x3bff',
      '0x0400',
      '--ftz-tininess',
      'before-rounding',
    );
    expect(text).toMatch(
      /tininess judged before rounding: tiny \(after rounding it is tiny\)\n {6}6\.103515625e-5 \(f16 0x0400\) is flushed to a zero of its sign/,
    );
    expect(text).not.toMatch(/flush subnormal result/);
  });

  it('fma.rn.ftz.f16 0x0400 0x8400 0x0400: kept after rounding, flushed before', async () => {
    const after = await ptxf('eval', 'fma.rn.ftz.f16', '0x0400', '0x8400', '0x0400');
    expect(after).toMatch(
      /tininess judged after rounding: not tiny \(before rounding it is tiny\)\n {6}kept/,
    );
    const before = await ptxf(
      'eval',
      'fma.rn.ftz.f16',
      '0x0400',
      '0x8400',
      '0x0400',
      '--ftz-tininess',
      'before-rounding',
    );
    expect(before).toMatch(
      /tininess judged before rounding: tiny \(after rounding it is not tiny\)\n.* is flushed to a zero of its sign/,
    );
  });

  it('a tiny result that rounded to zero still shows the .ftz decision', () => {
    // 2^-14 × 2^-12 = 2^-26: below half the smallest subnormal, rounds to +0.
    expect(step(steps('mul.ftz.f16', { a: 0x0400n, b: 0x0c00n }), 'flush-result')).toMatchObject({
      before: bits('0x0000'),
      after: bits('0x0000'),
      tinyAfterRounding: true,
    });
  });
});

describe('4. a zero product takes the sign rule for products', () => {
  it('mul.f16 0x8000 0x3c00', async () => {
    const all = steps('mul.f16', { a: 0x8000n, b: 0x3c00n });
    expect(step(all, 'exact').value.decimal).toBe('0');
    const zero = step(all, 'special');
    expect(zero).toMatchObject({ case: 'exact-zero', result: bits('0x8000') });
    expect(zero.rule).toMatchObject({ source: 'ieee-754', section: '6.3' });
    expect(zero.rule.text).toMatch(/product.*exclusive or/);
    const text = await ptxf('eval', 'mul.f16', '0x8000', '0x3c00');
    // The word, not the "summary:" label.
    expect(text).not.toMatch(/\bsum\b/);
    expect(text).toMatch(/^ {3}2\. Exact value: a × b = 0 — a value of f16$/m);
  });
});

describe('5. the approximate forms say the exact function value and the right reason', () => {
  it('ptxf eval prints the exact value, never "Infinity" or a zero for 2^x', async () => {
    const overflow = await ptxf('eval', 'ex2.approx.f16', '0x7bff');
    expect(overflow).toMatch(/2\^x = 2\^65504/);
    expect(overflow).not.toMatch(/Infinity/);
    const tiny = await ptxf('eval', 'ex2.approx.f16', '0xe433');
    expect(tiny).toMatch(/2\^x = 2\^-1075/);
    expect(tiny).toMatch(/below the smallest f16 subnormal/);
    expect(await ptxf('eval', 'ex2.approx.ftz.bf16', '0xc302')).toMatch(
      /\.ftz writes no subnormal result/,
    );
    expect(await ptxf('eval', 'tanh.approx.bf16', '0x0001')).toMatch(
      /30,465 values qualify, from -0\.0038909912109375 \(bf16 0xbb7f\) to 0\.00390625 \(bf16 0x3b80\)/,
    );
  });
});

describe('6. smaller ones', () => {
  it('add.f32.f16 0x7e01 0x3f800000: IEEE 754 for the NaN, and the conversion loses the payload', async () => {
    const all = steps('add.f32.f16', { a: 0x7e01n, c: 0x3f800000n });
    expect(step(all, 'convert')).toMatchObject({ exact: false, after: bits('0x7fffffff') });
    expect(step(all, 'special').rule).toMatchObject({ source: 'ieee-754', section: '6.2' });
    expect(step(all, 'special').rule.text).not.toMatch(/Half-precision/);
    const text = await ptxf('eval', 'add.f32.f16', '0x7e01', '0x3f800000');
    expect(text).toMatch(/its payload is not kept/);
    expect(text).not.toMatch(/convert a to f32, exactly/);
    expect(text).toMatch(/IEEE 754 §6\.2: /);
  });

  it('a half-precision NaN cites the chapter that says "unspecified NaN"', () => {
    expect(step(steps('add.f16', { a: 0x7e00n, b: 0x3c00n }), 'special').rule).toMatchObject({
      source: 'ptx',
      section: '9.7.4',
      text: 'Half-precision instructions return an unspecified NaN.',
    });
  });

  it('.oob decides first: the check comes right after the inputs', () => {
    expect(
      steps('fma.rn.oob.relu.f16', { a: 0x7ff7n, b: 0x7e00n, c: 0x3c00n }).map((s) => s.kind),
    ).toEqual(['inputs', 'oob-check', 'result']);
    expect(
      steps('fma.rn.oob.relu.f16', { a: 0x3c00n, b: 0x7e00n, c: 0x7ff7n }).map((s) => s.kind),
    ).toEqual(['inputs', 'oob-check', 'special', 'relu', 'result']);
  });

  it('-1 + 2^-26 rounds toward -inf, to the larger magnitude: both said', async () => {
    const round = step(
      steps('fma.rn.f32.f16', { a: 0xbc00n, b: 0x3c00n, c: 0x32800000n }),
      'round',
    );
    expect(round).toMatchObject({ direction: 'down', magnitude: 'larger', result: '0xbf800000' });
    expect(await ptxf('eval', 'fma.rn.f32.f16', '0xbc00', '0x3c00', '0x32800000')).toMatch(
      /rounded down \(larger magnitude\)/,
    );
  });

  it('an exact zero is printed once ("= 0"), not "= 0 = 0"', async () => {
    const text = await ptxf('eval', 'sub.f16', '0x3c00', '0x3c00');
    expect(text).toMatch(/Exact value: a - b = 0 — a value of f16$/m);
    expect(text).not.toMatch(/= 0 = 0/);
  });

  it('long decimals are shortened, every digit on request (--all-digits) and in --json', async () => {
    // 2^-133 × 2^-133 = 2^-266: 266 digits after the point.
    const args = ['eval', 'fma.rn.f32.bf16', '0x0001', '0x0001', '0x00000000'];
    const short = await ptxf(...args);
    // 2^-266 = 8.4337583545844185794…e-81 (Python's decimal module), 186 significant digits.
    expect(short).toMatch(
      /Exact value: convert\(a\) × convert\(b\) \+ c = 8\.4337583545844185…e-81 = 1b × 2\^-266/,
    );
    const all = await ptxf(...args, '--all-digits');
    expect(all).toMatch(/= 0\.0{80}8433758354584418579\d{167} = 1b × 2\^-266/);
    const json = JSON.parse(await ptxf(...args, '--json'));
    const exact = json.result.elements[0].steps.find((s: Step) => s.kind === 'exact');
    expect(exact.value.decimal).toHaveLength(268);
  });
});

describe('issue 14: min/max and scalar semantics in the steps', () => {
  it('min/max say what was compared and why the operand won; -0 < +0 only for zeros', async () => {
    const compare = step(steps('max.f16', { a: 0x3c00n, b: 0x4200n }), 'minmax');
    expect(compare).toMatchObject({
      comparison: { order: 'less', signedZeros: false },
      chosen: 'b',
      result: bits('0x4200'),
    });
    const text = await ptxf('eval', 'max.f16', '0x3c00', '0x4200');
    expect(text).toMatch(/a < b, so max is b/);
    expect(text).not.toMatch(/-0 < \+0/);
    const zeros = await ptxf('eval', 'min.f16', '0x0000', '0x8000');
    expect(zeros).toMatch(/the spec orders -0 < \+0: a > b, so min is b/);
    // Equal values: the pseudo-code takes b.
    expect(step(steps('min.f16', { a: 0x3c00n, b: 0x3c00n }), 'minmax')).toMatchObject({
      comparison: { order: 'equal' },
      chosen: 'b',
    });
  });

  it('a scalar form shows the scalar statement; an x2 form the x2 one', () => {
    expect(step(steps('add.f16', { a: 0x3c00n, b: 0x3c00n }), 'exact').rule.text).toBe(
      'd = a + b;',
    );
    expect(step(steps('add.f16x2', { a: 0x3c00n, b: 0x3c00n }), 'exact').rule.text).toBe(
      'd[i] = fA[i] + fB[i] for i = 0, 1',
    );
    expect(step(steps('fma.rn.f16', { a: 0n, b: 0n, c: 0x3c00n }), 'exact').rule.text).toBe(
      'd = a * b + c;',
    );
  });
});
