import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { agreementCases } from '../../tests/ptxas/cases.ts';
import { ALL_FORMS, findForm } from './all-forms.ts';
import { parseInstruction, type ParseResult, type SyntaxError } from './parse-instruction.ts';
import { PARSER_OPCODES } from './vocabulary.ts';

/** The syntax error of a rejected input; fails the test when the input parsed. */
function errorOf(input: string): SyntaxError {
  const r = parseInstruction(input);
  if (r.ok)
    throw new Error(`expected a syntax error for ${JSON.stringify(input)}, got ${r.form.text}`);
  expect(r.error.code).toBe('syntax');
  return r.error;
}

/** The form text and spelling note of an accepted input; fails the test when it was refused. */
function parsed(input: string) {
  const r = parseInstruction(input);
  if (!r.ok) throw new Error(`${input}: ${r.error.message}`);
  return r;
}

/** The text the error points at. */
const marked = (input: string, e: SyntaxError) => input.slice(e.position, e.position + e.length);

const ARITHMETIC_OPCODES = ['add', 'sub', 'mul', 'fma', 'neg', 'abs', 'min', 'max', 'tanh', 'ex2'];

describe('parseInstruction: valid input', () => {
  it('parses every catalog form by its own text, arithmetic, cvt and the matrix forms', () => {
    for (const form of ALL_FORMS) {
      const r = parseInstruction(form.text);
      expect(r.ok && r.form, form.text).toBe(form);
      expect(r.ok && r.spelling, form.text).toBeNull();
    }
    expect(PARSER_OPCODES).toEqual([...ARITHMETIC_OPCODES, 'cvt', 'mma', 'wgmma.mma_async']);
  });

  it('parses whole lines with operands, a guard and a trailing comment', () => {
    const r = parsed('  @%p1 fma.rn.relu.bf16x2 %r1, %r2, %r3, %r4; // relu');
    expect(r.form.text).toBe('fma.rn.relu.bf16x2');
    expect(r.operands).toEqual(['%r1', '%r2', '%r3', '%r4']);
    expect(parsed('add.rz.f32.bf16 d, a, c;').operands).toEqual(['d', 'a', 'c']);
  });

  it('keeps the operands of a cvt line as it does the arithmetic’s, braces dropped', () => {
    const line = parsed('cvt.rn.f16.f32 %h1, %f1;');
    expect([line.form.text, line.operands]).toEqual(['cvt.rn.f16.f32', ['%h1', '%f1']]);
    const x4 = parsed('cvt.rs.satfinite.e2m1x4.f32 %rs1, {%f1, %f2, %f3, %f4}, %r9;');
    expect(x4.operands).toEqual(['%rs1', '%f1', '%f2', '%f3', '%f4', '%r9']);
    expect(parsed('@!%p cvt.rn.satfinite.e4m3x2.f32 %rs1, %f1, %f2; // pair').operands).toEqual([
      '%rs1',
      '%f1',
      '%f2',
    ]);
  });

  it('gives null operands for an instruction without them', () => {
    expect(parsed('min.xorsign.abs.f16').operands).toBeNull();
    expect(parsed('cvt.rna.tf32.f32').operands).toBeNull();
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
      [
        'cvt.f16.satfinite.f32.rn',
        'cvt.rn.satfinite.f16.f32',
        'ptxas accepts this order; the spec writes cvt.rn.satfinite.f16.f32',
      ],
      [
        'cvt.rn.relu.relu.f16.f32',
        'cvt.rn.relu.f16.f32',
        'ptxas accepts .relu written twice; the spec writes cvt.rn.relu.f16.f32',
      ],
      // The type written twice is no repetition and no reordering.
      [
        'cvt.sat.sat.f16.f16',
        'cvt.sat.f16.f16',
        'ptxas accepts .sat written twice; the spec writes cvt.sat.f16.f16',
      ],
    ] as const) {
      const r = parsed(input);
      expect(r.form.text, input).toBe(form);
      expect(r.spelling?.message, input).toBe(message);
      expect(r.spelling?.canonical).toBe(form);
      expect(r.spelling?.caseChanged).toBe(false);
    }
    expect(parsed('cvt.rn.relu.relu.f16.f32').spelling?.repeated).toEqual([
      { modifier: 'relu', times: 2 },
    ]);
  });

  it('reads names in another case, and says that ptxas refuses them (issue 23, point 11)', () => {
    for (const [input, form] of [
      ['ADD.RN.F16', 'add.rn.f16'],
      ['Fma.Rn.Relu.BF16X2 %r1, %r2, %r3, %r4;', 'fma.rn.relu.bf16x2'],
      ['min.nan.f16', 'min.NaN.f16'],
      ['max.NAN.bf16x2', 'max.NaN.bf16x2'],
      ['CVT.RN.SATFINITE.E4M3X2.F32', 'cvt.rn.satfinite.e4m3x2.f32'],
      ['cvt.RN.f16.f32', 'cvt.rn.f16.f32'],
    ] as const) {
      const r = parsed(input);
      expect(r.form.text, input).toBe(form);
      expect(r.spelling?.caseChanged, input).toBe(true);
      expect(r.spelling?.written, input).toBe(input.split(' ')[0]);
    }
    expect(parsed('ADD.RN.F16').spelling?.message).toBe(
      'ptxas refuses ADD.RN.F16: PTX names are case-sensitive; the spec writes add.rn.f16',
    );
    // A case change and another order: the case is what ptxas refuses.
    const both = parsed('ADD.F16.SAT').spelling!;
    expect([both.reordered, both.message]).toEqual([
      true,
      'ptxas refuses ADD.F16.SAT: PTX names are case-sensitive; the spec writes add.sat.f16',
    ]);
  });
});

