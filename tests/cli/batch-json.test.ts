/**
 * readBatchFields, the batch's reader of the common line shape, against JSON.parse: whatever it
 * reads, JSON.parse reads the same (every field the same value, no other key); on the common
 * shape it always reads; on anything else it may give up, and JSON.parse decides.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BATCH_FIELDS, readBatchFields } from '../../src/cli/batch-json.ts';

/** The reader's fields agree with JSON.parse's object, or the reader gave up. */
function agrees(line: string): boolean {
  const fields = readBatchFields(line);
  if (fields === undefined) return true;
  const parsed = JSON.parse(line) as Record<string, unknown>;
  expect(typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)).toBe(true);
  for (const key of Object.keys(parsed)) expect(BATCH_FIELDS).toContain(key);
  for (const key of BATCH_FIELDS) {
    expect(Object.is(fields[key], parsed[key]), `${key} of ${line}`).toBe(true);
  }
  return true;
}

const key = fc.constantFrom(...BATCH_FIELDS);
const anyValue = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary' }),
  fc.integer(),
  fc.double(),
  fc.maxSafeInteger(),
  fc.bigInt({ min: -(10n ** 20n), max: 10n ** 20n }).map((b) => Number(b)),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.string(), { maxLength: 3 }),
  fc.constantFrom('0x3c00', 'fma.rn.f16', '1.5', 'a"b', 'back\\slash', 'tab\there'),
);
const space = fc.constantFrom('', '', ' ', '\t', '  ', '\r', '\n');

/** A JSON object text written with arbitrary spacing, keys possibly repeated or unknown. */
const objectText = fc
  .tuple(
    fc.array(
      fc.tuple(fc.oneof(key, key, key, fc.string({ maxLength: 8 })), anyValue, space, space),
      { maxLength: 8 },
    ),
    space,
    space,
  )
  .map(
    ([entries, open, close]) =>
      `${open}{${entries.map(([k, v, s1, s2]) => `${s1}${JSON.stringify(k)}${s2}:${s1}${JSON.stringify(v)}${s2}`).join(',')}}${close}`,
  );

/** The common shape: each key once, strings without escapes, short integers, literals. */
const plainString = fc.string({ unit: fc.constantFrom(...'0123456789abcdefx.rnf_sm AZé€') });
const commonValue = fc.oneof(
  plainString,
  fc.integer({ min: -(10 ** 15) + 1, max: 10 ** 15 - 1 }),
  fc.boolean(),
  fc.constant(null),
);
const commonText = fc
  .uniqueArray(fc.tuple(key, commonValue, fc.constantFrom('', ' ', '\t')), {
    selector: ([k]) => k,
    maxLength: 13,
  })
  .map(
    (entries) =>
      `{${entries.map(([k, v, s]) => `${s}${JSON.stringify(k)}${s}:${s}${JSON.stringify(v)}`).join(',')}}`,
  );

describe('readBatchFields', () => {
  it('reads what JSON.parse reads, or gives up (arbitrary objects)', () => {
    fc.assert(fc.property(objectText, agrees), { numRuns: 3000 });
  });

  it('reads what JSON.parse reads, or gives up (objects cut short or with a character changed)', () => {
    fc.assert(
      fc.property(
        commonText,
        fc.nat(),
        fc.constantFrom('', '"', '\\', ',', '}', '{', ':', '0', '-', ' ', 'x', '\u0001', '.', 'e'),
        (text, at, inserted) => {
          const i = at % (text.length + 1);
          agrees(text.slice(0, i));
          agrees(text.slice(0, i) + inserted + text.slice(i));
          agrees(text.slice(0, i) + inserted + text.slice(i + 1));
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('always reads the common shape', () => {
    fc.assert(
      fc.property(commonText, (text) => {
        expect(readBatchFields(text), text).toBeDefined();
        agrees(text);
      }),
      { numRuns: 3000 },
    );
  });

  it.each([
    ['{}', true],
    ['  {"id": -0 , "instr":"add.rn.f16"}  ', true],
    ['{"id":123456789012345}', true],
    ['{"id":1234567890123456}', false], // 16 digits: JSON.parse's rounding decides
    ['{"id":0123}', false],
    ['{"id":1.5}', false],
    ['{"id":1e3}', false],
    ['{"id":-}', false],
    ['{"a":"\\u0030x3c00"}', false],
    ['{"id":1}x', false],
    ['{"id":1,}', false],
    ['{"id":1,"id":2}', false],
    ['{"d":"0x0"}', false],
    ['{"oob":["b"]}', false],
    ['{"trace":tru}', false],
    ['{"instr":"add.f16', false],
    ['', false],
    ['[1]', false],
  ])('%s → %s', (line, reads) => {
    expect(readBatchFields(line) !== undefined).toBe(reads);
    agrees(line);
  });
});
