/**
 * Whether a cvt form exists for a target and PTX ISA version: the requirements of its Target
 * ISA Notes and PTX ISA Notes rows, as ptxas 13.0 applies them (tests/ptxas checks every form,
 * near miss and spelling on every target and version).
 */
import type { CvtForm } from './cvt-forms.ts';
import type { CvtRequirement } from './cvt-instructions.ts';
import { comparePtx, type PtxVersion } from './ptx-versions.ts';
import { baselineTarget, findTarget, targetProvides, type Target } from './targets.ts';
import { verdictFrom, type Reason, type VerdictOn } from './validate.ts';

export type CvtVerdict = VerdictOn<CvtForm>;

const atLeast = (ptx: PtxVersion, v: PtxVersion) => comparePtx(ptx, v) >= 0;

/** Why one requirement fails for the target and version (empty when it holds). */
export function requirementReasons(r: CvtRequirement, target: Target, ptx: PtxVersion): Reason[] {
  const reasons: Reason[] = [];
  const targetReason = (message: string): Reason => ({
    code: 'target',
    feature: r.feature,
    message: `${r.feature} ${message}; target is ${target.name}`,
  });
  const ptxReason = (v: PtxVersion): Reason => ({
    code: 'ptx-version',
    feature: r.feature,
    message: `${r.feature} requires PTX ISA ${v}; PTX ISA version is ${ptx}`,
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

export function cvtVerdictFor(form: CvtForm, target: Target, ptx: PtxVersion): CvtVerdict {
  const reasons = form.requirements.flatMap((r) => requirementReasons(r, target, ptx));
  return verdictFrom(form, target, ptx, reasons);
}
