/**
 * A cvt request as `ptxf eval` and `ptxf batch` receive it: the instruction judged for a target
 * and PTX ISA version, and its operands by the spec's names (a, b, e, f, rbits), each by the one
 * rule for operand text (src/engine/cvt-operand-text.ts): `0x…`/`0b…` bits of at most the
 * register's width (.f32 8 hex digits, .f64 16, .f16/.bf16 4, x2 of 16-bit values 8, of 8-bit
 * values 4, e2m1x2 2, rbits 8), or a value rounded to the source element format and put in every
 * element. Shared by both commands, so they accept and reject the same things with the same words.
 */
import {
  checkAnyInstruction,
  isCvtForm,
  type CvtForm,
  type CvtSourceName,
  type CvtSpellingNote,
  type CvtVerdict,
} from '../catalog/index.ts';
import { parseCvtRegisterText } from '../engine/cvt-operand-text.ts';
import { registerHex } from '../engine/cvt-registers.ts';
import { cvtOperandProblem, type CvtInput } from '../engine/index.ts';
import { quote } from './operands.ts';
import { evalTargetAndPtx, type RequestError } from './request.ts';

/** The opcode as written: the first word after an optional guard, up to the first '.'. */
export function opcodeOf(instr: string): string {
  const lead = /^\s*(@!?%?[A-Za-z_$][\w$]*\s+)?/.exec(instr)![0].length;
  return /^[^\s.;,{]*/.exec(instr.slice(lead))![0];
}

export type CvtFormResult =
  | {
      readonly ok: true;
      readonly form: CvtForm;
      readonly verdict: CvtVerdict;
      readonly spelling: CvtSpellingNote | null;
    }
  | { readonly ok: false; readonly error: RequestError };

/** A cvt instruction judged for the target and PTX ISA version (evalTargetAndPtx). */
export function resolveCvtForm(instr: string, target?: string, ptx?: string): CvtFormResult {
  const judged = evalTargetAndPtx(target, ptx);
  const checked = checkAnyInstruction(instr, judged.target, judged.ptx);
  if (!checked.ok)
    return { ok: false, error: { code: checked.error.code, message: checked.error.message } };
  const form = checked.verdict.form;
  if (!isCvtForm(form))
    return { ok: false, error: { code: 'syntax', message: `${form.text} is not a cvt` } };
  return {
    ok: true,
    form,
    verdict: checked.verdict as CvtVerdict,
    spelling: checked.spelling as CvtSpellingNote | null,
  };
}

/** The source operands of a cvt form in the spec's order, with their register widths. */
export function cvtSources(form: CvtForm): { name: CvtSourceName; bits: number }[] {
  return form.operands.slice(1).map((o) => ({ name: o.name as CvtSourceName, bits: o.bits }));
}

/** `0x` and the register's bits, as many hex digits as its width needs. */
export const cvtHex = registerHex;

function operandError(message: string): { ok: false; error: RequestError } {
  return { ok: false, error: { code: 'operand', message } };
}

/** The engine's input from operand text by name; names the form does not take are errors. */
export function resolveCvtOperands(
  form: CvtForm,
  operands: Readonly<Record<string, string>>,
): { ok: true; input: CvtInput; stored: readonly string[] } | { ok: false; error: RequestError } {
  const sources = cvtSources(form);
  const list = sources.map((s) => s.name).join(', ');
  for (const given in operands) {
    if (!sources.some((s) => s.name === given))
      return operandError(
        `${form.text} takes operands ${list}; ${quote(given)} is not one of them`,
      );
  }
  const input: Partial<Record<CvtSourceName, bigint>> = {};
  const stored: string[] = [];
  for (const { name } of sources) {
    const text = operands[name];
    if (text === undefined)
      return operandError(`missing operand ${name}: ${form.text} takes ${list}`);
    const parsed = parseCvtRegisterText(text, form, name);
    if (!parsed.ok) return operandError(`operand ${name}: ${parsed.message}`);
    input[name] = parsed.bits;
    if (parsed.stored) stored.push(`${name} = ${text.trim()}: ${parsed.stored}`);
  }
  const full = input as CvtInput;
  const problem = cvtOperandProblem(form, full);
  return problem === null ? { ok: true, input: full, stored } : operandError(problem);
}
