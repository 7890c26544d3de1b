import type { Form } from './forms.ts';
import { parseInstruction, type SyntaxError } from './parse.ts';
import { comparePtx, type PtxVersion } from './ptx-versions.ts';
import { baselineTarget, targetProvides, type Target } from './targets.ts';
import {
  resolvePtx,
  resolveTarget,
  verdictFrom,
  type Reason,
  type UsageError,
  type VerdictOn,
} from './verdict.ts';
import type { SpellingNote } from './spelling.ts';
import type { Requirement } from './types.ts';

export {
  resolvePtx,
  resolveTarget,
  verdictFrom,
  type Reason,
  type UsageError,
  type VerdictOn,
} from './verdict.ts';

export type Verdict = VerdictOn<Form>;

export type CheckResult =
  | {
      readonly ok: true;
      readonly verdict: Verdict;
      readonly operands: readonly string[] | null;
      /** How the spec spells the form, when the input spells it another way ptxas accepts. */
      readonly spelling: SpellingNote | null;
    }
  | { readonly ok: false; readonly error: SyntaxError | UsageError };

/**
 * The concrete feature this requirement is about, for messages: "add.bf16", "fma.f32.f16",
 * "modifier .oob". Opcode and type always: "fma requires sm_100" would wrongly speak for fma.f16.
 */
function featureLabel(form: Form, r: Requirement): string {
  if (r.modifier) return `modifier .${r.modifier}`;
  return `${form.opcode}.${form.type}`;
}

export function verdictFor(form: Form, target: Target, ptx: PtxVersion): Verdict {
  const reasons: Reason[] = [];
  for (const r of form.requirements) {
    const label = featureLabel(form, r);
    if (!targetProvides(target, baselineTarget(r.sm))) {
      reasons.push({
        code: 'target',
        feature: r.feature,
        message: `${label} requires sm_${r.sm} or higher; target is ${target.name}`,
      });
    }
    if (comparePtx(ptx, r.ptx) < 0) {
      reasons.push({
        code: 'ptx-version',
        feature: r.feature,
        message: `${label} requires PTX ISA ${r.ptx}; PTX ISA version is ${ptx}`,
      });
    }
  }
  return verdictFrom(form, target, ptx, reasons);
}

/** Parse an instruction or line and judge it for a target and PTX ISA version. */
export function checkInstruction(
  input: string,
  targetName?: string,
  ptxVersion?: string,
): CheckResult {
  return checkParsed(parseInstruction(input), targetName, ptxVersion, verdictFor);
}

/**
 * A parse judged for a target and PTX ISA version (both resolved as `check` resolves them): the
 * verdict, or the parse's or the target's error. Shared by the arithmetic's check and any
 * instruction's (cvt included).
 */
export function checkParsed<F, V, S>(
  parsed:
    | {
        readonly ok: true;
        readonly form: F;
        readonly operands: readonly string[] | null;
        readonly spelling: S;
      }
    | { readonly ok: false; readonly error: SyntaxError },
  targetName: string | undefined,
  ptxVersion: string | undefined,
  judge: (form: F, target: Target, ptx: string) => V,
):
  | { ok: true; verdict: V; operands: readonly string[] | null; spelling: S }
  | { ok: false; error: SyntaxError | UsageError } {
  if (!parsed.ok) return parsed;
  const target = resolveTarget(targetName, ptxVersion);
  if ('code' in target) return { ok: false, error: target };
  const ptx = resolvePtx(ptxVersion);
  if (typeof ptx !== 'string') return { ok: false, error: ptx };
  return {
    ok: true,
    verdict: judge(parsed.form, target, ptx),
    operands: parsed.operands,
    spelling: parsed.spelling,
  };
}
