/**
 * The cvt cross-check against an external reference, element by element: every element of each
 * form is converted by the fast path (the traced path on every 32nd input gives the same d) and
 * compared with the reference's answer for the same conversion. Inputs are all patterns of a
 * 16-bit or narrower source, and every boundary class plus random values of an .f32/.f64 one.
 * Differences a reference is known to have are counted under their label, never hidden; any
 * other fails the case. Each row prints its counts.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { findForm } from '../../src/catalog/all-forms.ts';
import type { Form, SourceName } from '../../src/catalog/instruction.ts';
import { compileFast } from '../../src/engine/fast/index.ts';
import { evaluate } from '../../src/engine/pipeline.ts';
import type { RefCvtFormatName } from '../reference/cvt-formats.ts';
import { boundaryVectors, randomVectors, seeded } from '../reference/cvt-vectors.ts';
import type { ReferenceRunner } from './reference-process.ts';

/** A catalog cvt form and the reference's name for the same conversion. */
export interface CvtCase {
  readonly form: string;
  readonly op: string;
}

export interface CvtCrossSuite {
  /** The describe block's name. */
  readonly name: string;
  /** Whether the reference's tool is here (the suite skips, saying so, when it is not). */
  readonly available: boolean;
  /** The first test's name; it starts (or builds) the reference. */
  readonly startName: string;
  readonly start: () => ReferenceRunner;
  readonly startTimeoutMs?: number;
  /** Random values per form with an .f32/.f64 source, besides the boundary classes. */
  readonly random: number;
  readonly cases: readonly CvtCase[];
  /** The label of a difference the reference is known to have, or null. */
  readonly knownDifference: (c: CvtCase, engine: number, reference: number) => string | null;
}

/** The element inputs of a form's source: every pattern of a narrow one, boundaries and random else. */
function elementInputs(form: Form, random: number): bigint[] {
  const element = form.elements[0]!;
  const source = element.inputs[0]!;
  const src = source.format;
  if (src !== 'f32' && src !== 'f64') {
    const width = source.value.hi - source.value.lo + 1;
    return Array.from({ length: 2 ** width }, (_, v) => BigInt(v));
  }
  const next = seeded(form.text.length * 131 + 7);
  const dst = element.dest.format as RefCvtFormatName;
  return [...boundaryVectors(dst, src, next), ...randomVectors(dst, src, random, next)];
}

/** Registers with the same element value in every element of every source operand. */
function registersOf(form: Form, values: readonly bigint[]) {
  const arrays: Partial<Record<SourceName, Uint32Array | Float64Array>> = {};
  const sources = form.registers.slice(1);
  for (const op of sources) {
    const words = values.map((v) => {
      let reg = 0n;
      for (const e of form.elements)
        for (const p of e.inputs) if (p.operand === op.name) reg |= v << BigInt(p.value.lo);
      return reg;
    });
    arrays[op.name as SourceName] =
      op.bits === 64
        ? new Float64Array(BigUint64Array.from(words).buffer)
        : Uint32Array.from(words, (w) => Number(w));
  }
  return arrays;
}

interface Row {
  readonly name: string;
  compared: number;
  exact: number;
  readonly known: Map<string, number>;
  readonly unexpected: string[];
}

export function describeCvtCrossSuite(suite: CvtCrossSuite): void {
  const rows: Row[] = [];

  afterAll(() => {
    for (const r of rows) {
      const known = [...r.known].map(([label, n]) => `${n} ${label}`).join('; ');
      console.log(
        `${r.name}: ${r.compared} elements, ${r.exact} bit-exact${known ? `, known: ${known}` : ''}, ${r.unexpected.length} unexpected`,
      );
    }
  });

  describe.runIf(suite.available)(suite.name, () => {
    let host: ReferenceRunner;
    it(
      suite.startName,
      () => {
        host = suite.start();
        expect(host).toBeTypeOf('function');
      },
      suite.startTimeoutMs,
    );

    for (const c of suite.cases) {
      it(`${c.form} ~ ${c.op}`, () => {
        const form = findForm(c.form)!;
        expect(form, c.form).toBeDefined();
        const values = elementInputs(form, suite.random);
        const wide = form.elements[0]!.inputs[0]!.format === 'f64';
        const operands = wide
          ? [
              Uint32Array.from(values, (v) => Number(v >> 32n)),
              Uint32Array.from(values, (v) => Number(v & 0xffffffffn)),
            ]
          : [Uint32Array.from(values, (v) => Number(v))];
        const [answers] = host([{ op: c.op, operands }]);
        const out = new Uint32Array(values.length);
        compileFast(form.text).batch(registersOf(form, values), out, values.length);
        const row: Row = {
          name: `${c.form} ~ ${c.op}`,
          compared: 0,
          exact: 0,
          known: new Map(),
          unexpected: [],
        };
        rows.push(row);
        values.forEach((v, i) => {
          const d = out[i]!;
          // Traced on every 32nd input: the same d as the fast path.
          if (i % 32 === 0) {
            const input: Record<string, bigint> = {};
            for (const [name, arr] of Object.entries(registersOf(form, [v])))
              input[name] =
                arr instanceof Float64Array ? new BigUint64Array(arr.buffer)[0]! : BigInt(arr[0]!);
            expect(BigInt(evaluate(form, input).d), `${c.form} traced ${v}`).toBe(BigInt(d));
          }
          for (const e of form.elements) {
            const engine =
              Math.floor(d / 2 ** e.dest.value.lo) % 2 ** (e.dest.value.hi - e.dest.value.lo + 1);
            const reference = answers![i]!;
            row.compared++;
            if (engine === reference) row.exact++;
            else {
              const label = suite.knownDifference(c, engine, reference);
              if (label) row.known.set(label, (row.known.get(label) ?? 0) + 1);
              else if (row.unexpected.length < 8)
                row.unexpected.push(
                  `input 0x${v.toString(16)}: engine 0x${engine.toString(16)}, host 0x${reference.toString(16)}`,
                );
            }
          }
        });
        expect(row.unexpected).toEqual([]);
      });
    }
  });
}
