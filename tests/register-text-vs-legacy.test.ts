/**
 * The one reading of operand text (src/engine/register-text.ts, stored-value.ts) against the
 * four modules it replaces, while they exist: for every register of every form, the same text
 * gives the same answer — refused by both, or the same bits — as operand-text.ts gave the
 * arithmetic registers and cvt-operand-text.ts the cvt registers; element fields as
 * parseCvtElementText, values as parseElementValue (exactness included). Delete this file
 * together with the old modules.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FORMS } from '../src/catalog/all-forms.ts';
import { ELEMENT_FORMAT_NAMES, findCvtForm, type CvtSourceName } from '../src/catalog/index.ts';
import type { FormatName as OldFormatName } from '../src/catalog/types.ts';
import { parseCvtElementText, parseCvtRegisterText } from '../src/engine/cvt-operand-text.ts';
import { parseElementValue } from '../src/engine/element-text.ts';
import { FORMATS } from '../src/engine/format.ts';
import { parseOperandText, type OperandShape } from '../src/engine/operand-text.ts';
import { readElementText, readRegisterText, registerPlaces } from '../src/engine/register-text.ts';
import { readValueText } from '../src/engine/stored-value.ts';

/** Texts of every kind a person types, biased to where the formats round, overflow, underflow. */
const texts: fc.Arbitrary<string> = fc.oneof(
  fc.double().map(String),
  fc.double({ min: -1e6, max: 1e6 }).map(String),
  fc
    .tuple(fc.bigInt({ min: 0n, max: 10n ** 7n }), fc.integer({ min: -14, max: -1 }), fc.boolean())
    .map(([d, e, negative]) => `${negative ? '-' : ''}${d}e${e}`),
  fc
    .tuple(
      fc.bigInt({ min: 0n, max: 10n ** 20n }),
      fc.integer({ min: -340, max: 320 }),
      fc.boolean(),
    )
    .map(([d, e, negative]) => `${negative ? '-' : ''}${d}e${e}`),
  fc
    .tuple(fc.integer({ min: 0, max: 1 << 14 }), fc.integer({ min: -1100, max: 1030 }))
    .map(([m, p]) => `0x${m.toString(16)}p${p}`),
  fc
    .tuple(fc.integer({ min: 1, max: 1 << 12 }), fc.integer({ min: -160, max: 140 }), fc.boolean())
    .map(([m, p, negative]) => `${negative ? '-' : ''}0x${m.toString(16)}p${p}`),
  fc.integer({ min: -600, max: 600 }).map(String),
  fc.constantFrom(
    'inf',
    '-inf',
    'Infinity',
    '∞',
    'nan',
    '-nan',
    'NaN',
    'qnan',
    'snan',
    '-snan',
    '0',
    '-0',
    '',
    ' ',
    '1,5',
    '1/3',
    '0x',
    '0b',
    '0x1.8p-3',
    '448',
    '500',
    '464',
    '480',
    '57344',
    '6',
    '7.5',
    '28',
    '3',
    '0x1p-127',
    '0x1p-128',
    '1e-60',
    '65520',
    '2049',
    '1e999999999',
    '-1e-999999999',
  ),
  fc
    .tuple(fc.integer({ min: 1, max: 17 }), fc.bigInt({ min: 0n, max: (1n << 68n) - 1n }))
    .map(([n, b]) => `0x${b.toString(16).padStart(n, '0').slice(-n)}`),
  fc
    .tuple(fc.integer({ min: 1, max: 66 }), fc.bigInt({ min: 0n, max: (1n << 66n) - 1n }))
    .map(([n, b]) => `0b${b.toString(2).padStart(n, '0').slice(-n)}`),
  fc.string({ maxLength: 12 }),
);

/** An answer as text, for a message that shows both: the bits, or that the text was refused. */
const answer = (r: { ok: true; bits: number | bigint } | { ok: false }) =>
  r.ok ? `bits ${BigInt(r.bits).toString(16)}` : 'refused';

describe('register text against the modules it replaces', () => {
  it('gives the arithmetic registers the bits operand-text.ts gave', () => {
    // One form per register shape (format, elements, width): the rule sees nothing else.
    const shapes = new Map<
      string,
      { form: (typeof FORMS)[number]; name: 'a' | 'b' | 'c'; shape: OperandShape }
    >();
    for (const form of FORMS) {
      if (form.family !== 'half' && form.family !== 'mixed') continue;
      for (const { name, bits } of form.registers) {
        if (name !== 'a' && name !== 'b' && name !== 'c') continue;
        const places = registerPlaces(form, name);
        const shape: OperandShape = {
          format: places[0]!.place.format as OldFormatName,
          lanes: places.length as 1 | 2,
          bits: bits as 16 | 32,
        };
        shapes.set(JSON.stringify(shape), { form, name, shape });
      }
    }
    expect(shapes.size).toBeGreaterThanOrEqual(5);
    const cases = [...shapes.values()];
    fc.assert(
      fc.property(fc.constantFrom(...cases), texts, ({ form, name, shape }, text) => {
        const old = parseOperandText(text, shape);
        const now = readRegisterText(form, name, text);
        expect(answer(now), `${form.text} ${name} '${text}'`).toBe(answer(old));
      }),
      { numRuns: 20_000 },
    );
  });

  it('gives the cvt registers the bits cvt-operand-text.ts gave, f64 and rbits included', () => {
    const cases: { form: (typeof FORMS)[number]; name: CvtSourceName }[] = [];
    for (const form of FORMS) {
      if (form.family !== 'convert') continue;
      for (const { name } of form.registers)
        if (name !== 'd') cases.push({ form, name: name as CvtSourceName });
    }
    fc.assert(
      fc.property(fc.constantFrom(...cases), texts, ({ form, name }, text) => {
        const old = parseCvtRegisterText(text, findCvtForm(form.text)!, name);
        const now = readRegisterText(form, name, text);
        expect(answer(now), `${form.text} ${name} '${text}'`).toBe(answer(old));
      }),
      { numRuns: 20_000 },
    );
  });

  it('gives element fields and element values what element-text.ts and parseCvtElementText gave', () => {
    fc.assert(
      fc.property(fc.constantFrom(...ELEMENT_FORMAT_NAMES), texts, (format, text) => {
        const f = FORMATS[format];
        const field = readElementText(text, f);
        expect(answer(field), `${format} field '${text}'`).toBe(
          answer(parseCvtElementText(text, format, f.width)),
        );
        const old = parseElementValue(text, format);
        const now = readValueText(text, f);
        const nowAnswer = now.ok ? { ok: true as const, bits: now.value.bits } : now;
        expect(answer(nowAnswer), `${format} value '${text}'`).toBe(answer(old));
        if (old.ok && now.ok) expect(now.value.exact, `${format} '${text}' exact`).toBe(old.exact);
      }),
      { numRuns: 20_000 },
    );
  });
});
