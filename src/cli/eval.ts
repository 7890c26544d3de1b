/**
 * `ptxf eval "<instr>" a b [c] [--target sm_90] [--ptx 8.6] [--oob a,b] [--json] [--no-trace]`
 * `[--all-digits] [--vs <instr|unfused>]`
 *
 * Evaluates one instruction, any form of the catalog, through the one pipeline
 * (engine/pipeline.ts), on operands named in the spec's order (mixed add/sub take a and c; cvt a,
 * b, e, f, rbits as its form has them), each register bits (`0x3c00`, `0b…`) or a value (`1.5`,
 * `-0`, `inf`, `nan`) rounded to each element's format by round-to-nearest-even and put in every
 * element (request.ts) — a matrix form's row of A and column of B also as a list of k elements
 * (engine/matrix-text.ts), evaluated under the target's tensor-core model — and prints the result element by element, what happened in one sentence,
 * the reference values and the trace in the step words of src/present; a note on stderr says
 * what each value stored. `--vs` compares with a variant on the same operand values
 * (compare.ts). A form that is not valid for the target or PTX ISA version is still evaluated —
 * the point is to see what it would compute — with a warning line per reason on stderr (and the
 * verdict in --json output); the exit status stays 0.
 *
 * On a target a GPU was measured for (sm_90, sm_90a), tanh.approx / ex2.approx give the
 * measured results (measured-tables.ts).
 *
 * Exit status: 0 evaluated; 1 the instruction, target, PTX ISA version or an operand was
 * rejected, or the target's measured tables could not be read (a structured error: on stderr,
 * or on stdout as JSON with --json; `internal` would be an exception inside the engine, which
 * the fuzz suite finds none of); 2 usage error.
 */
import { DEFAULT_ENGINE_OPTIONS, type EngineOptions } from '../engine/options.ts';
import { EngineError, evaluate } from '../engine/pipeline.ts';
import type { EvalResult } from '../engine/steps.ts';
import { compareWith, type Comparison, type Variant } from '../engine/what-if/comparison.ts';
import { referenceValues } from '../engine/what-if/reference-values.ts';
import type { Verdict } from '../catalog/verdict.ts';
import { decisionsText, traceText } from '../present/step-text.ts';
import { traceWords } from '../present/step-words.ts';
import { summaryOf } from '../present/summary.ts';
import type { SpellingNote } from '../catalog/spelling-note.ts';
import { formNotes } from './check.ts';
import { comparisonJson, comparisonLines, resolveVariant } from './compare.ts';
import { parseFlags } from './flags.ts';
import type { CliIO } from './io.ts';
import { loopLines, loopsJson, loopsOf } from './matrix-loops.ts';
import { measuredCvt } from './measured-cvt.ts';
import { measuredOptions } from './measured-tables.ts';
import {
  resolveForm,
  resolveOperands,
  sourceNames,
  verdictError,
  type RequestError,
  type RequestErrorCode,
} from './request.ts';
import { referenceJson, referenceLines, resultLines } from './result-lines.ts';
import { evaluatedVerdictJson } from './verdict-json.ts';
import { decision } from '../engine/decisions.ts';

