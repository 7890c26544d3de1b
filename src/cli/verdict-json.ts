/**
 * A verdict as the CLI's --json output carries it (eval, check, --vs alike): whether the form is
 * valid for the target and PTX ISA version, why not, and the least target and version that have
 * it. Scripts read these fields the same way from every command.
 */
import { UNDOCUMENTED_FORM_FLAG } from '../catalog/instruction.ts';
import type { Verdict } from '../catalog/verdict.ts';

export function verdictFields(v: Verdict) {
  return {
    valid: v.valid,
    target: v.target,
    ptx: v.ptx,
    reasons: v.reasons,
    minTarget: v.minTarget,
    minPtx: v.minPtx,
  };
}

/** verdictFields, the spelling note, and the flag of a form only ptxas documents. */
export function evaluatedVerdictJson<S>(v: Verdict, spelling: S) {
  return {
    ...verdictFields(v),
    spelling,
    flag: v.form.documented ? null : UNDOCUMENTED_FORM_FLAG,
  };
}
