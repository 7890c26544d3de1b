/**
 * An instruction or line as written, parsed (parse-instruction.ts) and judged (verdict.ts) for a
 * target and PTX ISA version: syntax first, then the target, then the version.
 */
import { parseInstruction, type SyntaxError } from './parse-instruction.ts';
import type { SpellingNote } from './spelling-note.ts';
import {
  resolvePtx,
  resolveTarget,
  verdictFor,
  type Reason,
  type UsageError,
  type Verdict,
} from './verdict.ts';

type CheckResult =
  | {
      readonly ok: true;
      readonly verdict: Verdict;
      readonly operands: readonly string[] | null;
      /** How the spec spells the form, when the input spells it another way. */
      readonly spelling: SpellingNote | null;
    }
  | { readonly ok: false; readonly error: SyntaxError | UsageError };

/**
 * Parse any instruction or line and judge it for a target and PTX ISA version (the newest of
 * each when not named). A name ptxas refuses as written (another case) is read as its form and
 * judged not valid, with the spelling as the reason.
 */
export function checkInstruction(
  input: string,
  targetName?: string,
  ptxVersion?: string,
): CheckResult {
  const parsed = parseInstruction(input);
  if (!parsed.ok) return parsed;
  const target = resolveTarget(targetName, ptxVersion);
  if ('code' in target) return { ok: false, error: target };
  const ptx = resolvePtx(ptxVersion);
  if (typeof ptx !== 'string') return { ok: false, error: ptx };
  const verdict = verdictFor(parsed.form, target, ptx);
  const spelling = parsed.spelling;
  const refused: Reason[] = spelling?.caseChanged
    ? [{ code: 'spelling', feature: spelling.written, message: spelling.message }]
    : [];
  return {
    ok: true,
    verdict:
      refused.length > 0
        ? { ...verdict, valid: false, reasons: [...refused, ...verdict.reasons] }
        : verdict,
    operands: parsed.operands,
    spelling,
  };
}
