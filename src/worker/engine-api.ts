import { findForm, laneFormat, type Form } from '../catalog/index.ts';
import {
  compileFast,
  errorBoundOf,
  evaluate,
  FORMATS,
  mathFunction,
  shortestDecimal,
  specialValues,
  toDouble,
  classify,
  type FloatFormat,
} from '../engine/index.ts';
import type {
  ApproxSweep,
  CornerRow,
  CornerTable,
  CornerValue,
  EngineApi,
  EvaluateRequest,
  SpecCornerCheck,
  SweepProgress,
} from './api.ts';

/**
 * The engine behind the worker contract. Pure computation over plain data: the worker exposes
 * it with Comlink, and the client runs the same object on the main thread when workers fail.
 */

const SWEEP_CHUNK = 4096;

/** The special values of a format, named as the corner-case tables list them. */
export function specialInputs(f: FloatFormat): { name: string; bits: number }[] {
  const s = specialValues(f);
  return [
    { name: '+0', bits: s.plusZero },
    { name: '-0', bits: s.minusZero },
    { name: '+min subnormal', bits: s.minSubnormal },
    { name: '-min subnormal', bits: s.minSubnormal + f.signMask },
    { name: '+max subnormal', bits: s.maxSubnormal },
    { name: '+min normal', bits: s.minNormal },
    { name: '-min normal', bits: s.minNormal + f.signMask },
    { name: '+1', bits: s.one },
    { name: '-1', bits: s.minusOne },
    { name: '+max finite', bits: s.maxFinite },
    { name: '-max finite', bits: s.maxFinite + f.signMask },
    { name: '+inf', bits: s.plusInf },
    { name: '-inf', bits: s.minusInf },
    { name: 'NaN', bits: s.canonicalNaN },
    { name: 'sNaN', bits: s.signalingNaN },
  ];
}

/** fma's table would have 15³ rows: a useful selection of the addend instead. */
function fmaAddends(f: FloatFormat): { name: string; bits: number }[] {
  const pick = new Set(['+0', '-0', '+1', '-max finite', '-inf', 'NaN']);
  return specialInputs(f).filter((v) => pick.has(v.name));
}

function operandFormat(form: Form, name: 'a' | 'b' | 'c'): FloatFormat | null {
  const op = form.operands.find((o) => o.name === name);
  return op ? FORMATS[op.format] : null;
}

/** Register bits holding `bits` in every lane of the operand. */
function fill(form: Form, name: 'a' | 'b' | 'c', bits: number): number {
  const op = form.operands.find((o) => o.name === name)!;
  return op.lanes === 2 ? ((bits << 16) | bits) >>> 0 : bits;
}

function describe(bits: number, f: FloatFormat): CornerValue {
  return { class: classify(bits, f), value: shortestDecimal(bits, f), number: toDouble(bits, f) };
}

export function cornerTable(formText: string): CornerTable {
  const form = findForm(formText);
  if (!form) return { form: formText, rows: [] };
  const run = compileFast(form);
  const fa = operandFormat(form, 'a')!;
  const fb = operandFormat(form, 'b');
  const fc = operandFormat(form, 'c');
  const fd = FORMATS[form.operands[0]!.format];
  const as = specialInputs(fa);
  const bs = fb ? specialInputs(fb) : [null];
  const cs = fc ? (fb ? fmaAddends(fc) : specialInputs(fc)) : [null];
  const rows: CornerRow[] = [];
  for (const a of as) {
    for (const b of bs) {
      for (const c of cs) {
        const A = fill(form, 'a', a.bits);
        const B = b ? fill(form, 'b', b.bits) : 0;
        const C = c ? fill(form, 'c', c.bits) : 0;
        const d = run(A, B, C);
        const lane0 = fd.width === 16 ? d & 0xffff : d;
        rows.push({
          a: A,
          ...(b ? { b: B } : {}),
          ...(c ? { c: C } : {}),
          names: { a: a.name, ...(b ? { b: b.name } : {}), ...(c ? { c: c.name } : {}) },
          inputs: {
            a: describe(a.bits, fa),
            ...(b && fb ? { b: describe(b.bits, fb) } : {}),
            ...(c && fc ? { c: describe(c.bits, fc) } : {}),
          },
          d,
          dClass: classify(lane0, fd),
          dValue: shortestDecimal(lane0, fd),
          dNumber: toDouble(lane0, fd),
        });
      }
    }
  }
  return { form: form.text, rows };
}

const CORNER_INPUT_BITS: Record<string, (f: FloatFormat) => number> = {
  '-inf': (f) => f.infBits + f.signMask,
  '-subnormal': (f) => f.signMask + 1,
  '-0': (f) => f.signMask,
  '+0': () => 0,
  '+subnormal': () => 1,
  '+inf': (f) => f.infBits,
  nan: (f) => specialValues(f).canonicalNaN,
};

