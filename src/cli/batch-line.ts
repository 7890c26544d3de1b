/**
 * One line of `ptxf batch`: a JSON object in, one JSON line out. Pure and total: whatever the
 * line holds, the answer is a result or a structured error, never an exception.
 *
 * Input:  {"id": <any>, "instr": "fma.rn.relu.bf16x2", "target": "sm_90", "ptx": "8.6",
 *          "a": "0x3c003c00", "b": "0x...", "c": "1.5", "oob": ["b"], "trace": false,
 *          "vs": "fma.rn.bf16x2"}
 *         (operands by the spec's names, a cvt's a, b, e, f, rbits too: register bits 0x…/0b…,
 *         or a value rounded to each element's format, as everywhere else: request.ts; an mma
 *         or wgmma form's a and b also as lists of k element texts, ["0x3c00", "1.5", …],
 *         evaluated under the line's target's tensor-core model)
 * Output: {"id": <same>, "ok": true, "d": "0x...."}            (+ "steps" when trace is true)
 *         (+ "vs_ok": true, "vs_d": "0x…": with "vs", the variant's result on the same operand
 *          values, or "vs_ok": false, "vs_error": {code, message}; the line's own answer stands)
 *         {"id": <same>, "ok": false, "error": {"code": "...", "message": "line N: ..."}}
 *
 * Decisions (summarised in `ptxf batch --help`):
 *  - A field that is null counts as absent (except `id`, which is echoed as given).
 *  - An absent `id` is answered with `"id": null`. Ids go through JSON.parse/stringify, so a
 *    number beyond double precision (a 20-digit integer) comes back rounded: use strings.
 *  - Fields other than the ones above are an error (code `json`), so a typo such as "trcae"
 *    is reported rather than silently ignored; `d` is an `operand` error (it is the result).
 *  - An operand named in `oob` may be left out: each of its elements holds the OOB-NaN
 *    pattern whatever bits the register held. `oob` is allowed on every register of .f16/.bf16
 *    elements — on forms without `.oob` the marked operand is simply a NaN (decision
 *    'oob-nan-pattern'); a register of other elements cannot hold it (an `operand` error).
 *  - A form that is not valid for the target/PTX ISA version is an error (code `target` or
 *    `ptx-version`, `target` when both apply; `syntax` for a name in another case, which
 *    ptxas refuses) and is not evaluated.
 *  - An untraced line is answered by the fast path (fast-path.ts), a traced one by the
 *    pipeline; the two are proven equal (tests/fast-vs-traced.test.ts).
 *  - `internal` is reserved for an exception inside the engine; the fuzz suite proves it does
 *    not occur, but if it ever did, the batch reports it on that line and keeps going.
 */
import type { Form } from '../catalog/instruction.ts';
import { DEFAULT_ENGINE_OPTIONS, type EngineOptions } from '../engine/options.ts';
import { hexOf } from '../engine/format.ts';
import { evaluate, type Registers } from '../engine/pipeline.ts';
import { describe, errorLine, type BatchAnswer } from './batch-answer.ts';
import { BATCH_FIELDS, BatchFields, OPERAND_FIELDS, readBatchFields } from './batch-json.ts';
import { QuickShapes, type QuickForm } from './batch-quick.ts';
import { batchVariantFields } from './compare.ts';
import { fastPath, type FastPath } from './fast-path.ts';
import { measuredOptions } from './measured-tables.ts';
import { answerQuantizeLine } from './quantize-line.ts';
import {
  resolveForm,
  resolveOperands,
  verdictError,
  type FormResult,
  type RequestErrorCode,
} from './request.ts';

export type BatchErrorCode = 'json' | RequestErrorCode | 'internal';

export { errorLine, type BatchAnswer } from './batch-answer.ts';

const FIELDS: ReadonlySet<string> = new Set(BATCH_FIELDS);
const NO_KEYS: readonly string[] = [];

/**
 * Fast paths, one per catalog form, shared by every batch in the process: compiling one builds
 * operand and result tables (tanh/ex2: 65,536 entries, each evaluated on first use), worth doing
 * once, not once per batch. Bounded by the number of forms; batch uses the default engine
 * options, and on a measured target the measured tables for the approximate forms
 * (measured-tables.ts).
 */
const fastPaths = new Map<string, FastPath>();
/** The same for the approximate forms of each measured set (keyed by its options object). */
const measuredFastPaths = new WeakMap<object, Map<string, FastPath>>();
function measuredPaths(options: object): Map<string, FastPath> {
  let paths = measuredFastPaths.get(options);
  if (!paths) measuredFastPaths.set(options, (paths = new Map()));
  return paths;
}

/**
 * Caches shared by the lines of one batch: parsed instructions (bounded, cleared when full, so
 * memory stays constant however many distinct instruction texts a long batch contains) and the
 * fast paths.
 */
export class BatchCaches {
  private static readonly LIMIT = 4096;
  private readonly forms = new Map<string, FormResult>();

