/**
 * cvt against numpy's conversions between float16, float32 and float64 (numpy_cvt_ref.py): every
 * .f16 input, every boundary class plus random values of the .f32/.f64 ones, element by element.
 * Known differences, counted and never hidden: numpy keeps a NaN's payload and sign (cvt gives
 * the canonical NaN, decision cvt-nan), and numpy does not saturate (.satfinite gives MAX_NORM
 * where numpy gives infinity). Skips where python3 or numpy is missing.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { findCvtForm, type CvtForm, type CvtSourceName } from '../../src/catalog/cvt-forms.ts';
import { compileCvtFastBatch } from '../../src/engine/cvt-fast.ts';
import { evaluateCvt } from '../../src/engine/ops/cvt.ts';
import type { RefCvtFormatName } from '../reference/cvt-formats.ts';
import { boundaryVectors, randomVectors, seeded } from '../reference/cvt-vectors.ts';
import { suiteNeeds } from '../support/tools.ts';
import { CROSS_SCALE, numpyCvtReference, type ReferenceRunner } from './reference-process.ts';

const hasNumpy = suiteNeeds('cvt ~ numpy', ['numpy']);
const RANDOM = 20_000 * CROSS_SCALE;

interface Case {
  readonly form: string;
  readonly op: string;
}

const CASES: Case[] = [
  { form: 'cvt.rn.f16.f32', op: 'f32_to_f16' },
  { form: 'cvt.rn.satfinite.f16.f32', op: 'f32_to_f16' },
  { form: 'cvt.rn.f16.f64', op: 'f64_to_f16' },
  { form: 'cvt.rn.f32.f64', op: 'f64_to_f32' },
  { form: 'cvt.f32.f16', op: 'f16_to_f32' },
];

/** The element inputs of a form's source: every pattern of a narrow one, boundaries and random else. */
function elementInputs(form: CvtForm): bigint[] {
  const element = form.elements[0]!;
  const src = element.source.format;
  if (src !== 'f32' && src !== 'f64') {
    const width = element.source.value.hi - element.source.value.lo + 1;
    return Array.from({ length: 2 ** width }, (_, v) => BigInt(v));
  }
  const random = seeded(form.text.length * 131 + 7);
  const dst = element.dest.format as RefCvtFormatName;
  return [...boundaryVectors(dst, src, random), ...randomVectors(dst, src, RANDOM, random)];
}

/** Registers with the same element value in every element of every source operand. */
function registersOf(form: CvtForm, values: readonly bigint[]) {
  const arrays: Partial<Record<CvtSourceName, Uint32Array | Float64Array>> = {};
  const sources = form.operands.slice(1);
  for (const op of sources) {
    const words = values.map((v) => {
      let reg = 0n;
      for (const e of form.elements)
        if (e.source.operand === op.name) reg |= v << BigInt(e.source.value.lo);
      return reg;
    });
    arrays[op.name as CvtSourceName] =
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

const rows: Row[] = [];

afterAll(() => {
  for (const r of rows) {
    const known = [...r.known].map(([label, n]) => `${n} ${label}`).join('; ');
    console.log(
      `${r.name}: ${r.compared} elements, ${r.exact} bit-exact${known ? `, known: ${known}` : ''}, ${r.unexpected.length} unexpected`,
    );
  }
});

/** numpy keeps NaN payloads and signs, and does not saturate. */
function knownDifference(c: Case, engine: number, host: number): string | null {
  const f16 = c.op.endsWith('f16');
  const nan = (x: number) => (f16 ? (x & 0x7fff) > 0x7c00 : (x & 0x7fffffff) > 0x7f800000);
  if (nan(engine) && nan(host)) return 'numpy keeps the NaN payload and sign (cvt: canonical NaN)';
  const inf = f16 ? 0x7c00 : 0x7f800000;
  const max = f16 ? 0x7bff : 0x7f7fffff;
  if (
    c.form.includes('satfinite') &&
    (host & ~(f16 ? 0x8000 : 0x80000000)) === inf &&
    (engine & ~(f16 ? 0x8000 : 0x80000000)) === max
  )
    return 'numpy does not saturate (.satfinite: MAX_NORM)';
  return null;
}

describe.runIf(hasNumpy)('cvt ~ numpy', () => {
  let host: ReferenceRunner;
  it('starts numpy', () => {
    host = numpyCvtReference();
    expect(host).toBeTypeOf('function');
  });

  for (const c of CASES) {
    it(`${c.form} ~ ${c.op}`, () => {
      const form = findCvtForm(c.form)!;
      expect(form, c.form).toBeDefined();
      const values = elementInputs(form);
      const wide = form.elements[0]!.source.format === 'f64';
      const operands = wide
        ? [
            Uint32Array.from(values, (v) => Number(v >> 32n)),
            Uint32Array.from(values, (v) => Number(v & 0xffffffffn)),
          ]
        : [Uint32Array.from(values, (v) => Number(v))];
      const [answers] = host([{ op: c.op, operands }]);
      const out = new Uint32Array(values.length);
      compileCvtFastBatch(form)(registersOf(form, values), out, values.length);
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
          expect(BigInt(evaluateCvt(form, input as never).d), `${c.form} traced ${v}`).toBe(
            BigInt(d),
          );
        }
        for (const e of form.elements) {
          const engine =
            Math.floor(d / 2 ** e.dest.value.lo) % 2 ** (e.dest.value.hi - e.dest.value.lo + 1);
          const reference = answers![i]!;
          row.compared++;
          if (engine === reference) row.exact++;
          else {
            const label = knownDifference(c, engine, reference);
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