export const EVAL_USAGE = [
  'usage: ptxf eval "<instr>" a b [c] [--target sm_90] [--ptx 8.6] [--oob a,b] [--vs <instr|unfused>]',
  '                  [--json] [--no-trace] [--all-digits]',
  '  operands: register bits with 0x or 0b (16-bit for .f16/.bf16, 32-bit for x2 and .f32), or a',
  "            value (1.5, 2, -0, 1e-3, inf, nan) rounded to the operand's format by",
  '            round-to-nearest-even and put in every lane; in the order of the spec syntax line',
  '            (mixed-precision add/sub take a and c); -1.5 is a value, not an option',
  '            cvt takes a, b, e, f, rbits as its form has them: bits at most as wide as the',
  '            register (.f64 16 hex digits, e4m3x2 4, e2m1x2 2, rbits 8) or a value in every',
  '            element (rbits: bits only), e.g. ptxf eval cvt.rn.satfinite.e4m3x2.f32 500 4.25',
  "            mma / wgmma take A's row and B's column as lists of k elements, each bits of its",
  "            format's width (tf32: its .b32) or a value, and C's element; --target picks the",
  '            tensor-core model, e.g. ptxf eval mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32',
  '            1,2,0.5,0,0,0,0,0 1,1,1,1,1,1,1,1 0x3f800000 --target sm_80 (a note names only the',
  '            elements a value could not be stored in exactly)',
  '            a block-scaled mma (.kind::mxf8f6f4, .kind::mxf4, .kind::mxf4nvf4 with .block_scale)',
  "            also takes the scales of A's row and B's column, one per chunk of .scale_vec_size",
  '            (UE8M0 or UE4M3 bits such as 0x7f, or values), after c or as --scale-a 0x7f,0x80',
  '            --scale-b 0x7f,0x7f; its target is sm_120a or the sm_120f family',
  '  --target, --ptx  run and judge the form for this target / PTX ISA version (default: sm_90',
  "                   with PTX ISA 8.6, the playground's default; --ptx alone: the newest target",
  '                   that version knows; --target alone: the newest PTX ISA version); on sm_90',
  '                   and sm_90a tanh.approx / ex2.approx give the results measured on an H100',
  '  --oob a,b        put the OOB-NaN pattern in every lane of these operands (their bits may be',
  '                   left out); .oob tests a and b for it',
  '  --ftz-tininess after-rounding|before-rounding',
  '                   when .ftz calls a result tiny (default after-rounding, as measured on an',
  '                   H100; see the notes)',
  '  --oob-nan 0x7ff7 the 16-bit OOB-NaN pattern (default 0x7ff7, as measured on an H100)',
  '  --vs <instr>     what if: compare with another form on the same operand values (carried by',
  "                   value into its formats: 0.1 in f16 becomes bf16's nearest), or --vs unfused:",
  "                   an fma as mul then add (each rounding); prints B's result and summary, B − A",
  "                   and each one's error against A's exact result, in ulps of A's format at A's",
  '                   result (no trace; --json carries both); a variant not valid for the target',
  '                   or PTX ISA version is compared anyway, with a warning',
  '                   e.g. --vs unfused, --vs fma.rn.bf16, --vs fma.rz.bf16, --vs fma.rn.f32.f16;',
  '                   any two forms compare, element by element: a cvt with another cvt or the',
  '                   arithmetic (cvt.rn.satfinite.e4m3x2.f32 … --vs cvt.rn.satfinite.e5m2x2.f32)',
  "  --json           print the evaluation and verdict as one JSON object; the trace's steps",
  '                   (result.elements[].steps) are described field by field in docs/trace.md',
  '  --no-trace       print only the result, the one-sentence summary and the reference values',
  '                   (the exact value; what f32 and f64 arithmetic round it to)',
  '  --all-digits     print exact decimals with every digit (default: 17 significant digits and',
  '                   "…" where there are more; --json always carries every digit)',
  '  exit status: 0 evaluated (also when the form is invalid for the target: a warning is printed),',
  '               1 rejected instruction/target/PTX version/operand, or unreadable measured',
  '               tables, 2 usage error',
];

export interface EvalArgs {
  readonly instr: string;
  readonly operands: readonly string[];
  /** Operands given by name (--scale-a, --scale-b: a block-scaled mma's scales), by register. */
  readonly named: Readonly<Record<string, string>>;
  readonly target?: string;
  readonly ptx?: string;
  readonly oob: readonly string[];
  /** The documented decisions' other readings (EngineOptions). */
  readonly options: Partial<EngineOptions>;
  readonly json: boolean;
  readonly trace: boolean;
  readonly allDigits: boolean;
  /** What-if: the variant to compare with, as typed (an instruction or `unfused`). */
  readonly vs?: string;
}

