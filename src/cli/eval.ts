/**
 * `ptxf eval "<instr>" a b [c] [--target sm_90] [--ptx 8.6] [--oob a,b] [--json] [--no-trace]`
 *
 * Evaluates one instruction on register bits given in hex (`0x3c00`; 32-bit for x2 and .f32
 * registers) named in the spec's order (mixed add/sub take a and c) and prints the result with
 * its trace. A form that is not valid for the target or PTX ISA version is still evaluated — the
 * point is to see what it would compute — with a warning line per reason on stderr (and the
 * verdict in --json output); the exit status stays 0.
 *
 * Exit status: 0 evaluated; 1 the instruction, target, PTX ISA version or an operand was
 * rejected (a structured error: on stderr, or on stdout as JSON with --json); 2 usage error.
 */
import type { Verdict } from '../catalog/index.ts';
import { evaluate } from '../engine/index.ts';
import type { CliIO } from './io.ts';
import { formatBits } from './operands.ts';
import {
  destinationBits,
  resolveForm,
  resolveOperands,
  sourceOperands,
  type RequestError,
} from './request.ts';
import { bitsText, renderDecisions, renderTrace } from './render-trace.ts';

export const EVAL_USAGE = [
  'usage: ptxf eval "<instr>" a b [c] [--target sm_90] [--ptx 8.6] [--oob a,b] [--json] [--no-trace]',
  '  operands: register bits in hex with 0x (16-bit for .f16/.bf16, 32-bit for x2 and .f32),',
  '            in the order of the spec syntax line (mixed-precision add/sub take a and c)',
  '  --target, --ptx  judge the form for this target / PTX ISA version (default: newest)',
  '  --oob a,b        operands holding OOB-NaN in every lane (their bits may be left out at the end)',
  '  --json           print the evaluation and verdict as one JSON object',
  '  --no-trace       print only the result',
  '  exit status: 0 evaluated (also when the form is invalid for the target: a warning is printed),',
  '               1 rejected instruction/target/PTX version/operand, 2 usage error',
];

export interface EvalArgs {
  readonly instr: string;
  readonly operands: readonly string[];
  readonly target?: string;
  readonly ptx?: string;
  readonly oob: readonly string[];
  readonly json: boolean;
  readonly trace: boolean;
}

/** Command-line shape only; the contents are checked by resolveForm/resolveOperands. */
export function parseEvalArgs(args: readonly string[]): EvalArgs | { usage: string } {
  const positional: string[] = [];
  let target: string | undefined;
  let ptx: string | undefined;
  let oob: string[] = [];
  let json = false;
  let trace = true;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const eq = arg.indexOf('=');
    const [flag, inline] =
      arg.startsWith('--') && eq > 0 ? [arg.slice(0, eq), arg.slice(eq + 1)] : [arg, undefined];
    const value = (): string | undefined => inline ?? args[++i];
    switch (flag) {
      case '--target':
      case '--ptx':
      case '--oob': {
        const v = value();
        if (v === undefined) return { usage: `${flag} needs a value` };
        if (flag === '--target') target = v;
        else if (flag === '--ptx') ptx = v;
        else
          oob = v
            .split(',')
            .map((s) => s.trim())
            .filter((s) => s !== '');
        break;
      }
      case '--json':
      case '--no-trace':
        if (inline !== undefined) return { usage: `${flag} takes no value` };
        if (flag === '--json') json = true;
        else trace = false;
        break;
      case '--':
        positional.push(...args.slice(i + 1));
        i = args.length;
        break;
      default:
        // A negative number is not a flag, but operands are hex with 0x, so any '-' word is one.
        if (arg.startsWith('-') && arg.length > 1) return { usage: `unknown option ${arg}` };
        positional.push(arg);
    }
  }
  const [instr, ...operands] = positional;
  if (instr === undefined)
    return { usage: 'missing the instruction, e.g. ptxf eval fma.rn.f16 0x3c00 0x4000 0x3400' };
  return { instr, operands, target, ptx, oob, json, trace };
}

function verdictJson(v: Verdict) {
  return {
    valid: v.valid,
    target: v.target,
    ptx: v.ptx,
    reasons: v.reasons,
    minTarget: v.minTarget,
    minPtx: v.minPtx,
  };
}

function reject(io: CliIO, json: boolean, error: RequestError): number {
  if (json) io.out(JSON.stringify({ ok: false, error }));
  else io.err(`ptxf eval: error (${error.code}): ${error.message}`);
  return 1;
}

export function runEval(args: readonly string[], io: CliIO): number {
  const parsed = parseEvalArgs(args);
  if ('usage' in parsed) {
    io.err(`ptxf eval: ${parsed.usage}`);
    for (const line of EVAL_USAGE) io.err(line);
    return 2;
  }
  const formResult = resolveForm(parsed.instr, parsed.target, parsed.ptx);
  if (!formResult.ok) return reject(io, parsed.json, formResult.error);
  const { form, verdict } = formResult;

  const names = sourceOperands(form).map((o) => o.name);
  if (parsed.operands.length > names.length) {
    return reject(io, parsed.json, {
      code: 'operand',
      message: `${form.text} takes ${names.length} operands (${names.join(', ')}); ${parsed.operands.length} given`,
    });
  }
  const byName: Record<string, string> = {};
  parsed.operands.forEach((text, i) => (byName[names[i]!] = text));
  const operands = resolveOperands(form, byName, parsed.oob);
  if (!operands.ok) return reject(io, parsed.json, operands.error);

  const result = evaluate(form, operands.input);
  const width = destinationBits(form);
  const dHex = formatBits(result.d, width);

  if (parsed.json) {
    const { lanes, ...withoutLanes } = result;
    io.out(
      JSON.stringify({
        ok: true,
        d: dHex,
        verdict: verdictJson(verdict),
        result: parsed.trace ? { ...withoutLanes, lanes } : withoutLanes,
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
  io.out(`${result.form}  →  d = ${dHex}`);
  if (result.lanes.length > 1) {
    for (const lane of result.lanes)
      io.out(`  lane ${lane.lane}: ${bitsText(lane.result, result.dFormat)}`);
  } else {
    io.out(`  ${bitsText(result.d, result.dFormat)}`);
  }
  if (parsed.trace) {
    io.out('');
    for (const line of renderTrace(result)) io.out(line);
    const notes = renderDecisions(result);
    if (notes.length > 0) {
      io.out('');
      for (const line of notes) io.out(line);
    }
  }
  return 0;
}
