/**
 * One line of `ptxf batch`: a JSON object in, one JSON line out. Pure and total: whatever the
 * line holds, the answer is a result or a structured error, never an exception.
 *
 * Input:  {"id": <any>, "instr": "fma.rn.relu.bf16x2", "target": "sm_90", "ptx": "8.6",
 *          "a": "0x3c003c00", "b": "0x...", "c": "1.5", "oob": ["b"], "trace": false,
 *          "vs": "fma.rn.bf16x2"}
 *         (operands: register bits 0x…/0b…, or a value rounded to the operand's format, as
 *         everywhere else: engine/operand-text.ts)
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
 *  - An operand named in `oob` may be left out: the engine gives a marked lane the OOB-NaN
 *    pattern whatever bits the register held. `oob` is allowed on every form — on forms
 *    without `.oob` the marked operand is simply a NaN (decision 'oob-nan-pattern').
 *  - A form that is not valid for the target/PTX ISA version is an error (code `target` or
 *    `ptx-version`, `target` when both apply) and is not evaluated.
 *  - `internal` is reserved for an exception inside the engine; the fuzz suite proves it does
 *    not occur, but if it ever did, the batch reports it on that line and keeps going.
 */
import type { CvtForm, CvtVerdict, Form, Verdict } from '../catalog/index.ts';
import { compileFast, compileFastBatch, evaluate, type EngineOptions } from '../engine/index.ts';
import { compileCvtFast } from '../engine/cvt-fast.ts';
import { BATCH_FIELDS, BatchFields, OPERAND_FIELDS, readBatchFields } from './batch-json.ts';
import { QuickShapes, ZERO_REGISTERS, type QuickForm } from './batch-quick.ts';
import { batchVariantFields } from './compare.ts';
import { answerCvtLine, cvtQuickForm } from './cvt-batch-line.ts';
import { opcodeOf, resolveCvtForm, type CvtFormResult } from './cvt-request.ts';
import { measuredOptions } from './measured-tables.ts';
import { formatBits } from './operands.ts';
import { answerQuantizeLine } from './quantize-line.ts';
import {
  destinationBits,
  resolveForm,
  resolveOperands,
  sourceOperands,
  type FormResult,
  type RequestErrorCode,
} from './request.ts';

export type BatchErrorCode = 'json' | RequestErrorCode | 'internal';

const FIELDS: ReadonlySet<string> = new Set(BATCH_FIELDS);
const NO_KEYS: readonly string[] = [];

type FastFn = (a: number, b: number, c: number) => number;

/**
 * Compiled fast paths, one per catalog form, shared by every batch in the process: compiling
 * one builds operand and result tables (tanh/ex2: 65,536 entries, each evaluated on first use),
 * worth doing once, not once per batch.
 * Bounded by the number of forms; batch uses the default engine options, and on a measured
 * target the measured tables for the approximate forms (measured-tables.ts).
 */
const fastPaths = new Map<string, FastFn>();
/** The same for the approximate forms of each measured set (keyed by its options object). */
const measuredFastPaths = new WeakMap<object, Map<string, FastFn>>();
function measuredPaths(options: object): Map<string, FastFn> {
  let paths = measuredFastPaths.get(options);
  if (!paths) measuredFastPaths.set(options, (paths = new Map()));
  return paths;
}

type CvtFastFn = ReturnType<typeof compileCvtFast>;
const cvtFastPaths = new Map<string, CvtFastFn>();

/**
 * Caches shared by the lines of one batch: parsed instructions (bounded, cleared when full, so
 * memory stays constant however many distinct instruction texts a long batch contains) and the
 * compiled fast paths.
 */
export class BatchCaches {
  private static readonly LIMIT = 4096;
  private readonly forms = new Map<string, FormResult>();

  private readonly cvtForms = new Map<string, CvtFormResult>();

  /**
   * The quick answers of line shapes (batch-quick.ts), prepared once per instruction, target and
   * PTX ISA version; null where the shape's lines take the full path (an invalid form, unreadable
   * measured tables, a register wider than 32 bits).
   */
  readonly quick = new QuickShapes(
    (instr, target, ptx) =>
      opcodeOf(instr) === 'cvt'
        ? cvtQuickForm(this.cvtForm(instr, target, ptx))
        : arithmeticQuickForm(this.form(instr, target, ptx)),
    BatchCaches.LIMIT,
  );

  /** A cvt instruction judged for the target and PTX ISA version (cached as form() is). */
  cvtForm(instr: string, target: string | undefined, ptx: string | undefined): CvtFormResult {
    const key = JSON.stringify([instr, target ?? null, ptx ?? null]);
    let hit = this.cvtForms.get(key);
    if (!hit) {
      hit = resolveCvtForm(instr, target, ptx);
      if (this.cvtForms.size >= BatchCaches.LIMIT) this.cvtForms.clear();
      this.cvtForms.set(key, hit);
    }
    return hit;
  }

  /** The compiled cvt fast path of a form, shared by every batch in the process. */
  cvtFastPath(form: CvtForm): CvtFastFn {
    let fn = cvtFastPaths.get(form.text);
    if (!fn) {
      fn = compileCvtFast(form);
      cvtFastPaths.set(form.text, fn);
    }
    return fn;
  }

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

