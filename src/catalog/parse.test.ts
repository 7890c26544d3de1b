import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FORMS } from './forms.ts';
import { parseInstruction, type ParseResult, type SyntaxError } from './parse.ts';
import { OPCODES } from './types.ts';

/** The syntax error of a rejected input; fails the test when the input parsed. */
function errorOf(input: string): SyntaxError {
  const r = parseInstruction(input);
  if (r.ok)
    throw new Error(`expected a syntax error for ${JSON.stringify(input)}, got ${r.form.text}`);
  expect(r.error.code).toBe('syntax');
  return r.error;
}

/** The text the error points at. */
const marked = (input: string, e: SyntaxError) => input.slice(e.position, e.position + e.length);

describe('parseInstruction: valid input', () => {
  it('parses every catalog form by its own text', () => {
    for (const form of FORMS) {
      const r = parseInstruction(form.text);
      expect(r.ok && r.form).toBe(form);
    }
  });

  it('parses whole lines with operands, a guard and a trailing comment', () => {
    const r = parseInstruction('  @%p1 fma.rn.relu.bf16x2 %r1, %r2, %r3, %r4; // relu');
    expect(r.ok).toBe(true);
    if (r.ok) {
      expect(r.form.text).toBe('fma.rn.relu.bf16x2');
      expect(r.operands).toEqual(['%r1', '%r2', '%r3', '%r4']);
    }
    const mixed = parseInstruction('add.rz.f32.bf16 d, a, c;');
    expect(mixed.ok && mixed.operands).toEqual(['d', 'a', 'c']);
  });

  it('gives null operands for an instruction without them', () => {
    const r = parseInstruction('min.xorsign.abs.f16');
    expect(r.ok && r.operands).toBeNull();
  });
});

