/**
 * The one validator: whether a form exists for a target and PTX ISA version, from the rows of
 * its Target ISA Notes and PTX ISA Notes (FormRequirement) as ptxas 13.0 applies them
 * (tests/ptxas checks every form, near miss and spelling on every target and version), and
 * whether the version can name the target at all (`.target`). Each reason names its subject
 * (`add.bf16`, `modifier .oob`, or the feature in the spec's words) and what it requires.
 */
import type { Form, FormRequirement } from './instruction.ts';
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

/** Why a form, or a name as written, is not valid for a target and PTX ISA version. */
export interface Reason {
  /** `spelling`: ptxas refuses the name as written (another case: check-instruction.ts). */
  readonly code: 'target' | 'ptx-version' | 'spelling';
  /** The feature as the spec names it, e.g. `add{.rnd}.{bf16,bf16x2}`; the name as written. */
  readonly feature: string;
  readonly message: string;
}

/** Whether a form is valid for a target and PTX ISA version. */
export interface Verdict {
  readonly valid: boolean;
  readonly form: Form;
  readonly target: string;
  readonly ptx: PtxVersion;
  readonly reasons: readonly Reason[];
  /** Least target and PTX ISA version at which the form is valid. */
  readonly minTarget: string;
  readonly minPtx: PtxVersion;
}

export interface UsageError {
  readonly code: 'target' | 'ptx-version';
  readonly message: string;
}

const atLeast = (ptx: PtxVersion, v: PtxVersion) => comparePtx(ptx, v) >= 0;

/** Why one requirement fails for the target and version (empty when it holds). */
export function requirementReasons(r: FormRequirement, target: Target, ptx: PtxVersion): Reason[] {
  const reasons: Reason[] = [];
  const targetReason = (message: string): Reason => ({
    code: 'target',
    feature: r.feature,
    message: `${r.subject} ${message}; target is ${target.name}`,
  });
  const ptxReason = (v: PtxVersion): Reason => ({
    code: 'ptx-version',
    feature: r.feature,
    message: `${r.subject} requires PTX ISA ${v}; PTX ISA version is ${ptx}`,
  });
  switch (r.target.kind) {
    case 'baseline':
      if (!targetProvides(target, baselineTarget(r.target.sm)))
        reasons.push(targetReason(`requires sm_${r.target.sm} or higher`));
      if (!atLeast(ptx, r.ptx)) reasons.push(ptxReason(r.ptx));
      break;
    case 'either': {
      const options = r.target.options;
      const targetMet = options.filter((o) => targetProvides(target, baselineTarget(o.sm)));
      const ptxMet = options.filter((o) => atLeast(ptx, o.ptx));
      if (targetMet.some((o) => ptxMet.includes(o))) break;
      // As ptxas puts it: the least target the version allows, and the version the target
      // needs; when neither holds, both for the option of the oldest version.
      const oldest = [...options].sort((x, y) => comparePtx(x.ptx, y.ptx))[0]!;
      const bySm = [...(ptxMet.length > 0 ? ptxMet : [oldest])].sort((x, y) => x.sm - y.sm)[0]!;
      reasons.push(targetReason(`requires sm_${bySm.sm} or higher (with PTX ISA ${bySm.ptx})`));
      const byPtx = [
        ...(targetMet.length > 0 ? targetMet : ptxMet.length > 0 ? [] : [oldest]),
      ].sort((x, y) => comparePtx(x.ptx, y.ptx))[0];
      if (byPtx) reasons.push(ptxReason(byPtx.ptx));
      break;
    }
    case 'only': {
      const listed = r.target.targets.map((t) => findTarget(t)!);
      if (!listed.some((t) => targetProvides(target, t)))
        reasons.push(targetReason(`is supported on ${r.target.targets.join(', ')} only`));
      if (!atLeast(ptx, r.ptx)) reasons.push(ptxReason(r.ptx));
      break;
    }
  }
  return reasons;
}

/**
 * The verdict on a form from what its requirements say against the target and version, and
 * whether the version can name the target at all (`.target`).
 */
function verdictFrom(
  form: Form,
  target: Target,
  ptx: PtxVersion,
  requirementReasons: readonly Reason[],
): Verdict {
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

/** Whether a form is valid for a target and PTX ISA version, with every reason it is not. */
export function verdictFor(form: Form, target: Target, ptx: PtxVersion): Verdict {
  const reasons = form.requirements.flatMap((r) => requirementReasons(r, target, ptx));
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
