/**
 * `ptxf eval` for cvt: `ptxf eval cvt.rn.satfinite.e4m3x2.f32 0x43fa0000 0x40880000`. The
 * operands come in the spec's order (a, b, e, f, rbits), each a `0x…` hex string of its
 * register's width; d is printed at the destination register's width, element by element, with
 * the trace of each conversion. Errors and exit statuses as for the other forms.
 */
import { UNDOCUMENTED_FORM_FLAG } from '../catalog/index.ts';
import { evaluateCvt, type CvtEvalResult } from '../engine/index.ts';
import { compareCvtWith, type CvtComparison } from '../engine/what-if/cvt-compare.ts';
import { cvtComparisonJson, renderCvtComparison, resolveCvtVariant } from './cvt-compare.ts';
import type { EvalArgs } from './eval.ts';
import type { CliIO } from './io.ts';
import { describeStep, renderDecisions } from './render-trace.ts';
import { elementText, renderCvtTrace } from './render-cvt.ts';
import { cvtSources, resolveCvtForm, resolveCvtOperands } from './cvt-request.ts';
import { evaluatedVerdictJson } from './verdict-json.ts';
import type { RequestError } from './request.ts';

function reject(io: CliIO, json: boolean, error: RequestError): number {
  if (json) io.out(JSON.stringify({ ok: false, error }));
  else io.err(`ptxf eval: error (${error.code}): ${error.message}`);
  return 1;
}

export function runCvtEval(args: EvalArgs, io: CliIO): number {
  const resolved = resolveCvtForm(args.instr, args.target, args.ptx);
  if (!resolved.ok) return reject(io, args.json, resolved.error);
  const { form, verdict, spelling } = resolved;
  if (args.oob.length > 0)
    return reject(io, args.json, {
      code: 'operand',
      message: `--oob marks OOB-NaN tensor elements of fma.oob; ${form.text} has none`,
    });
  const names = cvtSources(form).map((s) => s.name);
  if (args.operands.length !== names.length)
    return reject(io, args.json, {
      code: 'operand',
      message: `${form.text} takes ${names.length} operands (${names.join(', ')}); ${args.operands.length} given`,
    });
  const byName: Record<string, string> = {};
  args.operands.forEach((text, i) => (byName[names[i]!] = text));
  const operands = resolveCvtOperands(form, byName);
  if (!operands.ok) return reject(io, args.json, operands.error);
  // --vs: another cvt form on the same source values, judged for the same target and PTX ISA.
  let comparison: CvtComparison | null = null;
  if (args.vs !== undefined) {
    const variant = resolveCvtVariant(args.vs);
    if (!variant.ok)
      return reject(io, args.json, { code: 'syntax', message: variant.error.message });
    comparison = compareCvtWith(form, operands.input, variant.form, args.options);
  }
  const judged =
    comparison?.b.kind === 'form'
      ? resolveCvtForm(comparison.b.form.text, args.target, args.ptx)
      : null;
  const result = comparison?.a.result ?? evaluateCvt(form, operands.input, args.options);

  if (args.json) {
    const { elements, ...withoutElements } = result;
    io.out(
      JSON.stringify({
        ok: true,
        d: result.d,
        verdict: evaluatedVerdictJson(verdict, spelling),
        ...(operands.stored.length > 0 ? { stored: operands.stored } : {}),
        result: args.trace ? { ...withoutElements, elements } : withoutElements,
        ...(comparison && judged ? cvtComparisonJson(comparison, args.trace, judged) : {}),
      }),
    );
    return 0;
  }
  if (!verdict.valid) {
    for (const reason of verdict.reasons)
      io.err(
        `warning: not valid for ${verdict.target} / PTX ISA ${verdict.ptx}: ${reason.message}`,
      );
    io.err(
      `warning: ${form.text} is valid from ${verdict.minTarget} with PTX ISA ${verdict.minPtx}; evaluated anyway`,
    );
  }
  if (spelling) io.err(`note: ${spelling.message}`);
  for (const line of operands.stored) io.err(`note: ${line}`);
  if (!form.documented)
    io.err(`note: ${form.text} ${UNDOCUMENTED_FORM_FLAG} (the spec does not list it)`);
  if (judged?.ok && !judged.verdict.valid)
    for (const reason of judged.verdict.reasons)
      io.err(
        `warning: vs ${judged.form.text} is not valid for ${judged.verdict.target} / PTX ISA ${judged.verdict.ptx}: ${reason.message}; compared anyway`,
      );
  io.out(`${result.form}  →  d = ${result.d}`);
  for (const line of elementLines(result)) io.out(line);
  if (comparison) {
    io.out('');
    for (const line of renderCvtComparison(comparison)) io.out(line);
    return 0;
  }
  if (args.trace) {
    io.out('');
    for (const line of renderCvtTrace(result, describeStep)) io.out(line);
    const notes = renderDecisions(result);
    if (notes.length > 0) {
      io.out('');
      for (const line of notes) io.out(line);
    }
  }
  return 0;
}

/** One line per element: where it sits in d and what it holds. */
function elementLines(result: CvtEvalResult): string[] {
  return result.elements.map((e) => {
    const pack = e.steps.find((s) => s.kind === 'cvt-pack');
    if (!pack || pack.kind !== 'cvt-pack') return `  element ${e.index}: ${e.result}`;
    return `  d[${pack.slot.hi}:${pack.slot.lo}] = ${elementText(pack.result)}`;
  });
}