describe('parseInstruction: every bad input class gets a precise syntax error', () => {
  it('empty string and white space only: expected an opcode, at the end', () => {
    for (const input of ['', '   ', '\t\n']) {
      const e = errorOf(input);
      expect(e.position).toBe(input.length);
      expect(e.expected).toEqual([...OPCODES]);
      expect(e.message).toMatch(/expected an opcode/);
    }
  });

  it('unknown opcode, and an upper-case opcode with a hint', () => {
    const e = errorOf('div.rn.f16');
    expect(e).toMatchObject({ position: 0, length: 3, expected: [...OPCODES] });
    expect(e.message).toMatch(/unknown opcode 'div'/);
    expect(errorOf('ADD.f16').message).toMatch(/lower case: add/);
  });

  it('modifiers out of order: points at them and names the spec order', () => {
    const input = 'add.sat.rn.f16';
    const e = errorOf(input);
    expect(e.message).toMatch(/out of order.*add\.rn\.sat\.f16/);
    expect(e.expected).toEqual(['add.rn.sat.f16']);
    expect(e.position).toBe(input.indexOf('.sat'));
  });

  it('duplicate modifiers: points at the second one', () => {
    const input = 'add.rn.rn.f16';
    const e = errorOf(input);
    expect(e.message).toMatch(/duplicate modifier \.rn/);
    expect(e.position).toBe(input.lastIndexOf('.rn'));
    expect(marked(input, e)).toBe('.rn');
  });

  it('a type the opcode lacks: lists the types it has', () => {
    const input = 'neg.f32.f16 d, a;';
    const e = errorOf(input);
    expect(e.message).toMatch(/neg has no type \.f32\.f16/);
    expect(marked(input, e)).toBe('.f32.f16');
    expect(e.expected).toEqual(['.f16', '.f16x2', '.bf16', '.bf16x2']);
  });

  it('a modifier the type lacks: says where it exists', () => {
    const input = 'add.ftz.bf16';
    const e = errorOf(input);
    expect(marked(input, e)).toBe('.ftz');
    expect(e.message).toMatch(
      /\.ftz is not allowed on add\.bf16 \(it exists on add\.f16, add\.f16x2\)/,
    );
    expect(e.expected).toEqual(['.rn']);
  });

  it('unknown modifier: lists what the form allows', () => {
    const input = 'add.foo.f16';
    const e = errorOf(input);
    expect(marked(input, e)).toBe('.foo');
    expect(e.message).toMatch(/unknown modifier '\.foo'/);
    expect([...e.expected].sort()).toEqual(['.ftz', '.rn', '.sat']);
  });

  it('case mistakes: .nan and .NAN suggest .NaN', () => {
    for (const input of ['min.nan.f16', 'max.NAN.bf16x2']) {
      const e = errorOf(input);
      expect(e.message).toMatch(/did you mean \.NaN\?/);
      expect(marked(input, e).toLowerCase()).toBe('.nan');
      expect(e.expected).toContain('.NaN');
    }
  });

  it('.xorsign without .abs, .abs alone and .abs.xorsign', () => {
    for (const [input, at] of [
      ['min.xorsign.f16', '.xorsign'],
      ['max.abs.bf16', '.abs'],
      ['min.abs.xorsign.f16x2', '.abs'],
    ] as const) {
      const e = errorOf(input);
      expect(e.message).toMatch(/\.xorsign and \.abs must be specified together/);
      expect(e.position).toBe(input.indexOf(at));
      expect(e.expected).toEqual(['.xorsign.abs']);
    }
  });

  it('a modifier after the type, half and mixed', () => {
    for (const [input, mod, type] of [
      ['add.f16.sat', '.sat', '.f16'],
      ['add.rn.f32.f16.sat', '.sat', '.f32.f16'],
      ['fma.f32.bf16.rn d, a, b, c;', '.rn', '.f32.bf16'],
    ] as const) {
      const e = errorOf(input);
      expect(e.message).toBe(`modifier ${mod} must come before the type ${type}`);
      expect(marked(input, e)).toBe(mod);
    }
  });

  it('.f32 on an opcode without mixed-precision forms suggests its own types', () => {
    const input = 'tanh.approx.f32 d, a;';
    const e = errorOf(input);
    expect(e.message).toBe('tanh has no .f32 form; it takes one of .f16, .f16x2, .bf16, .bf16x2');
    expect(marked(input, e)).toBe('.f32');
    expect(e.expected).toEqual(['.f16', '.f16x2', '.bf16', '.bf16x2']);
  });

  it('mixed precision: .f32 needs its source type', () => {
    const input = 'fma.rn.f32 d, a, b, c;';
    const e = errorOf(input);
    expect(e.expected).toEqual(['.f16', '.bf16']);
    expect(e.position).toBe('fma.rn.f32'.length);
  });

  it('fma without a rounding modifier: .rn is required, no default', () => {
    const e = errorOf('fma.relu.bf16');
    expect(e.message).toMatch(/requires \.rn.*no default/);
    expect(e.expected).toEqual(['fma.rn.relu.bf16']);
  });

  it('modifiers that exclude each other: .sat with .relu, .oob with .ftz or .sat', () => {
    for (const [input, pair] of [
      ['fma.rn.sat.relu.f16', /\.sat and \.relu cannot be combined/],
      ['fma.rn.oob.ftz.f16', /\.ftz and \.oob cannot be combined/],
      ['fma.rn.oob.sat.f16x2', /\.sat and \.oob cannot be combined/],
    ] as const) {
      const e = errorOf(input);
      expect(e.message).toMatch(pair);
      expect(e.position).toBeGreaterThan(input.indexOf('.rn'));
      expect(e.expected.length).toBeGreaterThan(0);
    }
  });

  it('expected lists hold what may come next at that place, in the spec order', () => {
    expect(errorOf('add.ftz.ftz.f16').expected).toEqual(['.sat', '.f16']);
    expect(errorOf('fma.rn.oob.oob.f16').expected).toEqual(['.relu', '.f16']);
    expect(errorOf('fma.rn.relu.relu.f16').expected).toEqual(['.f16']);
    expect(errorOf('min.xorsign.abs.xorsign.abs.bf16').expected).toEqual(['.bf16']);
    const add = ['.rn', '.rz', '.rm', '.rp', '.ftz', '.sat'];
    const addTypes = ['.f16', '.f16x2', '.bf16', '.bf16x2', '.f32.f16', '.f32.bf16'];
    expect(errorOf('add.f64').expected).toEqual([...add, ...addTypes]);
    expect(errorOf('add..f16').expected).toEqual([...add, ...addTypes]);
    expect(errorOf('tanh.approx..f16').expected).toEqual(['.f16', '.f16x2', '.bf16', '.bf16x2']);
  });

  it('operands separated by spaces: a comma is what is missing', () => {
    const input = 'add.f16 d a b';
    const e = errorOf(input);
    expect(e.message).toBe("expected ',' between operands (add.f16 takes d, a, b)");
    expect(e.position).toBe('add.f16 d'.length);
    expect(e.expected).toEqual([',']);
  });

  it('junk after the operands, and after the semicolon', () => {
    const afterSemi = 'add.f16 d, a, b; junk';
    const e1 = errorOf(afterSemi);
    expect(marked(afterSemi, e1)).toBe('junk');
    const noSemi = 'add.f16 d, a, b junk';
    const e2 = errorOf(noSemi);
    expect(marked(noSemi, e2)).toContain('junk');
  });

  it('wrong operand count: says how many the form takes', () => {
    const few = errorOf('add.f16 d, a;');
    expect(few.message).toBe('add.f16 takes 3 operands (d, a, b); found 2');
    const many = errorOf('neg.bf16 d, a, b;');
    expect(many.message).toBe('neg.bf16 takes 2 operands (d, a); found 3');
    // The missing first operand is the empty text between the type and the first comma.
    const empty = errorOf('add.f16 , a, b;');
    expect(empty.position).toBe('add.f16'.length);
    expect(empty.message).toMatch(/expected an operand/);
  });

  it('very long input: refused with a position inside the input, not parsed', () => {
    const input = `add.f16 ${'d'.repeat(10_000)}, a, b;`;
    const e = errorOf(input);
    expect(e.message).toMatch(/too long/);
    expect(e.position).toBeLessThanOrEqual(input.length);
  });

  it('unicode and NUL bytes: a syntax error at the offending character', () => {
    const nul = 'add.f16 d, a, b;\u0000';
    expect(errorOf(nul).position).toBe(nul.indexOf('\u0000'));
    const umlaut = 'add.f16 d, ä, b;';
    expect(marked(umlaut, errorOf(umlaut))).toBe('ä');
    const opcode = 'ädd.f16';
    expect(errorOf(opcode)).toMatchObject({ position: 0, length: 3 });
    const emoji = 'fma.rn.f16 d, a, b, 🙂;';
    expect(marked(emoji, errorOf(emoji))).toBe('🙂');
  });
});

