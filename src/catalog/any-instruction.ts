/**
 * One entry point for every instruction of the catalog: the half- and mixed-precision arithmetic
 * (parse.ts, validate.ts) and the float-to-float conversions (cvt-parse.ts, cvt-validate.ts).
 * The opcode decides which parser reads the line; the answer says which kind of form it is.
 */
import type { CvtForm } from './cvt-forms.ts';
import { parseCvtInstruction, type CvtSpellingNote } from './cvt-parse.ts';
import { cvtVerdictFor, type CvtVerdict } from './cvt-validate.ts';
import type { Form } from './forms.ts';
import { parseInstruction, type SyntaxError } from './parse.ts';
import type { SpellingNote } from './spelling.ts';
import { OPCODES } from './types.ts';
import { checkParsed, verdictFor, type UsageError, type Verdict } from './validate.ts';

/** Every opcode the catalog knows, cvt last. */
export const ALL_OPCODES = [...OPCODES, 'cvt'] as const;

export type AnyForm = Form | CvtForm;

export const isCvtForm = (form: AnyForm): form is CvtForm => form.opcode === 'cvt';

export type AnyParseResult =
  | {
      readonly ok: true;
      readonly form: AnyForm;
      readonly operands: readonly string[] | null;
      readonly spelling: SpellingNote | CvtSpellingNote | null;
    }
  | { readonly ok: false; readonly error: SyntaxError };

export type AnyVerdict = Verdict | CvtVerdict;

export type AnyCheckResult =
  | {
      readonly ok: true;
      readonly verdict: AnyVerdict;
      readonly operands: readonly string[] | null;
      readonly spelling: SpellingNote | CvtSpellingNote | null;
    }
  | { readonly ok: false; readonly error: SyntaxError | UsageError };

/** The opcode as written: the first word, guard predicate skipped, up to the first '.'. */
function opcodeOf(input: string): { text: string; start: number } {
  const lead = /^\s*(@!?%?[A-Za-z_$][\w$]*\s+)?/.exec(input)![0].length;
  const text = /^[^\s.;,{]*/.exec(input.slice(lead))![0];
  return { text, start: lead };
}

export function parseAnyInstruction(input: string): AnyParseResult {
  const opcode = opcodeOf(input);
  if (opcode.text === 'cvt') return parseCvtInstruction(input);
  const parsed = parseInstruction(input);
  if (parsed.ok || !(parsed.error.expected as readonly string[]).includes(OPCODES[0])) {
    return parsed;
  }
  // An unknown opcode: name cvt among the choices too, keeping the arithmetic parser's hint.
  const caseHint = /\(opcodes are lower case: \w+\)/.exec(parsed.error.message)?.[0];
  const hint =
    opcode.text.toLowerCase() === 'cvt'
      ? ' (opcodes are lower case: cvt)'
      : caseHint
        ? ` ${caseHint}`
        : '';
  return {
    ok: false,
    error: {
      ...parsed.error,
      message:
        opcode.text === ''
          ? parsed.error.message
          : `unknown opcode '${opcode.text}'${hint}; expected one of ${ALL_OPCODES.join(', ')}`,
      expected: [...ALL_OPCODES],
    },
  };
}

/** The verdict for any catalog form. */
export function anyVerdictFor(
  form: AnyForm,
  target: Parameters<typeof verdictFor>[1],
  ptx: string,
): AnyVerdict {
  return isCvtForm(form) ? cvtVerdictFor(form, target, ptx) : verdictFor(form, target, ptx);
}

/** Parse any instruction or line and judge it for a target and PTX ISA version. */
export function checkAnyInstruction(
  input: string,
  targetName?: string,
  ptxVersion?: string,
): AnyCheckResult {
  return checkParsed(parseAnyInstruction(input), targetName, ptxVersion, anyVerdictFor);
}