/** Does the engine's answer match the spec table's entry? */
function agrees(expected: string, bits: number, input: number, f: FloatFormat): boolean {
  const s = specialValues(f);
  switch (expected) {
    case '+0.0':
      return bits === 0;
    case '-0.0':
      return bits === f.signMask;
    case '+1.0':
      return bits === s.one;
    case '-1.0':
      return bits === s.minusOne;
    case '+inf':
      return bits === f.infBits;
    case 'nan':
      return Number.isNaN(toDouble(bits, f));
    default:
      return bits === input;
  }
}

export function specCornerChecks(formText: string): SpecCornerCheck[] {
  const form = findForm(formText);
  if (!form?.record.cornerCases) return [];
  const f = FORMATS[laneFormat(form.type)];
  const checks: SpecCornerCheck[] = [];
  for (const table of form.record.cornerCases) {
    if (!table.types.includes(form.type)) continue;
    for (const row of table.rows) {
      const input = CORNER_INPUT_BITS[row.input]!(f);
      const engineBits = evaluate(form, { a: fill(form, 'a', input) }).lanes[0]!.result;
      checks.push({
        title: table.title,
        input: row.input,
        inputBits: input,
        expected: row.result,
        engineBits,
        engineValue: shortestDecimal(engineBits, f),
        agrees: agrees(row.result, engineBits, input, f),
      });
    }
  }
  return checks;
}

export function createEngineApi(): EngineApi {
  const cancelled = new Set<number>();
  return {
    ping: () => 'pong',
    evaluate: (req: EvaluateRequest) => {
      try {
        return {
          ok: true,
          result: evaluate(req.form, { a: req.a, b: req.b, c: req.c, oob: req.oob }),
        };
      } catch (err) {
        return { ok: false, error: err instanceof Error ? err.message : String(err) };
      }
    },
    cornerTable,
    specCornerChecks,
    approxSweep: async (
      id: number,
      formText: string,
      onProgress: (p: SweepProgress) => void,
    ): Promise<ApproxSweep> => {
      const form = findForm(formText);
      if (!form || (form.opcode !== 'tanh' && form.opcode !== 'ex2'))
        throw new Error(`${formText} is not an approximate op`);
      const f = FORMATS[laneFormat(form.type)];
      const bound = errorBoundOf(form.record, form.type);
      const run = compileFast(form);
      const total = 65536;
      const ratio = new Float64Array(total).fill(NaN);
      const unscored = new Uint8Array(total);
      const x = new Float64Array(total);
      const minNormal = toDouble(2 ** f.manBits, f);
      let worst = { input: 0, ratio: 0 };
      for (let start = 0; start < total; start += SWEEP_CHUNK) {
        if (cancelled.has(id)) {
          cancelled.delete(id);
          return {
            form: form.text,
            boundKind: bound.kind,
            boundLog2: bound.log2,
            ratio,
            unscored,
            x,
            worst,
            cancelled: true,
          };
        }
        for (let i = start; i < start + SWEEP_CHUNK; i++) {
          const xi = toDouble(i, f);
          x[i] = xi;
          const exact = mathFunction(form.opcode, xi);
          const model = toDouble(run(i, 0, 0) & 0xffff, f);
          if (!Number.isFinite(exact) || !Number.isFinite(model)) continue;
          const err = Math.abs(model - exact);
          // A relative bound speaks of normal results: below the smallest normal (2^x of a finite
          // x is never 0, even where a double underflows to it) the input is counted apart.
          // For x = -inf the exact value really is 0, and so is the result: scored, error 0.
          const tiny = Math.abs(exact) < minNormal && (exact !== 0 || Number.isFinite(xi));
          if (bound.kind === 'relative' && tiny) {
            unscored[i] = 1;
            continue;
          }
          const relative = exact === 0 ? err : err / Math.abs(exact);
          const r = (bound.kind === 'absolute' ? err : relative) / 2 ** bound.log2;
          ratio[i] = r;
          if (r > worst.ratio) worst = { input: i, ratio: r };
        }
        onProgress({ done: start + SWEEP_CHUNK, total });
        // Yield so a cancel message can be handled between chunks.
        await new Promise((resolve) => setTimeout(resolve, 0));
      }
      return {
        form: form.text,
        boundKind: bound.kind,
        boundLog2: bound.log2,
        ratio,
        unscored,
        x,
        worst,
        cancelled: false,
      };
    },
    cancelSweep: (id: number) => {
      cancelled.add(id);
    },
    crash: () => {
      setTimeout(() => {
        throw new Error('crash requested by the test hook');
      }, 0);
    },
    hang: (ms: number) => {
      const until = Date.now() + ms;
      while (Date.now() < until) {
        /* busy: the worker stops answering */
      }
    },
  };
}
