/**
 * One `ptxf batch` line that quantizes a block (engine/block-scale):
 *
 *   {"id": 1, "quantize": {"scheme": "mxfp4", "scaleRule": "ocp"},
 *    "values": ["0x3dcccccd", "2", …], "tensorAmax": "0x…", "rbits": ["0x…"], "trace": false}
 *
 * values and tensorAmax (NVFP4 only) follow the one operand rule (binary32 bits `0x…`, or a
 * value rounded to binary32 to nearest even); rbits (bits only) switch the element conversions
 * to cvt.rs, one word for every cvt or one per four elements; scaleRule defaults to the scheme's
 * first (ocp for MX, nvfp4 for NVFP4). The answer:
 *
 *   {"id": 1, "ok": true, "scheme": "mxfp4", "scaleRule": "ocp", "scale": "0x7f",
 *    "elements": ["0x1", …], "globalScale": "0x…" (NVFP4 only), "decoded": [0.5, …],
 *    "absErrors": […], "relErrors": [… or null], "ulpErrors": [… or null],
 *    "maxAbsError": …, "rmsError": …, "saturated": [indices], "flushedToZero": [indices]}
 *   (+ "ptx": the instruction lines, "cvt": each element's {form, registers, element}, with
 *    "trace": true)
 *
 * or {"id": 1, "ok": false, "error": {"code", "message": "line N: …"}}, code `json` for the
 * line's shape and the block-scale codes (scheme, scale-rule, length, value, tensor-amax, rbits)
 * for what the quantization refuses. Pure and total, as every batch line.
 */
import { quantizeBlock, type BlockQuantization } from '../engine/block-scale/index.ts';
import type { ExactValue } from '../engine/value.ts';
import { describe, errorLine, type BatchAnswer } from './batch-answer.ts';
import { defaultScaleRule, readF32, readRbits } from './quantize-request.ts';

const FIELDS = new Set(['id', 'quantize', 'values', 'tensorAmax', 'rbits', 'trace']);
const QUANTIZE_FIELDS = new Set(['scheme', 'scaleRule']);

const isStringList = (x: unknown): x is string[] =>
  Array.isArray(x) && x.every((s) => typeof s === 'string');

/** A finite exact value as the nearest double (every digit parsed: one rounding); NaN as null. */
const numberOf = (v: ExactValue): number | null => (v.kind === 'finite' ? Number(v.decimal) : null);

export function answerQuantizeLine(obj: Record<string, unknown>, lineNo: number): BatchAnswer {
  const id = obj.id;
  const fail = (code: string, message: string) => errorLine(id, code, lineNo, message);
  for (const key of Object.keys(obj))
    if (!FIELDS.has(key))
      return fail(
        'json',
        `unknown field ${JSON.stringify(key.slice(0, 40))} beside "quantize"; fields are ${[...FIELDS].join(', ')}`,
      );
  const q = obj.quantize;
  if (typeof q !== 'object' || q === null || Array.isArray(q))
    return fail(
      'json',
      `"quantize" must be an object such as {"scheme": "mxfp4", "scaleRule": "ocp"}, found ${describe(q)}`,
    );
  const spec = q as Record<string, unknown>;
  for (const key of Object.keys(spec))
    if (!QUANTIZE_FIELDS.has(key))
      return fail(
        'json',
        `unknown field ${JSON.stringify(key.slice(0, 40))} in "quantize"; fields are scheme, scaleRule`,
      );
  if (typeof spec.scheme !== 'string')
    return fail('scheme', `"quantize.scheme" must be a string such as "mxfp4"`);
  if (spec.scaleRule !== undefined && typeof spec.scaleRule !== 'string')
    return fail('scale-rule', `"quantize.scaleRule" must be a string such as "ocp"`);
  if (!isStringList(obj.values))
    return fail(
      'value',
      `"values" must be a list of strings such as ["0x3dcccccd", "2"], found ${describe(obj.values)}`,
    );
  const values: number[] = [];
  for (const [i, text] of obj.values.entries()) {
    const r = readF32(`value ${i}`, text);
    if (!r.ok) return fail('value', r.message);
    values.push(r.bits);
  }
  let tensorAmax: number | undefined;
  if (obj.tensorAmax !== undefined && obj.tensorAmax !== null) {
    if (typeof obj.tensorAmax !== 'string')
      return fail(
        'tensor-amax',
        `"tensorAmax" must be a string, found ${describe(obj.tensorAmax)}`,
      );
    const r = readF32('tensorAmax', obj.tensorAmax);
    if (!r.ok) return fail('tensor-amax', r.message);
    tensorAmax = r.bits;
  }
  let rbits: number[] | undefined;
  if (obj.rbits !== undefined && obj.rbits !== null) {
    const texts = typeof obj.rbits === 'string' ? [obj.rbits] : obj.rbits;
    if (!isStringList(texts))
      return fail('rbits', `"rbits" must be a string or a list of strings such as ["0x80ff7f01"]`);
    rbits = [];
    for (const [i, text] of texts.entries()) {
      const r = readRbits(`rbits ${i}`, text);
      if (!r.ok) return fail('rbits', r.message);
      rbits.push(r.bits);
    }
  }
  if (obj.trace !== undefined && obj.trace !== null && typeof obj.trace !== 'boolean')
    return fail('json', `"trace" must be true or false, found ${describe(obj.trace)}`);

  const result = quantizeBlock({
    scheme: spec.scheme,
    scaleRule: spec.scaleRule ?? defaultScaleRule(spec.scheme) ?? '',
    values,
    ...(tensorAmax === undefined ? {} : { tensorAmax }),
    ...(rbits === undefined ? {} : { rounding: 'rs', rbits }),
  });
  if (!result.ok) return fail(result.code, result.message);
  return { ok: true, json: JSON.stringify(answerOf(id, result, obj.trace === true)) };
}

function answerOf(id: unknown, r: BlockQuantization, trace: boolean) {
  const s = r.summary;
  return {
    id: id ?? null,
    ok: true,
    scheme: r.scheme,
    scaleRule: r.scaleRule,
    scale: r.scale.bits,
    elements: r.elements.map((e) => e.stored.bits),
    ...(r.globalScale ? { globalScale: r.globalScale.bits } : {}),
    decoded: r.elements.map((e) => numberOf(e.decoded)),
    absErrors: r.elements.map((e) => e.error?.absoluteNumber ?? null),
    relErrors: r.elements.map((e) => e.error?.relative ?? null),
    ulpErrors: r.elements.map((e) => e.error?.ulps ?? null),
    maxAbsError: s.maxAbsolute.number,
    rmsError: s.rms,
    saturated: s.saturated,
    flushedToZero: s.flushedToZero,
    ...(s.nan.length > 0 ? { nan: s.nan } : {}),
    ...(trace
      ? {
          ptx: r.program.lines.map((l) => l.text),
          cvt: r.elements.map((e) => ({
            form: e.cvt.form,
            registers: e.cvt.registers,
            element: e.cvt.element,
          })),
        }
      : {}),
  };
}
