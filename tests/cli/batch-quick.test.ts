/**
 * The quick answers of `ptxf batch` (batch-quick.ts) against the full path, on every catalog
 * form: a line whose operands are plain register bits is answered quickly, the same line with
 * each operand written with a leading space takes the full path (the operand rule trims it), and
 * the two answers must be the same text. Also: answers read long after their lines, groups larger
 * than one evaluation, and an engine exception.
 */
import { describe, expect, it } from 'vitest';
import { findForm, FORMS } from '../../src/catalog/all-forms.ts';
import { NEWEST_TARGET } from '../../src/catalog/targets.ts';
import { BatchCaches, errorLine, processBatchLine } from '../../src/cli/batch-line.ts';
import { QuickAnswer, QuickShape } from '../../src/cli/batch-quick.ts';

interface Shape {
  readonly instr: string;
  readonly target?: string;
  readonly sources: readonly { name: string; bits: number }[];
  /** The destination register's width. */
  readonly width?: number;
}

const shapes: Shape[] = [
  ...FORMS.filter((f) => f.opcode !== 'cvt').map((f) => ({
    instr: f.text,
    sources: f.registers.slice(1),
  })),
  ...FORMS.filter((f) => f.opcode === 'cvt').map((f) => ({
    instr: f.text,
    sources: f.registers.slice(1),
    width: f.registers[0]!.bits,
  })),
  // On sm_90 tanh and ex2 give the H100's measured results.
  ...FORMS.filter((f) => f.opcode === 'tanh' || f.opcode === 'ex2').map((f) => ({
    instr: f.text,
    target: 'sm_90',
    sources: f.registers.slice(1),
  })),
];

/** A line of the shape with random registers; `pad` writes each operand after a space. */
function line(shape: Shape, words: Uint32Array, at: number, id: unknown, pad: boolean): string {
  const fields: Record<string, unknown> = { id, instr: shape.instr };
  // The newest target has every form but the cvt.rs ones (sm_100a, sm_103a) unless one is named.
  fields.target = shape.target ?? NEWEST_TARGET;
  shape.sources.forEach(({ name, bits }, k) => {
    const word = bits >= 32 ? words[at + k]! : words[at + k]! >>> (32 - bits);
    const digits = word.toString(16).padStart(Math.ceil(Math.min(bits, 32) / 4), '0');
    // A 64-bit register (.f64): the word twice.
    const hex = `0x${bits > 32 ? digits + digits : digits}`;
    fields[name] = pad ? ` ${hex}` : hex;
  });
  return JSON.stringify(fields);
}

const VECTORS = 24;

/** `count` deterministic 32-bit words (a linear congruential sequence from `seed`). */
function words32(count: number, seed: number): Uint32Array {
  const out = new Uint32Array(count);
  let x = seed >>> 0;
  for (let i = 0; i < count; i++) {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    out[i] = x;
  }
  return out;
}

describe('quick answers of ptxf batch', () => {
  it('cover the forms whose registers are plain bits, and answer as the full path does', () => {
    const words = words32(VECTORS * 8, 0x51f15eed);
    const quickCaches = new BatchCaches();
    const fullCaches = new BatchCaches();
    let quick = 0;
    let lineNo = 0;
    for (const shape of shapes) {
      const widths = [shape.width ?? 32, ...shape.sources.map((s) => s.bits)];
      const plain = widths.every((bits) => bits <= 32 && bits % 4 === 0);
      for (let v = 0; v < VECTORS; v++) {
        const id = v % 3 === 0 ? `s${v}` : v;
        lineNo++;
        const a = processBatchLine(line(shape, words, 8 * v, id, false), lineNo, quickCaches);
        const b = processBatchLine(line(shape, words, 8 * v, id, true), lineNo, fullCaches);
        expect(b).not.toBeInstanceOf(QuickAnswer);
        if (a instanceof QuickAnswer) quick++;
        else expect(plain && b.ok, `${shape.instr}: valid, plain, not quick`).toBe(false);
        expect(a.json, shape.instr).toBe(b.json);
        expect(a.ok).toBe(b.ok);
      }
    }
    // All but the .f64 cvt forms and those the newest target lacks (cvt.rs: sm_100a, sm_103a).
    expect(quick).toBeGreaterThan(0.8 * shapes.length * VECTORS);
  });

  it('gives the same answers when many lines are read only at the end', () => {
    const words = words32(20_000 * 3, 7);
    const forms = ['fma.rn.f16', 'add.rn.bf16x2', 'cvt.rn.satfinite.e4m3x2.f32', 'max.NaN.f16'];
    const texts = Array.from({ length: 20_000 }, (_, i) => {
      // One shape for the first 9,000 lines: more than one group's worth (4,096).
      const instr = i < 9000 ? forms[0]! : forms[i % 4]!;
      return line({ instr, sources: sourcesOf(instr) }, words, 3 * i, i, false);
    });
    const late = new BatchCaches();
    const answers = texts.map((t, i) => processBatchLine(t, i + 1, late));
    const eager = new BatchCaches();
    const expected = texts.map((t, i) => processBatchLine(t, i + 1, eager).json);
    expect(answers.every((a) => a instanceof QuickAnswer)).toBe(true);
    expect(answers.map((a) => a.json)).toEqual(expected);
  });

  it('reports an exception inside the engine on each of its lines, as the full path does', () => {
    const shape = new QuickShape({
      sources: [{ name: 'a', bits: 16 }],
      width: 16,
      evaluate: () => {
        throw new Error('planted');
      },
    });
    const answer = shape.answer({ id: 5, instr: 'x', a: '0x3c00' }, 5, 12)!;
    expect(answer.ok).toBe(false);
    expect(answer.json).toBe(errorLine(5, 'internal', 12, 'engine failure: planted').json);
  });
});

function sourcesOf(instr: string): Shape['sources'] {
  return findForm(instr)!.registers.slice(1);
}
