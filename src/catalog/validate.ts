import type { Form } from './forms.ts';
import { parseInstruction, type SyntaxError } from './parse.ts';
import { comparePtx, isKnownPtxVersion, NEWEST_PTX, type PtxVersion } from './ptx-versions.ts';
import {
  baselineTarget,
  findTarget,
  newestTargetFor,
  NEWEST_TARGET,
  ptxAcceptsTarget,
  targetProvides,
  type Target,
} from './targets.ts';
import type { SpellingNote } from './spelling.ts';
import type { Requirement } from './types.ts';

/** Why a form is not valid for a target and PTX ISA version. */
export interface Reason {
  readonly code: 'target' | 'ptx-version';
  /** The feature as the spec names it, e.g. `add{.rnd}.{bf16,bf16x2}`. */
  readonly feature: string;
  readonly message: string;
}

/** Whether a form (of the arithmetic, or of cvt) is valid for a target and PTX ISA version. */
export interface VerdictOn<F> {
  readonly valid: boolean;
  readonly form: F;
  readonly target: string;
  readonly ptx: PtxVersion;
  readonly reasons: readonly Reason[];
  /** Least target and PTX ISA version at which the form is valid. */
  readonly minTarget: string;
  readonly minPtx: PtxVersion;
}

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

export interface UsageError {
  readonly code: 'target' | 'ptx-version';
  readonly message: string;
}

/**
 * The concrete feature this requirement is about, for messages: "add.bf16", "fma.f32.f16",
 * "modifier .oob". Opcode and type always: "fma requires sm_100" would wrongly speak for fma.f16.
 */
function featureLabel(form: Form, r: Requirement): string {
  if (r.modifier) return `modifier .${r.modifier}`;
  return `${form.opcode}.${form.type}`;
}

/**
 * The verdict on a form from what its requirements say against the target and version, and
 * whether the version can name the target at all (`.target`).
 */
export function verdictFrom<F extends { readonly minTarget: string; readonly minPtx: PtxVersion }>(
  form: F,
  target: Target,
  ptx: PtxVersion,
  requirementReasons: readonly Reason[],
): VerdictOn<F> {
  const reasons = [...requirementReasons];
  if (!ptxAcceptsTarget(target, ptx)) {
    const message =
      comparePtx(ptx, target.minPtx) < 0
        ? `target ${target.name} requires PTX ISA ${target.minPtx}; PTX ISA version is ${ptx}`
        : `target ${target.name} exists only up to PTX ISA ${target.maxPtx}${target.note ? ` (${target.note})` : ''}; PTX ISA version is ${ptx}`;
    reasons.push({ code: 'ptx-version', feature: `.target ${target.name}`, message });
  }
  return {
    valid: reasons.length === 0,
    form,
    target: target.name,
    ptx,
    reasons,
    minTarget: form.minTarget,
    minPtx: form.minPtx,
  };
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

/**
 * The named target, or the default: the newest target of the PTX ISA version given (`ptx`, as
 * typed; the newest version when absent or unknown, whose own error comes from resolvePtx).
 */
export function resolveTarget(name: string | undefined, ptx?: string): Target | UsageError {
  const version = ptx?.trim();
  const t =
    name !== undefined
      ? findTarget(name)
      : version !== undefined && isKnownPtxVersion(version)
        ? newestTargetFor(version)
        : findTarget(NEWEST_TARGET);
  return (
    t ?? {
      code: 'target',
      message: `unknown target '${name}'; expected sm_50 … sm_121 with optional a/f suffix, e.g. sm_90a`,
    }
  );
}

export function resolvePtx(version: string | undefined): PtxVersion | UsageError {
  const v = (version ?? NEWEST_PTX).trim();
  return isKnownPtxVersion(v)
    ? v
    : {
        code: 'ptx-version',
        message: `unknown PTX ISA version '${version}'; expected 4.2 … ${NEWEST_PTX}`,
      };
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