  /** `options`: {} or a target's measured tables (one object per set, measured-tables.ts). */
  fastPath(form: Form, options: Partial<EngineOptions> = {}): FastFn {
    const paths = options.approxTables ? measuredPaths(options) : fastPaths;
    const cached = paths.get(form.text);
    if (cached) return cached;
    const fn: FastFn = compileFast(form, options);
    paths.set(form.text, fn);
    return fn;
  }
}

/**
 * The quick answer of an arithmetic line shape: the full path's verdict and measured tables,
 * prepared once, and the form's batch fast path; null where the shape's lines get an error.
 */
function arithmeticQuickForm(formResult: FormResult): QuickForm | null {
  if (!formResult.ok || !formResult.verdict.valid) return null;
  const { form, verdict } = formResult;
  const measured = measuredOptions(verdict.target, form);
  if (!measured.ok) return null;
  const batch = compileFastBatch(form, measured.options);
  const sources = sourceOperands(form);
  // The fast path takes a, b, c; an operand the form lacks is 0, as below.
  const at = (name: string) => sources.findIndex((s) => s.name === name);
  const [ia, ib, ic] = [at('a'), at('b'), at('c')];
  return {
    sources,
    width: destinationBits(form),
    evaluate: (regs, out, count) =>
      batch(
        regs[ia] ?? ZERO_REGISTERS,
        regs[ib] ?? ZERO_REGISTERS,
        regs[ic] ?? ZERO_REGISTERS,
        out,
        count,
      ),
  };
}

/** One output line (JSON text, no newline) and whether it reports success. */
export interface BatchAnswer {
  readonly ok: boolean;
  readonly json: string;
}

export function errorLine(
  id: unknown,
  code: BatchErrorCode,
  lineNo: number,
  message: string,
): BatchAnswer {
  const error = JSON.stringify({ code, message: `line ${lineNo}: ${message}` });
  return { ok: false, json: `{"id":${JSON.stringify(id ?? null)},"ok":false,"error":${error}}` };
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}

/**
 * A form not valid where the line runs it. `defaulted`: the line named neither target nor ptx,
 * so the default (sm_90, PTX ISA 8.6) was used, which the message says.
 */
export function verdictError(
  verdict: Verdict | CvtVerdict,
  defaulted = false,
): {
  code: 'target' | 'ptx-version';
  message: string;
} {
  const code = verdict.reasons.some((r) => r.code === 'target') ? 'target' : 'ptx-version';
  const minimum = `valid from ${verdict.minTarget} with PTX ISA ${verdict.minPtx}`;
  const why = defaulted
    ? `; the line names no "target" or "ptx", so the default ${verdict.target} with PTX ISA ${verdict.ptx} applies`
    : '';
  return {
    code,
    message: `${verdict.form.text} is not valid for ${verdict.target} with PTX ISA ${verdict.ptx}: ${verdict.reasons.map((r) => r.message).join('; ')} (${minimum})${why}`,
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
  const operands: Record<string, string> = {};
  for (const name of OPERAND_FIELDS) {
    const value = field(obj, name);
    if (value === undefined) continue;
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

  const vs = field(obj, 'vs');
  if (opcodeOf(instr) === 'cvt') {
    const answer = answerCvtLine(
      {
        id,
        lineNo,
        instr,
        target,
        ptx,
        trace: trace === true,
        operands,
        oob: oob as string[] | undefined,
        vs,
      },
      caches,
    );
    return answer;
  }
  const formResult = caches.form(instr, target, ptx);
  if (!formResult.ok) return errorLine(id, formResult.error.code, lineNo, formResult.error.message);
  const { form, verdict } = formResult;
  if (!verdict.valid) {
    const err = verdictError(verdict, target === undefined && ptx === undefined);
    return errorLine(id, err.code, lineNo, err.message);
  }
  const resolved = resolveOperands(form, operands, (oob as string[] | undefined) ?? []);
  if (!resolved.ok) return errorLine(id, resolved.error.code, lineNo, resolved.error.message);

  const measured = measuredOptions(verdict.target, form);
  if (!measured.ok) return errorLine(id, 'measured', lineNo, measured.message);

  const width = destinationBits(form);
  const idJson = JSON.stringify(id ?? null);
  const variant =
    vs === undefined
      ? ''
      : batchVariantFields(form, resolved.input, vs, lineNo, {
          invalid: (variant) => {
            const judged = caches.form(variant.text, target, ptx);
            if (!judged.ok) return judged.error;
            return judged.verdict.valid
              ? null
              : verdictError(judged.verdict, target === undefined && ptx === undefined);
          },
          // B on the line's target: measured results where A's would be.
          fastPath: (f) => {
            const m = measuredOptions(verdict.target, f);
            return caches.fastPath(f, m.ok ? m.options : {});
          },
        });
  if (trace === true || resolved.hasOob) {
    const result = evaluate(form, resolved.input, measured.options);
    const steps =
      trace === true ? `,"steps":${JSON.stringify(result.lanes.map((l) => l.steps))}` : '';
    return {
      ok: true,
      json: `{"id":${idJson},"ok":true,"d":"${formatBits(result.d, width)}"${steps}${variant}}`,
    };
  }
  const { a, b = 0, c = 0 } = resolved.input;
  const d = caches.fastPath(form, measured.options)(a, b, c);
  return {
    ok: true,
    json: `{"id":${idJson},"ok":true,"d":"${formatBits(d, width)}"${variant}}`,
  };
}