describe('parseInstruction: every bad input class gets a precise syntax error', () => {
  it('empty string and white space only: expected an opcode, at the end', () => {
    for (const input of ['', '   ', '\t\n']) {
      const e = errorOf(input);
      expect(e.position).toBe(input.length);
      expect(e.expected).toEqual([...PARSER_OPCODES]);
      expect(e.message).toMatch(/expected an opcode/);
    }
  });

  it('unknown opcode: every opcode of the catalog, cvt included', () => {
    const e = errorOf('div.rn.f16');
    expect(e).toMatchObject({ position: 0, length: 3, expected: [...PARSER_OPCODES] });
    expect(e.message).toBe(
      "unknown opcode 'div'; expected one of add, sub, mul, fma, neg, abs, min, max, tanh, ex2, cvt, mma, wgmma.mma_async",
    );
    expect(errorOf('cvx.rn.f16.f32').expected).toContain('cvt');
    // Control characters are shown escaped.
    expect(errorOf('c\u0012vt.rn.f16.f32').message).toMatch(/^unknown opcode 'c\\u0012vt';/);
  });

  it('duplicate modifiers ptxas refuses: points at the second one', () => {
    for (const [input, mod] of [
      ['add.rn.rn.f16', '.rn'],
      ['add.ftz.f16.ftz', '.ftz'],
      ['fma.rn.oob.relu.oob.bf16', '.oob'],
      ['min.xorsign.abs.abs.f16', '.abs'],
      ['cvt.rn.rn.f16.f32', '.rn'],
      ['cvt.rn.ftz.ftz.f16.f32', '.ftz'],
    ] as const) {
      const e = errorOf(input);
      expect(e.message).toBe(`duplicate modifier ${mod}: ptxas takes ${mod} once`);
      expect(e.position).toBe(input.lastIndexOf(mod));
      expect(marked(input, e)).toBe(mod);
    }
    expect(errorOf('cvt.rn.ftz.ftz.f16.f32').expected).toEqual(['.sat', '.f16.f32']);
  });

  it('a type the opcode lacks: lists the types it has', () => {
    const input = 'neg.f32.f16 d, a;';
    const e = errorOf(input);
    expect(e.message).toMatch(/neg has no type \.f32\.f16/);
    expect(marked(input, e)).toBe('.f32.f16');
    expect(e.expected).toEqual(['.f16', '.f16x2', '.bf16', '.bf16x2']);
  });

  it('a modifier the type lacks: says where it exists, and lists what is allowed in the order the forms use it', () => {
    const input = 'add.ftz.bf16';
    const e = errorOf(input);
    expect(marked(input, e)).toBe('.ftz');
    expect(e.message).toBe(
      'modifier .ftz is not allowed on add with .bf16 (add takes it with .f16, .f16x2); allowed: .rn',
    );
    expect(e.expected).toEqual(['.rn']);
    expect(errorOf('add.rz.f16').message).toBe(
      'modifier .rz is not allowed on add with .f16 (add takes it with .f32.f16, .f32.bf16); allowed: .sat, .ftz, .rn',
    );
    expect(errorOf('cvt.rna.f16.f16').message).toBe(
      'modifier .rna is not allowed on cvt to .f16 from .f16 (cvt takes it with .tf32.f32); allowed: .sat, .rni, .rzi, .rmi, .rpi',
    );
    expect(errorOf('cvt.rn.f32.f16').message).toMatch(
      /^modifier \.rn is not allowed on cvt to \.f32 from \.f16; allowed: \.sat, \.ftz$/,
    );
  });

  it('unknown modifier: lists what the form allows', () => {
    const input = 'add.foo.f16';
    const e = errorOf(input);
    expect(marked(input, e)).toBe('.foo');
    expect(e.message).toBe("unknown modifier '.foo' on add with .f16; allowed: .sat, .ftz, .rn");
    expect(e.expected).toEqual(['.sat', '.ftz', '.rn']);
    const cvt = errorOf('cvt.rn.satfinite.foo.e4m3x2.f32');
    expect(cvt.message).toBe(
      "unknown modifier '.foo' on cvt to .e4m3x2 from .f32; allowed: .rn, .satfinite, .relu",
    );
  });

  it('a cvt type the catalog lacks, or a type missing: what may come there', () => {
    const e = errorOf('cvt.rn.relu.f16x2.e2m32 d, a;');
    expect(e.message).toBe("unknown modifier or type '.e2m32' on cvt");
    expect(e.expected).toEqual([
      '.satfinite',
      '.f32',
      '.e4m3x2',
      '.e5m2x2',
      '.e2m3x2',
      '.e3m2x2',
      '.e2m1x2',
    ]);
    expect(errorOf('cvt.rn.s32.f32').message).toMatch(/^cvt with the integer type \.s32 /);
    const one = errorOf('cvt.rn.f16');
    expect(one.message).toBe(
      'cvt takes a destination type and a source type, in that order (e.g. cvt.rn.f16.f32); found 1',
    );
    expect(one.position).toBe('cvt.rn.f16'.length);
    expect(errorOf('cvt.f16.f32.f64').message).toMatch(/^a third type '\.f64'/);
    expect(errorOf('cvt.rn.f16.').expected).toContain('.f32');
    expect(errorOf('cvt.rn.f16.f32.').message).toBe("expected a modifier after '.'");
  });

  it('a pair cvt does not convert: what the source converts to, and the order of the types', () => {
    const input = 'cvt.rn.f32.e4m3x2';
    const e = errorOf(input);
    expect(e.message).toMatch(/^cvt has no conversion to \.f32 from \.e4m3x2; from \.e4m3x2 it /);
    expect(e.message).toMatch(/\(the destination type comes first: /);
    expect(marked(input, e)).toBe('.f32.e4m3x2');
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

  it('the arithmetic type is one unit written once: .f32 directly before its source type', () => {
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

  it('a mandatory modifier missing: named, and pointed at where it belongs (issue 23, point 11)', () => {
    const e = errorOf('fma.relu.f16');
    expect(e.message).toMatch(/requires \.rn \(.*no default\); e\.g\. fma\.rn\.relu\.f16$/);
    expect(e.expected).toEqual(['fma.rn.relu.f16']);
    expect([e.position, e.length]).toEqual(['fma'.length, 1]);
    const bf16 = errorOf('fma.relu.bf16');
    expect(bf16.message).toMatch(/requires \.rn \| \.rz \| \.rm \| \.rp \(/);
    expect(bf16.expected).toEqual([
      'fma.rn.relu.bf16',
      'fma.rz.relu.bf16',
      'fma.rm.relu.bf16',
      'fma.rp.relu.bf16',
    ]);
    // After the modifier that precedes it in the form's spelling.
    const satfinite = errorOf('cvt.rn.e4m3x2.f32 %rs1, %f1, %f2;');
    expect(satfinite.message).toBe(
      'cvt to .e4m3x2 from .f32 requires .satfinite; e.g. cvt.rn.satfinite.e4m3x2.f32',
    );
    expect([satfinite.position, satfinite.length]).toEqual(['cvt.rn'.length, 1]);
    expect(errorOf('ex2.approx.bf16').position).toBe('ex2.approx'.length);
    expect(errorOf('cvt.f16.f32').message).toBe(
      'cvt to .f16 from .f32 requires .rn | .rz | .rm | .rp (its rounding modifier has no default); e.g. cvt.rn.f16.f32',
    );
    // The rounding slots of several lines are one choice.
    expect(errorOf('cvt.tf32.f32').message).toMatch(
      /^cvt to \.tf32 from \.f32 requires \.rn \| \.rz \| \.rna \(its rounding/,
    );
  });

  it('modifiers that exclude each other: the ones that clash, and the forms that keep most', () => {
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
      [
        'cvt.rn.relu.ftz.f16.f32',
        /^\.relu and \.ftz cannot be combined on cvt to \.f16 from \.f32/,
        ['cvt.rn.ftz.f16.f32', 'cvt.rn.relu.f16.f32'],
      ],
      // Two roundings: the second clashes with the first.
      [
        'cvt.rn.satfinite.rm.f16.f32',
        /^\.rn and \.rm cannot be combined/,
        ['cvt.rn.satfinite.f16.f32'],
      ],
      ['cvt.rm.relu.f16.f32', /^\.rm and \.relu cannot be combined/, ['cvt.rm.f16.f32']],
    ] as const) {
      const e = errorOf(input);
      expect(e.message, input).toMatch(pair);
      expect(e.position).toBeGreaterThan(input.indexOf('.r'));
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
    // cvt: after the destination type, a modifier or the source types it converts from.
    expect(errorOf('cvt.rna.tf32.').expected).toEqual(['.satfinite', '.f32']);
  });

  it('operands separated by spaces: a comma is what is missing', () => {
    const input = 'add.f16 d a b';
    const e = errorOf(input);
    expect(e.message).toBe("expected ',' between operands (add.f16 takes d, a, b)");
    expect(e.position).toBe('add.f16 d'.length);
    expect(e.expected).toEqual([',']);
    const cvt = 'cvt.rz.bf16.f64 d a;';
    expect(errorOf(cvt).position).toBe('cvt.rz.bf16.f64 d'.length);
  });

  it('junk after the operands, and after the semicolon', () => {
    const afterSemi = 'add.f16 d, a, b; junk';
    const e1 = errorOf(afterSemi);
    expect(marked(afterSemi, e1)).toBe('junk');
    expect(e1.expected).toEqual(['end of input', "'//' comment"]);
    const noSemi = 'add.f16 d, a, b junk';
    const e2 = errorOf(noSemi);
    expect(marked(noSemi, e2)).toContain('junk');
  });

  it('wrong operand count: says how many the form takes', () => {
    const few = errorOf('add.f16 d, a;');
    expect(few.message).toBe('add.f16 takes 3 operands (d, a, b); found 2');
    const many = errorOf('neg.bf16 d, a, b;');
    expect(many.message).toBe('neg.bf16 takes 2 operands (d, a); found 3');
    expect(errorOf('cvt.rn.satfinite.e4m3x2.f32 %rs1, %f1;').message).toBe(
      'cvt.rn.satfinite.e4m3x2.f32 takes 3 operands (d, a, b); found 2',
    );
    // The missing first operand is the empty text between the type and the first comma.
    const empty = errorOf('add.f16 , a, b;');
    expect(empty.position).toBe('add.f16'.length);
    expect(empty.message).toMatch(/expected an operand/);
  });

  it('cvt’s x4 sources go in braces, where the syntax line has them', () => {
    for (const input of [
      'cvt.rs.satfinite.e4m3x4.f32 %r1, %f1, %f2, %f3, %f4, %r9;',
      'cvt.rs.satfinite.e4m3x4.f32 %r1, {%f1, %f2, %f3}, %f4, %r9;',
      'cvt.rs.satfinite.e4m3x4.f32 {%r1, %f1, %f2, %f3, %f4}, %r9;',
    ]) {
      expect(errorOf(input).message, input).toBe(
        "cvt.rs.satfinite.e4m3x4.f32 takes operands d, {a, b, e, f}, rbits; found '" +
          input.slice(input.indexOf(' ') + 1, -1) +
          "'",
      );
    }
    const name = 'cvt.rs.satfinite.e4m3x4.f32 %r1, {%f1, 2, %f3, %f4}, %r9;';
    expect(marked(name, errorOf(name))).toBe('2');
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

describe('parseInstruction suggests only valid instructions', () => {
  it('for every near miss and spelling probe of the ptxas agreement suite, and more', () => {
    // Every instruction name an error or a note puts forward parses as a valid form, written
    // its own way, whatever the input.
    const named = (text: string) =>
      [
        ...text.matchAll(
          /(?<![.\w])(?:add|sub|mul|fma|neg|abs|min|max|tanh|ex2|cvt)(?:\.[A-Za-z0-9]+)+/g,
        ),
      ].map((m) => m[0]);
    const extra = [
      'fma.f32',
      'add.f16.f32',
      'add.sat.f32',
      'min.abs.f16',
      'fma.relu.bf16',
      'fma.rz.f16',
      'cvt.tf32.f32',
      'cvt.rn.f32.e4m3x2',
    ];
    let suggestions = 0;
    for (const input of [...agreementCases().map((c) => c.head), ...extra]) {
      const r = parseInstruction(input);
      const offered = r.ok
        ? // A note quotes the name as written, then the form's spelling.
          [r.form.text, ...(r.spelling ? named(r.spelling.message.split(' writes ')[1]!) : [])]
        : [...named(r.error.message), ...r.error.expected.flatMap(named)];
      for (const name of offered) {
        const p = parseInstruction(name);
        expect(
          p.ok && p.spelling === null && findForm(name) !== undefined,
          `${input}: ${name}`,
        ).toBe(true);
        suggestions++;
      }
    }
    expect(suggestions).toBeGreaterThan(5000);
  });
});

/** Holds for any input: no throw; ok, or a syntax error inside the input. */
function wellFormed(input: string, r: ParseResult): boolean {
  if (r.ok) return ALL_FORMS.includes(r.form);
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
      ...PARSER_OPCODES,
      '.rn',
      '.rz',
      '.rna',
      '.rs',
      '.rni',
      '.sat',
      '.satfinite',
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
      '.f64',
      '.e4m3x2',
      '.e2m1x4',
      '.s32',
      ' ',
      ',',
      ';',
      '{',
      '}',
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
      .record({ form: fc.constantFrom(...ALL_FORMS), withOperands: fc.boolean() })
      .map(({ form, withOperands }) =>
        withOperands ? `${form.text} ${form.syntax.replace(/^\S+\s+/, '')}` : form.text,
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