  /**
   * The quick answers of line shapes (batch-quick.ts), prepared once per instruction, target and
   * PTX ISA version; null where the shape's lines take the full path (an invalid form, unreadable
   * measured tables, a register wider than 32 bits).
   */
  readonly quick = new QuickShapes(
    (instr, target, ptx) => quickForm(this, this.form(instr, target, ptx)),
    BatchCaches.LIMIT,
  );

  form(instr: string, target: string | undefined, ptx: string | undefined): FormResult {
    // JSON keeps the key unambiguous whatever characters the strings hold.
    const key = JSON.stringify([instr, target ?? null, ptx ?? null]);
    let hit = this.forms.get(key);
    if (!hit) {
      hit = resolveForm(instr, target, ptx);
      if (this.forms.size >= BatchCaches.LIMIT) this.forms.clear();
      this.forms.set(key, hit);
    }
    return hit;
  }

  /**
   * `options`: {} or a target's measured tables (one object per set, measured-tables.ts); a
   * matrix form's also its target.
   */
  fastPath(form: Form, options: Partial<EngineOptions> = {}): FastPath {
    const paths = options.approxTables ? measuredPaths(options) : fastPaths;
    // A matrix form's result depends on the target's model: one path per form and target.
    const key = options.target === undefined ? form.text : `${form.text} ${options.target}`;
    let path = paths.get(key);
    if (!path) paths.set(key, (path = fastPath(form, options)));
    return path;
  }
}

/**
 * The quick answer of a line shape: the full path's verdict and measured tables, prepared once,
 * and the form's batch fast path; null where the shape's lines get an error or a register is
 * wider than 32 bits.
 */
function quickForm(caches: BatchCaches, formResult: FormResult): QuickForm | null {
  if (!formResult.ok || !formResult.verdict.valid) return null;
  const { form, verdict } = formResult;
  const measured = measuredOptions(verdict.target, form);
  if (!measured.ok) return null;
  const batch = caches.fastPath(form, measured.options).batch;
  if (!batch) return null;
  return {
    sources: form.registers.slice(1),
    width: form.registers[0]!.bits,
    evaluate: batch,
  };
}

/** Answer one input line (without its newline); `lineNo` counts from 1. */
export function processBatchLine(raw: string, lineNo: number, caches: BatchCaches): BatchAnswer {
  // A UTF-8 byte order mark (files saved by some Windows editors) is not part of line 1's JSON.
  const line = lineNo === 1 && raw.startsWith('\uFEFF') ? raw.slice(1) : raw;
  if (line.trim() === '')
    return errorLine(null, 'json', lineNo, 'empty line; expected a JSON object');
  // The common shape is read directly (batch-json.ts); any other line by JSON.parse.
  let parsed: unknown = readBatchFields(line);
  if (parsed === undefined) {
    // A garbage line costs a SyntaxError; its stack trace is never shown and capturing it would
    // double the cost of such lines, so it is switched off for this synchronous call only.
    const stackTraceLimit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    try {
      parsed = JSON.parse(line);
    } catch (e) {
      return errorLine(null, 'json', lineNo, `not valid JSON (${(e as Error).message})`);
    } finally {
      Error.stackTraceLimit = stackTraceLimit;
    }
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    return errorLine(null, 'json', lineNo, `expected a JSON object, found ${describe(parsed)}`);
  }
  const obj = parsed as Record<string, unknown>;
  const id = obj.id;
  try {
    return answer(obj, id, lineNo, caches);
  } catch (e) {
    return errorLine(
      id,
      'internal',
      lineNo,
      `engine failure: ${(e as Error)?.message ?? String(e)}`,
    );
  }
}

/** A field's value; null counts as absent. */
function field(obj: Record<string, unknown>, name: string): unknown {
  const value = obj[name];
  return value === null ? undefined : value;
}

