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

  it('reads modifiers in any order ptxas accepts as the form, and names the spec spelling', () => {
    for (const [input, form, message] of [
      [
        'add.sat.ftz.f16',
        'add.ftz.sat.f16',
        'ptxas accepts this order; the spec writes add.ftz.sat.f16',
      ],
      ['add.f16.sat', 'add.sat.f16', 'ptxas accepts this order; the spec writes add.sat.f16'],
      [
        'add.sat.rn.f16',
        'add.rn.sat.f16',
        'ptxas accepts this order; the spec writes add.rn.sat.f16',
      ],
      [
        'fma.f32.bf16.rn d, a, b, c;',
        'fma.rn.f32.bf16',
        'ptxas accepts this order; the spec writes fma.rn.f32.bf16',
      ],
      [
        'min.abs.NaN.xorsign.f16x2',
        'min.NaN.xorsign.abs.f16x2',
        'ptxas accepts this order; the spec writes min.NaN.xorsign.abs.f16x2',
      ],
      [
        'fma.rz.sat.f32.f16.sat',
        'fma.rz.sat.f32.f16',
        'ptxas accepts .sat written twice; the spec writes fma.rz.sat.f32.f16',
      ],
      [
        'tanh.approx.approx.approx.bf16',
        'tanh.approx.bf16',
        'ptxas accepts .approx written 3 times; the spec writes tanh.approx.bf16',
      ],
      [
        'fma.relu.rn.f16.relu',
        'fma.rn.relu.f16',
        'ptxas accepts this order and .relu written twice; the spec writes fma.rn.relu.f16',
      ],
      // A form the spec does not list: the catalog's spelling.
      [
        'fma.relu.oob.rz.bf16',
        'fma.rz.oob.relu.bf16',
        'ptxas accepts this order; the catalog writes fma.rz.oob.relu.bf16',
      ],
    ] as const) {
      const r = parseInstruction(input);
      if (!r.ok) throw new Error(`${input}: ${r.error.message}`);
      expect(r.form.text, input).toBe(form);
      expect(r.spelling?.message, input).toBe(message);
      expect(r.spelling?.canonical).toBe(form);
    }
    // The form's own spelling has no note.
    for (const f of FORMS) {
      const r = parseInstruction(f.text);
      expect(r.ok && r.spelling).toBeNull();
    }
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

  it('duplicate modifiers ptxas refuses: points at the second one', () => {
    for (const [input, mod] of [
      ['add.rn.rn.f16', '.rn'],
      ['add.ftz.f16.ftz', '.ftz'],
      ['fma.rn.oob.relu.oob.bf16', '.oob'],
      ['min.xorsign.abs.abs.f16', '.abs'],
    ] as const) {
      const e = errorOf(input);
      expect(e.message).toBe(`duplicate modifier ${mod}: ptxas takes ${mod} once`);
      expect(e.position).toBe(input.lastIndexOf(mod));
      expect(marked(input, e)).toBe(mod);
    }
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
      /\.ftz is not allowed on add with \.bf16 \(add takes it with \.f16, \.f16x2\)/,
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

  it('.xorsign without .abs, and .abs alone', () => {
    for (const [input, at] of [
      ['min.xorsign.f16', '.xorsign'],
      ['max.abs.bf16', '.abs'],
      ['min.NaN.f16.abs', '.abs'],
    ] as const) {
      const e = errorOf(input);
      expect(e.message).toMatch(/\.xorsign and \.abs must be specified together/);
      expect(e.position).toBe(input.indexOf(at));
      expect(e.expected).toEqual(['.xorsign.abs']);
    }
  });

  it('the type is one unit written once: .f32 directly before its source type', () => {
    for (const [input, at, message] of [
      [
        'add.f32.sat.f16',
        '.sat',
        /\.f32 must be followed directly by .*e\.g\. add\.sat\.f32\.f16\)/,
      ],
      ['add.rn.bf16.f32', '.f32', /written \.f32\.bf16, \.f32 first \(e\.g\. add\.rn\.f32\.bf16\)/],
      ['add.f16.f16', '.f16', /a second type '\.f16'/],
      ['min.f16.NaN.bf16x2', '.bf16x2', /a second type '\.bf16x2'/],
    ] as const) {
      const e = errorOf(input);
      expect(e.message).toMatch(message);
      expect(e.position).toBe(input.lastIndexOf(at));
    }
  });

  it('.f32 on an opcode without mixed-precision forms suggests its own types', () => {
    const input = 'tanh.approx.f32 d, a;';
    const e = errorOf(input);
    expect(e.message).toBe('tanh has no .f32 form; it takes one of .f16, .f16x2, .bf16, .bf16x2');
    expect(marked(input, e)).toBe('.f32');
    expect(e.expected).toEqual(['.f16', '.f16x2', '.bf16', '.bf16x2']);
  });

  it('mixed precision: .f32 needs its source type, and the example keeps the rounding', () => {
    const input = 'fma.rn.f32 d, a, b, c;';
    const e = errorOf(input);
    expect(e.expected).toEqual(['.f16', '.bf16']);
    expect(e.position).toBe('fma.rn.f32'.length);
    // fma.f32.f16 would itself be invalid: fma's rounding modifier has no default.
    expect(e.message).toMatch(/e\.g\. fma\.rn\.f32\.f16\)$/);
    expect(errorOf('fma.f32').message).toMatch(/e\.g\. fma\.rn\.f32\.f16\)$/);
    expect(errorOf('add.rz.sat.f32').message).toMatch(/e\.g\. add\.rz\.sat\.f32\.f16\)$/);
  });

  it('fma without a rounding modifier: one is required, no default', () => {
    const e = errorOf('fma.relu.f16');
    expect(e.message).toMatch(/requires \.rn \(.*no default\); e\.g\. fma\.rn\.relu\.f16$/);
    expect(e.expected).toEqual(['fma.rn.relu.f16']);
    const bf16 = errorOf('fma.relu.bf16');
    expect(bf16.message).toMatch(/requires \.rn \| \.rz \| \.rm \| \.rp \(/);
    expect(bf16.expected).toEqual([
      'fma.rn.relu.bf16',
      'fma.rz.relu.bf16',
      'fma.rm.relu.bf16',
      'fma.rp.relu.bf16',
    ]);
  });

  it('modifiers that exclude each other: .sat with .relu, .oob with .ftz; the forms that keep most', () => {
    for (const [input, pair, keep] of [
      [
        'fma.rn.sat.relu.f16',
        /^\.sat and \.relu cannot be combined/,
        ['fma.rn.sat.f16', 'fma.rn.relu.f16'],
      ],
      [
        'fma.rn.oob.ftz.f16',
        /^\.oob and \.ftz cannot be combined/,
        ['fma.rn.ftz.f16', 'fma.rn.oob.f16'],
      ],
      [
        'fma.rn.oob.sat.relu.f16x2',
        /^\.sat and \.relu cannot be combined/,
        ['fma.rn.oob.relu.f16x2', 'fma.rn.oob.sat.f16x2'],
      ],
    ] as const) {
      const e = errorOf(input);
      expect(e.message).toMatch(pair);
      expect(e.position).toBeGreaterThan(input.indexOf('.rn'));
      expect(e.expected).toEqual(keep);
    }
  });

  it('expected lists hold what may come next at that place (any order), in the spec order', () => {
    expect(errorOf('add.ftz.ftz.f16').expected).toEqual(['.rn', '.sat', '.f16']);
    expect(errorOf('fma.rn.oob.oob.f16').expected).toEqual(['.sat', '.relu', '.f16']);
    expect(errorOf('fma.rn.relu.ftz.ftz.f16').expected).toEqual(['.f16']);
    expect(errorOf('min.xorsign.abs.xorsign.abs.bf16').expected).toEqual(['.NaN', '.bf16']);
    const add = ['.rn', '.rz', '.rm', '.rp', '.ftz', '.sat'];
    const addTypes = ['.f16', '.f16x2', '.bf16', '.bf16x2', '.f32.f16', '.f32.bf16'];
    expect(errorOf('add.f64').expected).toEqual([...add, ...addTypes]);
    expect(errorOf('add..f16').expected).toEqual([...add, ...addTypes]);
    expect(errorOf('tanh.approx..f16').expected).toEqual(['.f16', '.f16x2', '.bf16', '.bf16x2']);
    // The type written already: the modifiers it takes, in any place.
    expect(errorOf('add.f16.').expected).toEqual(['.rn', '.ftz', '.sat']);
    expect(errorOf('add.f32.').expected).toEqual(['.f16', '.bf16']);
    expect(errorOf('fma.f32.bf16.').expected).toEqual(['.rn', '.rz', '.rm', '.rp', '.sat']);
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
