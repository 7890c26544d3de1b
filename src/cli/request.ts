/**
 * One evaluation request as the CLI receives it (command-line arguments for `ptxf eval`, one
 * JSON line for `ptxf batch`), checked and turned into what the pipeline takes: the form judged
 * for a target and PTX ISA version (catalog/check-instruction.ts) and its source registers read
 * from operand text by the one rule (engine/register-text.ts). Both commands share this, for
 * every instruction, so they accept and reject exactly the same things with the same words.
 */
import { checkInstruction } from '../catalog/check-instruction.ts';
import type { Form, SourceName } from '../catalog/instruction.ts';
import type { SpellingNote } from '../catalog/spelling-note.ts';
import { DEFAULT_EVAL_PTX, DEFAULT_EVAL_TARGET } from '../catalog/targets.ts';
import type { Verdict } from '../catalog/verdict.ts';
import type { Registers } from '../engine/pipeline.ts';
import { isElementList, readMatrixList } from '../engine/matrix-text.ts';
import { readRegisterText, registerPlaces } from '../engine/register-text.ts';
import { elementStoredText, registerStoredText } from '../present/stored-text.ts';

/** `measured`: the target's measured tables (public/measured) could not be read. */
export type RequestErrorCode = 'syntax' | 'target' | 'ptx-version' | 'operand' | 'measured';

export interface RequestError {
  readonly code: RequestErrorCode;
  readonly message: string;
}

/** Longest name quoted back in an error message. */
const QUOTE_LIMIT = 40;

/** A name as given, in double quotes (JSON's escapes), at most QUOTE_LIMIT characters of it. */
export function quote(text: string): string {
  return JSON.stringify(text.length > QUOTE_LIMIT ? `${text.slice(0, QUOTE_LIMIT)}…` : text);
}

const operandError = (message: string): { ok: false; error: RequestError } => ({
  ok: false,
  error: { code: 'operand', message },
});

// Per-form answers are memoised: batch asks them for every line, and forms are a fixed set.
const sourcesByForm = new WeakMap<Form, readonly SourceName[]>();

/** The source registers a form takes, in the spec's order (`a, b, c`; mixed add: `a, c`). */
export function sourceNames(form: Form): readonly SourceName[] {
  let names = sourcesByForm.get(form);
  if (!names) {
    names = form.registers.slice(1).map((r) => r.name as SourceName);
    sourcesByForm.set(form, names);
  }
  return names;
}

