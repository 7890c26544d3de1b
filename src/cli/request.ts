/**
 * One evaluation request as the CLI receives it (command-line arguments for `ptxf eval`, one
 * JSON line for `ptxf batch`), checked and turned into what the engine takes. Both commands
 * share this so they accept and reject exactly the same things with the same words.
 */
import {
  checkInstruction,
  DEFAULT_EVAL_PTX,
  DEFAULT_EVAL_TARGET,
  type Form,
  type FormatName,
  type OperandName,
  type SpellingNote,
  type Verdict,
} from '../catalog/index.ts';
import { operandProblem, type EvalInput, type OobMarks } from '../engine/index.ts';
import { parseOperand, quote } from './operands.ts';

/** `measured`: the target's measured tables (public/measured) could not be read. */
export type RequestErrorCode = 'syntax' | 'target' | 'ptx-version' | 'operand' | 'measured';

export interface RequestError {
  readonly code: RequestErrorCode;
  readonly message: string;
}

export type SourceOperand = Exclude<OperandName, 'd'>;

export interface SourceOperandInfo {
  readonly name: SourceOperand;
  readonly bits: 16 | 32;
  readonly format: FormatName;
  readonly lanes: 1 | 2;
}

// Per-form answers are memoised: batch asks them for every line, and forms are a fixed set.
const sourcesByForm = new WeakMap<Form, readonly SourceOperandInfo[]>();

/** Source operands the form takes, in the spec's order (`a, b, c`; mixed add/sub: `a, c`). */
export function sourceOperands(form: Form): readonly SourceOperandInfo[] {
  let sources = sourcesByForm.get(form);
  if (!sources) {
    sources = form.operands
      .filter((o): o is typeof o & { name: SourceOperand } => o.name !== 'd')
      .map((o) => ({ name: o.name, bits: o.bits, format: o.format, lanes: o.lanes }));
    sourcesByForm.set(form, sources);
  }
  return sources;
}

function takesOperand(form: Form, name: string): boolean {
  for (const o of sourceOperands(form)) if (o.name === name) return true;
  return false;
}

function operandList(form: Form): string {
  return sourceOperands(form)
    .map((o) => o.name)
    .join(', ');
}

export function destinationBits(form: Form): 16 | 32 {
  return form.operands[0]!.name === 'd'
    ? form.operands[0]!.bits
    : form.operands.find((o) => o.name === 'd')!.bits;
}

function operandError(message: string): { ok: false; error: RequestError } {
  return { ok: false, error: { code: 'operand', message } };
}

type OobResult =
  | { readonly ok: true; readonly marks: Partial<Record<SourceOperand, boolean>> }
  | { ok: false; error: RequestError };

/** An operand marked OOB-NaN holds the engine's OOB-NaN pattern, so its bits may be left out. */
function resolveOob(form: Form, oob: readonly string[]): OobResult {
  const marks: Partial<Record<SourceOperand, boolean>> = {};
  for (const name of oob) {
    if (!takesOperand(form, name)) {
      return operandError(
        `oob names ${quote(name)}, which is not a source operand of ${form.text} (it takes ${operandList(form)})`,
      );
    }
    if (marks[name as SourceOperand]) return operandError(`oob names operand ${name} twice`);
    marks[name as SourceOperand] = true;
  }
  return { ok: true, marks };
}

export type FormResult =
  | {
      readonly ok: true;
      readonly form: Form;
      readonly verdict: Verdict;
      /** Set when the instruction spells the form in another order ptxas accepts. */
      readonly spelling: SpellingNote | null;
    }
  | { readonly ok: false; readonly error: RequestError };

/**
 * The target and PTX ISA version an evaluation (`eval`, `batch`) is judged and run for: with
 * neither given, the page's default (sm_90 with PTX ISA 8.6, DEFAULT_EVAL_TARGET), so both give
 * the same bits; with one given, the other as `check` resolves it (the newest target that PTX ISA
 * version knows, or the newest version).
 */
export function evalTargetAndPtx(
  target: string | undefined,
  ptx: string | undefined,
): { target: string | undefined; ptx: string | undefined } {
  return target === undefined && ptx === undefined
    ? { target: DEFAULT_EVAL_TARGET, ptx: DEFAULT_EVAL_PTX }
    : { target, ptx };
}

/** Parse the instruction and judge it for the target and PTX ISA version (evalTargetAndPtx). */
export function resolveForm(instr: string, target?: string, ptx?: string): FormResult {
  const judged = evalTargetAndPtx(target, ptx);
  const checked = checkInstruction(instr, judged.target, judged.ptx);
  if (!checked.ok)
    return { ok: false, error: { code: checked.error.code, message: checked.error.message } };
  return {
    ok: true,
    form: checked.verdict.form,
    verdict: checked.verdict,
    spelling: checked.spelling,
  };
}

export type OperandsResult =
  | {
      readonly ok: true;
      readonly input: EvalInput;
      readonly hasOob: boolean;
      /** One line per operand given as a value: what was stored ("a = 1.5: stored 0x3e00 = 1.5"). */
      readonly stored: readonly string[];
    }
  | { readonly ok: false; readonly error: RequestError };

/**
 * The engine's input for a form from operand text by name and the operands marked OOB-NaN.
 * Names the form does not take are errors, so a mixed `add` given `b` is told it takes `a, c`.
 */
export function resolveOperands(
  form: Form,
  operands: Readonly<Record<string, string>>,
  oobNames: readonly string[],
): OperandsResult {
  const oob = resolveOob(form, oobNames);
  if (!oob.ok) return oob;
  for (const given in operands) {
    if (!takesOperand(form, given)) {
      return operandError(
        `${form.text} takes operands ${operandList(form)}; ${quote(given)} is not one of them`,
      );
    }
  }
  const input: { a: number; b?: number; c?: number; oob?: OobMarks } = { a: 0 };
  let hasOob = false;
  const stored: string[] = [];
  for (const shape of sourceOperands(form)) {
    const name = shape.name;
    const text = operands[name];
    if (oob.marks[name]) hasOob = true;
    if (text === undefined) {
      if (oob.marks[name]) {
        input[name] = 0;
        continue;
      }
      return operandError(`missing operand ${name}: ${form.text} takes ${operandList(form)}`);
    }
    const parsed = parseOperand(name, text, shape);
    if (!parsed.ok) return operandError(parsed.message);
    input[name] = parsed.bits;
    if (parsed.stored) stored.push(parsed.stored);
  }
  if (hasOob) input.oob = oob.marks;
  // The engine's own rules have the last word (e.g. a .f32 register cannot hold OOB-NaN).
  const problem = operandProblem(form, input);
  if (problem !== null) return operandError(problem);
  return { ok: true, input, hasOob, stored };
}
