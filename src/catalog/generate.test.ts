import { describe, expect, it } from 'vitest';
import { CVT_RECORD, CVT_TYPE_TOKENS } from './records/convert.ts';
import { RECORDS } from './records/index.ts';
import { typeParts } from './record.ts';

/** The records as the generator reads them (tests/catalog-golden.test.ts pins the forms it makes). */
describe('the records', () => {
  it('write the syntax lines of every form, each with the operands of its text', () => {
    for (const record of RECORDS) {
      for (const line of record.lines) {
        expect(line.text, line.text).toContain(` ${line.operands};`);
        expect(line.types.length, line.text).toBeGreaterThan(0);
      }
    }
  });

  it('name in the cvt type grammar exactly the types the cvt lines use', () => {
    const used = new Set(
      CVT_RECORD.lines.flatMap((l) => l.types.flatMap((t) => Object.values(typeParts(t)))),
    );
    expect([...used].sort()).toEqual([...CVT_TYPE_TOKENS].sort());
  });
});