export type FormResult =
  | {
      readonly ok: true;
      readonly form: Form;
      readonly verdict: Verdict;
      /** Set when the instruction spells the form another way (an order ptxas accepts). */
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

/**
 * A form not valid where a batch line runs it: `syntax` where ptxas refuses the name as written
 * (another case), else `target` or `ptx-version` (`target` when both apply). `defaulted`: the
 * line named neither target nor ptx, so the default (sm_90, PTX ISA 8.6) was used, which the
 * message says.
 */
export function verdictError(verdict: Verdict, defaulted = false): RequestError {
  // The name as written is the problem, whatever the target: the spelling's reason alone.
  const spelling = verdict.reasons.find((r) => r.code === 'spelling');
  if (spelling) return { code: 'syntax', message: spelling.message };
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

export type OperandsResult =
  | {
      readonly ok: true;
      readonly registers: Registers;
      /** One line per operand given as a value: what was stored ("a = 1.5: stored 0x3e00 = 1.5"). */
      readonly stored: readonly string[];
    }
  | { readonly ok: false; readonly error: RequestError };

/** Formats whose elements can hold the 16-bit OOB-NaN pattern (decision oob-nan-pattern). */
const OOB_FORMATS: ReadonlySet<string> = new Set(['f16', 'bf16']);

/**
 * The register with the OOB-NaN pattern in each of its elements, or why it cannot hold it: the
 * pattern is a 16-bit tensor element (.f16/.bf16) that `.oob` tests a and b for.
 */
function withOobPattern(
  form: Form,
  name: SourceName,
  register: bigint,
  pattern: number,
): { ok: true; bits: bigint } | { ok: false; error: RequestError } {
  const places = registerPlaces(form, name);
  const type = form.registers.find((r) => r.name === name)!.type;
  if (places.length === 0 || places.some((p) => !OOB_FORMATS.has(p.place.format)))
    return operandError(
      `operand ${name} holds .${type}: only 16-bit (.f16/.bf16) elements can be marked OOB-NaN, and ${form.text}'s ${name} has none`,
    );
  let bits = register;
  for (const { place } of places) {
    const width = BigInt(place.value.hi - place.value.lo + 1);
    const lo = BigInt(place.value.lo);
    const mask = ((1n << width) - 1n) << lo;
    bits = (bits & ~mask) | (BigInt(pattern) << lo);
  }
  return { ok: true, bits };
}

/**
 * The source registers of a form from operand text by name (a matrix form's row of A and column
 * of B also as a list of element texts, or one text of comma-separated elements: matrix-text.ts), and the operands marked OOB-NaN
 * (`oob`, holding `oobPattern` in every element; their text may be left out). Names the form
 * does not take are errors, so a mixed `add` given `b` is told it takes `a, c`.
 */
export function resolveOperands(
  form: Form,
  operands: Readonly<Record<string, string | readonly string[]>>,
  oob: readonly string[],
  oobPattern: number,
): OperandsResult {
  const names = sourceNames(form);
  const list = names.join(', ');
  const marked = new Set<string>();
  for (const name of oob) {
    if (!(names as readonly string[]).includes(name))
      return operandError(
        `oob names ${quote(name)}, which is not a source operand of ${form.text} (it takes ${list})`,
      );
    if (marked.has(name)) return operandError(`oob names operand ${name} twice`);
    marked.add(name);
  }
  for (const given in operands) {
    if (!(names as readonly string[]).includes(given))
      return operandError(
        `${form.text} takes operands ${list}; ${quote(given)} is not one of them`,
      );
  }
  const registers: Partial<Record<SourceName, bigint>> = {};
  const stored: string[] = [];
  for (const name of names) {
    const text = operands[name];
    let bits = 0n;
    const listName =
      name === 'a' || name === 'b' || name === 'scale_a' || name === 'scale_b' ? name : null;
    const rowOrColumn = form.matrix !== undefined && listName !== null;
    if (text !== undefined && typeof text !== 'string' && !rowOrColumn)
      return operandError(
        `operand ${name} is a list, which only a matrix form's row or column is; ${form.text} takes register text such as "0x3c00" or "1.5"`,
      );
    if (
      text !== undefined &&
      listName !== null &&
      rowOrColumn &&
      (typeof text !== 'string' || isElementList(text) || name.startsWith('scale_'))
    ) {
      // A matrix form's row or column (or a block-scaled form's scales), element by element.
      const list = readMatrixList(form, listName, text);
      if (!list.ok) return operandError(`operand ${name}: ${list.error.message}`);
      bits = list.bits;
      // Only what a typed element could not hold exactly: a row of k exact values needs no note.
      for (const { index, value, bits: given, width } of list.stored)
        if (value.outcome !== 'exact')
          stored.push(
            `${name}[${index}] = ${value.text}: ${elementStoredText(value, given, width)}`,
          );
    } else if (typeof text === 'string') {
      const read = readRegisterText(form, name, text);
      if (!read.ok) return operandError(`operand ${name}: ${read.error.message}`);
      bits = read.bits;
      if (read.written === 'value')
        stored.push(`${name} = ${text.trim()}: ${registerStoredText(form, read, read.places)}`);
    } else if (!marked.has(name)) {
      return operandError(`missing operand ${name}: ${form.text} takes ${list}`);
    }
    if (marked.has(name)) {
      const filled = withOobPattern(form, name, bits, oobPattern);
      if (!filled.ok) return filled;
      bits = filled.bits;
    }
    registers[name] = bits;
  }
  return { ok: true, registers, stored };
}
