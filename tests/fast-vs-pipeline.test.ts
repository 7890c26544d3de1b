/**
 * The fast path (src/engine/fast/: doubles, TwoSum and one rounding on numbers, tables, the
 * binary32 kernels) and the pipeline (src/engine/pipeline.ts: bigints, the one rounding, every
 * step traced) are two implementations of the same semantics; they must agree bit for bit on
 * every form, whether the fast path is called on bigint registers (evaluate), on registers held
 * as numbers (words) or over arrays (batch, whose one-lane arithmetic runs its own loop per
 * operation and format).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ALL_FORMS, FORMS } from '../src/catalog/all-forms.ts';
import type { Form, RegisterName } from '../src/catalog/instruction.ts';
import type { FormatName } from '../src/catalog/formats.ts';
import { compileFast } from '../src/engine/fast/index.ts';
import { evaluate } from '../src/engine/pipeline.ts';
import { interestingPatterns } from './support/patterns.ts';

type Words = { a: number; b?: number; c?: number };

/** The pipeline's d for a form's registers (those it lacks left out), as a number. */
function traced(form: Form, input: Words): number {
  const registers = Object.fromEntries(
    form.registers.slice(1).map((r) => [r.name, BigInt(input[r.name as 'a'] ?? 0)]),
  );
  return Number(BigInt(evaluate(form, registers).d));
}

const arithmetic = FORMS.filter((f) => f.family === 'half' || f.family === 'mixed');
const unary = arithmetic.filter((f) => f.registers.length === 2);
const multi = arithmetic.filter((f) => f.registers.length > 2);

/** The format of the elements a register holds, and how many it holds. */
function placesOf(form: Form, name: RegisterName): { format: FormatName; lanes: number } {
  const places = form.elements.flatMap((e) => e.inputs).filter((p) => p.operand === name);
  return { format: places[0]!.format, lanes: places.length };
}

function registerArb(form: Form, name: RegisterName) {
  const register = form.registers.find((r) => r.name === name)!;
  const { format, lanes } = placesOf(form, name);
  const lane = fc.oneof(
    {
      weight: 3,
      arbitrary: fc.constantFrom(...interestingPatterns(format as 'f16' | 'bf16' | 'f32')),
    },
    {
      weight: 2,
      arbitrary: fc.integer({ min: 0, max: 2 ** (lanes === 2 ? 16 : register.bits) - 1 }),
    },
  );
  return lanes === 2 ? fc.tuple(lane, lane).map(([lo, hi]) => lo + hi * 65536) : lane;
}

describe('fast path agrees with the pipeline', () => {
  it.each(unary.map((f) => [f.text, f] as const))('%s: all 65,536 lane inputs', (_text, form) => {
    const fast = compileFast(form).words!;
    const packed = form.elements.length === 2;
    for (let i = 0; i < 65536; i++) {
      // x2: lane 1 carries a different value so that lanes cannot be mixed up unnoticed.
      const a = packed ? i + ((i * 40503) & 0xffff) * 65536 : i;
      const d = traced(form, { a });
      if (d !== fast(a, 0, 0))
        expect.fail(
          `${form.text} a=0x${a.toString(16)}: pipeline 0x${d.toString(16)} fast 0x${fast(a, 0, 0).toString(16)}`,
        );
    }
  });

  it.each(multi.map((f) => [f.text, f] as const))('%s: random and edge vectors', (_text, form) => {
    const fast = compileFast(form).words!;
    const names = form.registers.slice(1).map((r) => r.name);
    const arb = fc.tuple(...names.map((n) => registerArb(form, n)));
    fc.assert(
      fc.property(arb, (values) => {
        const input = Object.fromEntries(names.map((n, i) => [n, values[i]!])) as Words;
        const f = fast(input.a, input.b ?? 0, input.c ?? 0);
        expect(f, JSON.stringify(input)).toBe(traced(form, input));
      }),
      { numRuns: 400, seed: 20261122 },
    );
  });

  it.each(multi.map((f) => [f.text, f] as const))(
    '%s: batch over edge and random vectors',
    (_text, form) => {
      const names = form.registers.slice(1).map((r) => r.name);
      const vectors = fc.sample(fc.tuple(...names.map((n) => registerArb(form, n))), {
        numRuns: 600,
        seed: 20261124,
      });
      const column = (k: number) =>
        Uint32Array.from(vectors, (v) => (k < names.length ? v[k]! : 0));
      const order = (['a', 'b', 'c'] as const).map((n) => names.indexOf(n));
      const [a, b, c] = order.map((k) => (k < 0 ? new Uint32Array(vectors.length) : column(k)));
      const out = new Uint32Array(vectors.length);
      compileFast(form).batch({ a: a!, b: b!, c: c! }, out, vectors.length);
      for (let i = 0; i < vectors.length; i++) {
        const input = { a: a![i]!, b: b![i]!, c: c![i]! };
        const d = traced(form, input);
        if (out[i] !== d)
          expect.fail(
            `${form.text} ${JSON.stringify(input)}: pipeline 0x${d.toString(16)} batch 0x${out[i]!.toString(16)}`,
          );
      }
    },
  );
});