/** Holds for any input: no throw; ok, or a syntax error inside the input. */
function wellFormed(input: string, r: ParseResult): boolean {
  if (r.ok) return FORMS.includes(r.form);
  const e = r.error;
  return (
    e.code === 'syntax' &&
    Number.isInteger(e.position) &&
    e.position >= 0 &&
    e.position <= input.length &&
    e.length >= 1 &&
    e.message.length > 0
  );
}

describe('parseInstruction never throws', () => {
  it('on random strings (ASCII, unicode, PTX-like tokens)', () => {
    const tokens = fc.constantFrom(
      ...OPCODES,
      '.rn',
      '.rz',
      '.sat',
      '.ftz',
      '.relu',
      '.oob',
      '.NaN',
      '.nan',
      '.xorsign',
      '.abs',
      '.approx',
      '.f16',
      '.f16x2',
      '.bf16',
      '.bf16x2',
      '.f32',
      ' ',
      ',',
      ';',
      'd',
      '%r1',
      '@p',
      '.',
      '//',
    );
    const text = fc.oneof(
      fc.string({ maxLength: 80 }),
      fc.string({ unit: 'binary', maxLength: 80 }),
      fc.array(tokens, { maxLength: 16 }).map((ts) => ts.join('')),
    );
    fc.assert(
      fc.property(text, (input) => wellFormed(input, parseInstruction(input))),
      { numRuns: 1500 },
    );
  });

  it('on mutated valid forms and lines', () => {
    const line = fc
      .record({
        form: fc.constantFrom(...FORMS),
        withOperands: fc.boolean(),
      })
      .map(({ form, withOperands }) =>
        withOperands ? `${form.text} ${form.operands.map((o) => o.name).join(', ')};` : form.text,
      );
    const mutated = fc
      .tuple(
        line,
        fc.nat(),
        fc.nat(),
        fc.string({ unit: 'binary', maxLength: 4 }),
        fc.integer({ min: 0, max: 2 }),
      )
      .map(([text, at, len, insert, kind]) => {
        const i = at % (text.length + 1);
        if (kind === 0) return text.slice(0, i) + insert + text.slice(i); // insert
        if (kind === 1) return text.slice(0, i) + text.slice(i + 1 + (len % 4)); // delete
        return text.slice(0, i) + text.slice(i).toUpperCase(); // case change
      });
    fc.assert(
      fc.property(mutated, (input) => wellFormed(input, parseInstruction(input))),
      { numRuns: 5000 },
    );
  });
});