/** Command-line shape only; the contents are checked by resolveForm/resolveOperands. */
export function parseEvalArgs(
  args: readonly string[],
): EvalArgs | { usage: string } | { help: true } {
  const parsed = parseFlags(args, {
    valued: ['target', 'ptx', 'oob', 'ftz-tininess', 'oob-nan', 'vs', 'scale-a', 'scale-b'],
    boolean: ['json', 'no-trace', 'all-digits', 'help'],
  });
  if ('usage' in parsed) return parsed;
  if (parsed.switches.has('help')) return { help: true };
  const [instr, ...operands] = parsed.positional;
  if (instr === undefined)
    return { usage: 'missing the instruction, e.g. ptxf eval fma.rn.f16 0x3e00 0x4000 0x3400' };
  const options: { -readonly [K in keyof EngineOptions]?: EngineOptions[K] } = {};
  const tininess = parsed.values.get('ftz-tininess');
  if (tininess !== undefined) {
    if (tininess !== 'after-rounding' && tininess !== 'before-rounding')
      return { usage: `--ftz-tininess is after-rounding or before-rounding; got '${tininess}'` };
    options.ftzTininess = tininess;
  }
  const oobNan = parsed.values.get('oob-nan');
  if (oobNan !== undefined) {
    const bits = /^0x[0-9a-f]{1,4}$/i.test(oobNan.trim()) ? parseInt(oobNan.trim(), 16) : NaN;
    if (!(bits >= 0))
      return { usage: `--oob-nan takes a 16-bit hex pattern such as 0x7ff7; got '${oobNan}'` };
    options.oobNanBits = bits;
  }
  const oob = (parsed.values.get('oob') ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  const named: Record<string, string> = {};
  for (const flag of ['scale-a', 'scale-b']) {
    const text = parsed.values.get(flag);
    if (text !== undefined) named[flag.replace('-', '_')] = text;
  }
  return {
    instr,
    operands,
    named,
    target: parsed.values.get('target'),
    ptx: parsed.values.get('ptx'),
    oob,
    options,
    json: parsed.switches.has('json'),
    trace: !parsed.switches.has('no-trace'),
    allDigits: parsed.switches.has('all-digits'),
    vs: parsed.values.get('vs'),
  };
}

/**
 * On stderr: why A (and B) are not valid for the target and PTX ISA version, notes on A's
 * spelling and status, and what each value typed stored.
 */
function warnings(
  io: CliIO,
  verdict: Verdict,
  spelling: SpellingNote | null,
  variantVerdict: Verdict | null,
  stored: readonly string[],
): void {
  if (!verdict.valid) {
    for (const reason of verdict.reasons)
      io.err(
        `warning: not valid for ${verdict.target} / PTX ISA ${verdict.ptx}: ${reason.message}`,
      );
    // A name in another case is no matter of target: the spelling's reason says it all.
    io.err(
      verdict.reasons.some((r) => r.code !== 'spelling')
        ? `warning: ${verdict.form.text} is valid from ${verdict.minTarget} with PTX ISA ${verdict.minPtx}; evaluated anyway`
        : `warning: evaluated anyway, as ${verdict.form.text}`,
    );
  }
  if (variantVerdict && !variantVerdict.valid) {
    for (const reason of variantVerdict.reasons)
      io.err(
        `warning: vs ${variantVerdict.form.text} is not valid for ${variantVerdict.target} / PTX ISA ${variantVerdict.ptx}: ${reason.message}; compared anyway`,
      );
  }
  for (const note of formNotes(verdict, spelling)) io.err(`note: ${note}`);
  for (const line of stored) io.err(`note: ${line}`);
}

/** What `eval` refuses, with `internal` for an exception inside the engine (none is known). */
type EvalError = { readonly code: RequestErrorCode | 'internal'; readonly message: string };

function reject(io: CliIO, json: boolean, error: EvalError): number {
  if (json) io.out(JSON.stringify({ ok: false, error }));
  else io.err(`ptxf eval: error (${error.code}): ${error.message}`);
  return 1;
}

/**
 * Operand texts by register name, from those given in order: the spec's order, or where fewer
 * are given, the operands not marked OOB-NaN (a marked operand's bits do not matter), so
 * `--oob b` lets `a c` be given.
 */
function operandTexts(
  names: readonly string[],
  given: readonly string[],
  oob: readonly string[],
  formText: string,
): { ok: true; texts: Record<string, string> } | { ok: false; error: RequestError } {
  const unmarked = names.filter((n) => !oob.includes(n));
  const slots = given.length === names.length ? names : unmarked;
  if (given.length !== slots.length) {
    const alternative =
      unmarked.length !== names.length
        ? `, or ${unmarked.length} (${unmarked.join(', ')}) with --oob`
        : '';
    return {
      ok: false,
      error: {
        code: 'operand',
        message: `${formText} takes ${names.length} operands (${names.join(', ')})${alternative}; ${given.length} given`,
      },
    };
  }
  const texts: Record<string, string> = {};
  given.forEach((text, i) => (texts[slots[i]!] = text));
  return { ok: true, texts };
}

export function runEval(args: readonly string[], io: CliIO): number {
  const parsed = parseEvalArgs(args);
  if ('usage' in parsed) {
    io.err(`ptxf eval: ${parsed.usage}`);
    for (const line of EVAL_USAGE) io.err(line);
    return 2;
  }
  if ('help' in parsed) {
    for (const line of EVAL_USAGE) io.out(line);
    return 0;
  }
  const formResult = resolveForm(parsed.instr, parsed.target, parsed.ptx);
  if (!formResult.ok) return reject(io, parsed.json, formResult.error);
  const { form, verdict, spelling } = formResult;
  // A block-scaled mma exists only where its kinds do (sm_120a, the sm_120f family): elsewhere
  // there is no element to compute, and the target is refused.
  if (form.matrix?.blockScale && !verdict.valid)
    return reject(io, parsed.json, verdictError(verdict, parsed.target === undefined));

  // The operands not given by name, in the spec's order.
  const positional = sourceNames(form).filter((n) => !(n in parsed.named));
  const texts = operandTexts(positional, parsed.operands, parsed.oob, form.text);
  if (!texts.ok) return reject(io, parsed.json, texts.error);
  const oobPattern = parsed.options.oobNanBits ?? DEFAULT_ENGINE_OPTIONS.oobNanBits;
  const operands = resolveOperands(
    form,
    { ...texts.texts, ...parsed.named },
    parsed.oob,
    oobPattern,
  );
  if (!operands.ok) return reject(io, parsed.json, operands.error);

  let variant: Variant | null = null;
  if (parsed.vs !== undefined) {
    const resolved = resolveVariant(parsed.vs);
    if (!resolved.ok)
      return reject(io, parsed.json, { code: 'syntax', message: resolved.error.message });
    variant = resolved.variant;
  }
  // B is judged for the same target and PTX ISA version as A, and compared either way.
  const variantCheck =
    variant?.kind === 'form' ? resolveForm(variant.form.text, parsed.target, parsed.ptx) : null;
  const variantVerdict: Verdict | null = variantCheck?.ok ? variantCheck.verdict : null;

  // The target's measured tables where A or B is approximate (they change nothing else).
  const measured = [form, ...(variant?.kind === 'form' ? [variant.form] : [])].map((f) =>
    measuredOptions(verdict.target, f),
  );
  const unreadable = measured.find((m) => !m.ok);
  if (unreadable && !unreadable.ok)
    return reject(io, parsed.json, { code: 'measured', message: unreadable.message });
  // The target also picks a matrix form's tensor-core model (the others compute the same on every target).
  const options: Partial<EngineOptions> = Object.assign(
    { target: verdict.target },
    ...measured.map((m) => (m.ok ? m.options : {})),
    parsed.options,
  );

  let comparison: Comparison | null;
  let result: EvalResult;
  try {
    comparison = variant ? compareWith(form, operands.registers, variant, options) : null;
    result = comparison?.a.result ?? evaluate(form, operands.registers, options);
  } catch (e) {
    // A matrix form on a target no tensor-core model covers: the target is refused.
    if (e instanceof EngineError && e.code === 'target')
      return reject(io, parsed.json, { code: 'target', message: e.message });
    return reject(io, parsed.json, {
      code: 'internal',
      message: `engine failure: ${(e as Error)?.message ?? String(e)}`,
    });
  }
  const summary = summaryOf(result);
  const reference = comparison?.a.reference ?? referenceValues(result);
  // A cvt form measured on a GPU of this target: which, and how much of it the engine gives.
  const measuredCvtLine = form.family === 'convert' ? measuredCvt(verdict.target, form.text) : null;
  // A matrix form: what a CUDA-core loop of fma.rn gives in f32 and f64 beside the tensor core.
  const loops = loopsOf(form, operands.registers, verdict.target);

  if (parsed.json) {
    const { elements, ...withoutElements } = result;
    io.out(
      JSON.stringify({
        ok: true,
        d: result.d,
        summary,
        reference: referenceJson(reference),
        ...(loops ? { loops: loopsJson(loops) } : {}),
        verdict: evaluatedVerdictJson(verdict, spelling),
        ...(operands.stored.length > 0 ? { stored: operands.stored } : {}),
        ...(measuredCvtLine
          ? {
              measured: {
                on: measuredCvtLine.set.measuredOn,
                capture: measuredCvtLine.set.capture,
                inputs: measuredCvtLine.form.inputs,
                count: measuredCvtLine.form.count,
                agree: measuredCvtLine.form.agree,
                text: measuredCvtLine.text,
              },
            }
          : {}),
        result: parsed.trace ? { ...withoutElements, elements } : withoutElements,
        ...(comparison ? comparisonJson(comparison, parsed.trace, variantVerdict) : {}),
      }),
    );
    return 0;
  }
  warnings(io, verdict, spelling, variantVerdict, operands.stored);
  for (const line of resultLines(form, result)) io.out(line);
  io.out(`  summary: ${summary}`);
  if (measuredCvtLine) io.out(`  ${measuredCvtLine.text}`);
  for (const line of referenceLines(form, reference)) io.out(line);
  if (loops) for (const line of loopLines(loops)) io.out(line);
  if (comparison) {
    io.out('');
    for (const line of comparisonLines(comparison)) io.out(line);
    return 0;
  }
  if (parsed.trace) {
    const words = traceWords(result, decision, form);
    io.out('');
    for (const line of traceText(words, { allDigits: parsed.allDigits })) io.out(line);
    const notes = decisionsText(words);
    if (notes.length > 0) {
      io.out('');
      for (const line of notes) io.out(line);
    }
  }
  return 0;
}