/**
 * The batch's .rn forms round through binary32 (fast/nearest-binary32.ts): one double rounding, kept where it is
 * innocuous (add, sub, mul) and checked at ties where it is not (fma).
 */
describe('batch .rn forms: rounding through binary32', () => {
  // fround of the exact value lands on a midpoint the exact value lies just beside (the addend
  // is a hair below one unit of binary32's last place): tie-to-even of that midpoint would give
  // the neighbour above.
  it.each([
    ['fma.rn.f16', 0x3c01, 0x3e00, 0x8001, 0x3e01],
    ['fma.rn.bf16', 0x3f81, 0x3fc0, 0x8080, 0x3fc1],
    ['fma.rn.f16x2', 0x3c013c01, 0x3e003e00, 0x80018001, 0x3e013e01],
  ])('%s a=%#x b=%#x c=%#x gives %#x', (form, a, b, c, want) => {
    const out = new Uint32Array(1);
    compileFast(form).batch(
      { a: Uint32Array.of(a), b: Uint32Array.of(b), c: Uint32Array.of(c) },
      out,
      1,
    );
    expect(out[0]).toBe(want);
    expect(Number(BigInt(evaluate(form, { a: BigInt(a), b: BigInt(b), c: BigInt(c) }).d))).toBe(
      want,
    );
  });

  // Where double rounding is innocuous the tie of fround stands (Figueroa's theorem): every b
  // against a of every exponent, both signs, mantissas at either end and between.
  const MANTISSAS = { f16: [0, 1, 0x155, 0x3ff], bf16: [0, 1, 0x2a, 0x7f] };
  function aValues(form: string): number[] {
    const t = form.endsWith('bf16') ? 'bf16' : 'f16';
    const manBits = t === 'bf16' ? 7 : 10;
    const exponents = t === 'bf16' ? 256 : 32;
    // f16: every mantissa of the four at every exponent; bf16: one of them per exponent, in turn.
    return Array.from({ length: exponents }, (_, e) =>
      (t === 'bf16' ? [MANTISSAS.bf16[e % 4]!] : MANTISSAS.f16).map((m) => (e << manBits) | m),
    )
      .flat()
      .flatMap((v) => [v, v | 0x8000]);
  }
  it.each(['add.rn.f16', 'sub.rn.f16', 'mul.rn.f16', 'add.rn.bf16', 'sub.rn.bf16', 'mul.rn.bf16'])(
    '%s: a of every exponent against every b, batch against the exact path',
    (form) => {
      const exact = compileFast(form).words!;
      const { batch } = compileFast(form);
      const b = Uint32Array.from({ length: 65536 }, (_, i) => i);
      const c = new Uint32Array(65536);
      const out = new Uint32Array(65536);
      const as = aValues(form);
      let checked = 0;
      for (const av of as) {
        const a = new Uint32Array(65536).fill(av);
        batch({ a, b, c }, out, 65536);
        for (let i = 0; i < 65536; i++) {
          if (out[i] !== exact(av, i, 0))
            expect.fail(
              `${form} 0x${av.toString(16)} 0x${i.toString(16)}: batch 0x${out[i]!.toString(16)}, exact path 0x${exact(av, i, 0).toString(16)}`,
            );
        }
        checked += 65536;
      }
      expect(checked).toBe(as.length * 65536);
    },
  );
});

/** A batch's array of one register over the sets (fast/path.ts BatchRegisters). */
function batchArray(bits: number, column: readonly bigint[]): Uint32Array | Float64Array {
  if (bits === 64) return new Float64Array(BigUint64Array.from(column).buffer);
  if (bits <= 32) return Uint32Array.from(column, Number);
  // A matrix form's row or column: its 32-bit words, lowest first.
  const words = bits / 32;
  return Uint32Array.from({ length: column.length * words }, (_, j) =>
    Number((column[Math.floor(j / words)]! >> BigInt(32 * (j % words))) & 0xffffffffn),
  );
}

/**
 * Every form, the conversions and the matrix forms included: evaluate (bigint registers), words
 * (registers as numbers, where the form has them) and batch (register arrays; an .f64 register or
 * d as the bits of a Float64Array, a matrix form's row and column as 32-bit words) against the
 * pipeline on seeded random registers, all-zero and all-one registers first.
 */