function answer(
  obj: Record<string, unknown>,
  id: unknown,
  lineNo: number,
  caches: BatchCaches,
): BatchAnswer {
  // A block to quantize has fields of its own (quantize-line.ts); readBatchFields reads none.
  if ('quantize' in obj) return answerQuantizeLine(obj, lineNo);
  // A line read by readBatchFields holds batch fields only: nothing to check.
  for (const key of obj instanceof BatchFields ? NO_KEYS : Object.keys(obj)) {
    if (FIELDS.has(key)) continue;
    if (key === 'd')
      return errorLine(
        id,
        'operand',
        lineNo,
        '"d" is the destination, computed by the instruction; give only its sources',
      );
    const shown = key.length > 40 ? `${key.slice(0, 40)}…` : key;
    return errorLine(
      id,
      'json',
      lineNo,
      `unknown field ${JSON.stringify(shown)}; fields are ${[...FIELDS].join(', ')}`,
    );
  }
  const instr = field(obj, 'instr');
  if (typeof instr !== 'string') {
    return errorLine(
      id,
      'syntax',
      lineNo,
      instr === undefined
        ? 'missing "instr", e.g. "fma.rn.f16"'
        : `"instr" must be a string, found ${describe(instr)}`,
    );
  }
  const target = field(obj, 'target');
  if (target !== undefined && typeof target !== 'string') {
    return errorLine(
      id,
      'target',
      lineNo,
      `"target" must be a string such as "sm_90", found ${describe(target)}`,
    );
  }
  const ptx = field(obj, 'ptx');
  if (ptx !== undefined && typeof ptx !== 'string') {
    return errorLine(
      id,
      'ptx-version',
      lineNo,
      `"ptx" must be a string such as "8.6", found ${describe(ptx)}`,
    );
  }
  const trace = field(obj, 'trace');
  if (trace !== undefined && typeof trace !== 'boolean') {
    return errorLine(id, 'json', lineNo, `"trace" must be true or false, found ${describe(trace)}`);
  }
  const oob = field(obj, 'oob');
  if (oob !== undefined && (!Array.isArray(oob) || !oob.every((x) => typeof x === 'string'))) {
    return errorLine(
      id,
      'operand',
      lineNo,
      `"oob" must be an array of operand names such as ["b"], found ${describe(oob)}`,
    );
  }
  // An untraced line of register bits: answered by its shape's prepared evaluator when it can
  // be (batch-quick.ts), with the same text as the full answer below.
  if (trace !== true && oob === undefined && field(obj, 'vs') === undefined) {
    const quick = caches.quick.get(instr, target, ptx)?.answer(obj, id, lineNo);
    if (quick !== undefined) return quick;
  }
  // A matrix form's row of A or column of B (and a block-scaled form's scales) may be a list of
  // element texts (request.ts).
  const operands: Record<string, string | readonly string[]> = {};
  for (const name of OPERAND_FIELDS) {
    const value = field(obj, name);
    if (value === undefined) continue;
    if (
      (name === 'a' || name === 'b' || name === 'scale_a' || name === 'scale_b') &&
      Array.isArray(value)
    ) {
      const bad = value.findIndex((x) => typeof x !== 'string');
      if (bad >= 0)
        return errorLine(
          id,
          'operand',
          lineNo,
          `operand ${name}[${bad}] must be one element's text such as "0x3c00" or "1.5", found ${describe(value[bad])}`,
        );
      operands[name] = value as string[];
      continue;
    }
    if (typeof value !== 'string') {
      return errorLine(
        id,
        'operand',
        lineNo,
        `operand ${name} must be a string such as "0x3c00" or "1.5", found ${describe(value)}`,
      );
    }
    operands[name] = value;
  }

  const formResult = caches.form(instr, target, ptx);
  if (!formResult.ok) return errorLine(id, formResult.error.code, lineNo, formResult.error.message);
  const { form, verdict } = formResult;
  const defaulted = target === undefined && ptx === undefined;
  if (!verdict.valid) {
    const err = verdictError(verdict, defaulted);
    return errorLine(id, err.code, lineNo, err.message);
  }
  const resolved = resolveOperands(
    form,
    operands,
    (oob as string[] | undefined) ?? [],
    DEFAULT_ENGINE_OPTIONS.oobNanBits,
  );
  if (!resolved.ok) return errorLine(id, resolved.error.code, lineNo, resolved.error.message);
  const { registers } = resolved;

  const measuredTables = measuredOptions(verdict.target, form);
  if (!measuredTables.ok) return errorLine(id, 'measured', lineNo, measuredTables.message);
  // The target picks a matrix form's tensor-core model (the others compute the same everywhere).
  const measured = form.matrix
    ? { options: { ...measuredTables.options, target: verdict.target } }
    : measuredTables;

  const idJson = JSON.stringify(id ?? null);
  const vs = field(obj, 'vs');
  const variant =
    vs === undefined
      ? ''
      : batchVariantFields(form, registers, vs, lineNo, {
          invalid: (variant) => {
            const judged = caches.form(variant.text, target, ptx);
            if (!judged.ok) return judged.error;
            return judged.verdict.valid ? null : verdictError(judged.verdict, defaulted);
          },
          // B on the line's target: measured results where A's would be.
          fastPath: (variant, carried: Registers) => {
            const m = measuredOptions(verdict.target, variant);
            return caches.fastPath(variant, m.ok ? m.options : {}).one(carried);
          },
        });
  if (trace === true) {
    const result = evaluate(form, registers, measured.options);
    const steps = JSON.stringify(result.elements.map((e) => e.steps));
    return {
      ok: true,
      json: `{"id":${idJson},"ok":true,"d":"${result.d}","steps":${steps}${variant}}`,
    };
  }
  const d = caches.fastPath(form, measured.options).one(registers);
  return {
    ok: true,
    json: `{"id":${idJson},"ok":true,"d":"${hexOf(d, form.registers[0]!.bits)}"${variant}}`,
  };
}
