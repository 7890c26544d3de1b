/**
 * The engine against the independent reference model (tests/reference/slowfloat.ts), for EVERY
 * arithmetic form: cross products of edge values, then fast-check random vectors biased to
 * interesting bit patterns, then the engine options (.ftz tininess, OOB-NaN in marked lanes and
 * other patterns). Both engine paths are checked: the pipeline's d (src/engine/pipeline.ts) and
 * compileFast (fast).
 *
 * Size: PTXF_REF_VECTORS random vectors per form (default 150) plus the fixed edge cross products
 * (353,000 vectors in all at the default); the count run is printed at the end.
 */
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import type { Form } from '../src/catalog/instruction.ts';
import { ARITHMETIC_FORMS, operandsOf, type RefOperand } from './reference/catalog-forms.ts';
import { checkVector, describeMismatch, type Mismatch } from './reference/compare-engine.ts';
import { EDGE_VALUES, keyEdgeValues } from './reference/edge-values.ts';
import type { RefOobMarks } from './reference/slowfloat.ts';
import { randomRegisters, tapePick, type Registers } from './reference/vectors.ts';

function randomPerForm(): number {
  const text = process.env.PTXF_REF_VECTORS ?? '150';
  const n = Number(text);
  if (!Number.isSafeInteger(n) || n < 1)
    throw new Error(`PTXF_REF_VECTORS must be a positive integer, got "${text}"`);
  return n;
}
const RANDOM_PER_FORM = randomPerForm();
/** Show at most this many mismatches per form (the first ones are enough to debug). */
const REPORT_LIMIT = 8;

let vectorsChecked = 0;
afterAll(() => {
  console.log(
    `engine-vs-reference: ${vectorsChecked} vectors checked (${RANDOM_PER_FORM} random per form)`,
  );
});

function sourcesOf(form: Form): RefOperand[] {
  return operandsOf(form).filter((o) => o.name !== 'd');
}

/** Lane 1 of a packed operand takes the edge list rotated, so the two lanes see different pairs. */
const LANE1_SHIFT: Record<'a' | 'b' | 'c', number> = { a: 7, b: 11, c: 3 };

function* edgeCrossProduct(form: Form): Generator<Registers> {
  const sources = sourcesOf(form);
  const lists = sources.map((o, i) =>
    i === 2 ? keyEdgeValues(o.format) : [...EDGE_VALUES[o.format]],
  );
  const total = lists.reduce((n, l) => n * l.length, 1);
  for (let k = 0; k < total; k++) {
    const registers: Registers = { a: 0, b: 0, c: 0 };
    let rest = k;
    sources.forEach((o, i) => {
      const list = lists[i]!;
      const j = rest % list.length;
      rest = Math.floor(rest / list.length);
      const name = o.name as 'a' | 'b' | 'c';
      registers[name] =
        o.lanes === 2
          ? list[j]! + list[(j + LANE1_SHIFT[name]) % list.length]! * 0x10000
          : list[j]!;
    });
    yield registers;
  }
}

function expectNoMismatches(mismatches: Mismatch[]): void {
  expect(mismatches.slice(0, REPORT_LIMIT).map(describeMismatch)).toEqual([]);
}

describe('edge-value cross products, every form', () => {
  for (const form of ARITHMETIC_FORMS) {
    it(form.text, () => {
      const ternary = sourcesOf(form).length === 3;
      const mismatches: Mismatch[] = [];
      let i = 0;
      for (const registers of edgeCrossProduct(form)) {
        // The pipeline is slower: for 3-operand forms it runs on every 4th vector.
        const m = checkVector(form, registers, { traced: !ternary || i++ % 4 === 0 });
        if (m) mismatches.push(m);
        vectorsChecked++;
      }
      expectNoMismatches(mismatches);
    });
  }
});

const tape = fc.array(fc.nat(), { minLength: 48, maxLength: 48 });

describe('random vectors biased to interesting patterns, every form', () => {
  for (const form of ARITHMETIC_FORMS) {
    it(form.text, () => {
      fc.assert(
        fc.property(tape, (t) => {
          vectorsChecked++;
          const m = checkVector(form, randomRegisters(form, tapePick(t)));
          if (m) throw new Error(describeMismatch(m));
        }),
        { numRuns: RANDOM_PER_FORM },
      );
    });
  }
});

describe('engine options', () => {
  const ftzForms = ARITHMETIC_FORMS.filter((f) => f.modifiers.includes('ftz'));
  it(`.ftz with tininess before rounding (${ftzForms.length} forms)`, () => {
    for (const form of ftzForms) {
      fc.assert(
        fc.property(tape, (t) => {
          vectorsChecked++;
          const m = checkVector(form, randomRegisters(form, tapePick(t)), {
            options: { ftzTininess: 'before-rounding' },
          });
          if (m) throw new Error(describeMismatch(m));
        }),
        { numRuns: Math.max(20, Math.round(RANDOM_PER_FORM / 3)) },
      );
    }
  });

  const halfFma = ARITHMETIC_FORMS.filter((f) => f.opcode === 'fma' && !f.type.startsWith('f32.'));
  const mark = (
    packed: boolean,
  ): fc.Arbitrary<boolean | readonly [boolean, boolean] | undefined> =>
    packed
      ? fc.oneof(fc.constant(undefined), fc.boolean(), fc.tuple(fc.boolean(), fc.boolean()))
      : fc.oneof(fc.constant(undefined), fc.boolean());
  it(`OOB-NaN marks and oobNanBits on every half fma form (${halfFma.length} forms)`, () => {
    for (const form of halfFma) {
      const packed = form.type.endsWith('x2');
      const marks = fc.record({ a: mark(packed), b: mark(packed), c: mark(packed) });
      const nanBits = fc.constantFrom(0x7fff, 0xffff, 0x7e00, 0x7c01);
      fc.assert(
        fc.property(tape, marks, nanBits, (t, m, oobNanBits) => {
          vectorsChecked++;
          const oob = Object.fromEntries(
            Object.entries(m).filter(([, v]) => v !== undefined),
          ) as RefOobMarks;
          const mismatch = checkVector(form, randomRegisters(form, tapePick(t)), {
            oob,
            options: { oobNanBits },
          });
          if (mismatch) throw new Error(describeMismatch(mismatch));
        }),
        { numRuns: Math.max(20, Math.round(RANDOM_PER_FORM / 3)) },
      );
    }
  });
});