describe('every form: evaluate, words and batch against the pipeline', () => {
  it.each(ALL_FORMS.map((f) => [f.text, f] as const))('%s', (_text, form) => {
    // A matrix form's pipeline traces k products per set: fewer sets, as many forms (498).
    const SETS = form.family === 'matrix' ? 12 : 48;
    let seed = [...form.text].reduce((h, ch) => (h * 31 + ch.charCodeAt(0)) >>> 0, 7);
    const word = () => {
      seed ^= seed << 13;
      seed ^= seed >>> 17;
      seed ^= seed << 5;
      return BigInt(seed >>> 0);
    };
    const sources = form.registers.slice(1);
    const random = (bits: number) => {
      let value = 0n;
      for (let w = 0; w < Math.max(2, bits / 32); w++) value = (value << 32n) | word();
      return value & ((1n << BigInt(bits)) - 1n);
    };
    const sets = Array.from({ length: SETS }, (_, k) =>
      Object.fromEntries(
        sources.map((r) => {
          const all = (1n << BigInt(r.bits)) - 1n;
          const bits = k === 0 ? 0n : k === 1 ? all : random(r.bits);
          return [r.name, bits];
        }),
      ),
    );
    const fast = compileFast(form);
    const wide = form.registers[0]!.bits === 64;
    const arrays = Object.fromEntries(
      sources.map((r) => {
        const column = sets.map((s) => s[r.name]!);
        return [r.name, batchArray(r.bits, column)];
      }),
    );
    const out = wide ? new Float64Array(SETS) : new Uint32Array(SETS);
    fast.batch(arrays, out, SETS);
    const batched = wide ? [...new BigUint64Array(out.buffer)] : [...out].map(BigInt);
    const wrong: string[] = [];
    sets.forEach((registers, i) => {
      const want = BigInt(evaluate(form, registers).d);
      const got = {
        evaluate: fast.evaluate(registers),
        batch: batched[i]!,
        ...(fast.words
          ? {
              words: BigInt(
                fast.words(
                  Number(registers.a ?? 0n),
                  Number(registers.b ?? 0n),
                  Number(registers.c ?? 0n),
                ),
              ),
            }
          : {}),
      };
      for (const [path, d] of Object.entries(got))
        if (d !== want)
          wrong.push(
            `${path} ${JSON.stringify(registers, (_, v: unknown) => (typeof v === 'bigint' ? `0x${v.toString(16)}` : v))}: 0x${d.toString(16)}, pipeline 0x${want.toString(16)}`,
          );
    });
    expect(wrong).toEqual([]);
  });
});

/**
 * cvt's NaN inputs: the result depends on the input's sign and payload on some forms (decision
 * cvt-nan, nvidia-rules cvtNaNKind), so every cvt form's evaluate, words and batch are held to
 * the pipeline on NaNs of either sign, quiet and signaling, with payloads at the top, the bottom
 * and in between of the mantissa, beside an infinity and a number (other elements of a register).
 */
describe('fast path agrees with the pipeline on cvt NaN inputs', () => {
  const convert = FORMS.filter((f) => f.family === 'convert');
  /** NaN patterns of a format of `exp` exponent and `man` mantissa bits, and two others. */
  const nans = (exp: number, man: number): bigint[] => {
    const top = ((1n << BigInt(exp)) - 1n) << BigInt(man);
    const sign = 1n << BigInt(exp + man);
    const payloads = [1n, 2n, 1n << BigInt(man - 1), (1n << BigInt(man)) - 1n, 0x5a5a5a5a5a5an];
    const mans = payloads.map((p) => p & ((1n << BigInt(man)) - 1n)).filter((p) => p !== 0n);
    return [...mans.flatMap((m) => [top | m, sign | top | m]), top, 1n];
  };
  const PATTERNS: Partial<Record<string, bigint[]>> = {
    f16: nans(5, 10),
    bf16: nans(8, 7),
    f32: [...nans(8, 23), 0x7f801fffn, 0x7f802000n, 0xff803fffn],
    f64: nans(11, 52),
    e4m3: [0x7fn, 0xffn, 0x01n],
    e5m2: [0x7dn, 0xfen, 0x7cn],
  };
  it.each(convert.map((f) => [f.text, f] as const))('%s', (_text, form) => {
    const fast = compileFast(form);
    const sources = form.registers.slice(1);
    // Each element's source patterns, placed in its register; other elements hold the first.
    const inputs: Record<string, bigint>[] = [];
    for (const e of form.elements) {
      const place = e.inputs[0]!;
      for (const p of PATTERNS[place.format] ?? []) {
        const regs: Record<string, bigint> = {};
        for (const r of sources) regs[r.name] = r.name === 'rbits' ? 0x12345678n : 0n;
        regs[place.operand] = (regs[place.operand] ?? 0n) | (p << BigInt(place.value.lo));
        inputs.push(regs);
      }
    }
    if (inputs.length === 0) return;
    const wide = form.registers[0]!.bits === 64;
    const out = wide ? new Float64Array(inputs.length) : new Uint32Array(inputs.length);
    const registers = Object.fromEntries(
      sources.map((r) => {
        const bits = inputs.map((regs) => regs[r.name]!);
        if (r.bits !== 64) return [r.name, Uint32Array.from(bits.map(Number))];
        const doubles = new Float64Array(bits.length);
        new BigUint64Array(doubles.buffer).set(bits);
        return [r.name, doubles];
      }),
    );
    fast.batch(registers, out, inputs.length);
    const outBits = wide ? new BigUint64Array(out.buffer) : out;
    inputs.forEach((regs, i) => {
      const want = BigInt(evaluate(form, regs).d);
      const words =
        fast.words && !wide && sources.every((r) => r.bits <= 32)
          ? BigInt(fast.words(Number(regs.a ?? 0n), Number(regs.b ?? 0n), 0))
          : want;
      expect([fast.evaluate(regs), BigInt(outBits[i]!), words]).toEqual([want, want, want]);
    });
  });
});
