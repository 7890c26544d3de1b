import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ALL_FORMS, findForm } from './all-forms.ts';
import { checkInstruction } from './check-instruction.ts';
import { comparePtx, NEWEST_PTX, PTX_VERSIONS } from './ptx-versions.ts';
import {
  baselineTarget,
  findTarget,
  NEWEST_TARGET,
  ptxAcceptsTarget,
  TARGETS,
  targetProvides,
} from './targets.ts';
import { verdictFor, type Verdict } from './verdict.ts';

function verdict(input: string, target: string, ptx: string): Verdict {
  const r = checkInstruction(input, target, ptx);
  if (!r.ok) throw new Error(`${input}: ${r.error.message}`);
  return r.verdict;
}

const messages = (v: Pick<Verdict, 'reasons'>) => v.reasons.map((r) => r.message);
const baselines = TARGETS.filter((t) => t.variant === '');

const form = (text: string) => {
  const f = findForm(text);
  if (!f) throw new Error(`no form ${text}`);
  return f;
};

describe('validator reasons', () => {
  it('names the feature, the target it needs and the target given', () => {
    const v = verdict('add.bf16', 'sm_86', '8.6');
    expect(v.valid).toBe(false);
    expect(messages(v)).toEqual(['add.bf16 requires sm_90 or higher; target is sm_86']);
    expect(v.reasons[0]).toMatchObject({ code: 'target', feature: 'add{.rnd}.{bf16,bf16x2}' });
  });

  it('names opcode and type, so a mixed-precision form is not mistaken for the half one', () => {
    expect(messages(verdict('fma.rn.f32.f16', 'sm_90', '8.6'))).toEqual([
      'fma.f32.f16 requires sm_100 or higher; target is sm_90',
    ]);
    expect(messages(verdict('min.f16', 'sm_75', '7.0'))).toEqual([
      'min.f16 requires sm_80 or higher; target is sm_75',
    ]);
  });

  it('names a modifier that needs a newer PTX ISA version', () => {
    const v = verdict('fma.rn.oob.f16 d, a, b, c;', 'sm_90', '8.0');
    expect(messages(v)).toEqual(['modifier .oob requires PTX ISA 8.1; PTX ISA version is 8.0']);
    expect(v.reasons[0]!.code).toBe('ptx-version');
  });

  it('gives every reason, not just the first', () => {
    const v = verdict('min.xorsign.abs.bf16x2', 'sm_80', '7.0');
    expect(messages(v)).toEqual([
      'modifier .xorsign.abs requires sm_86 or higher; target is sm_80',
      'modifier .xorsign.abs requires PTX ISA 7.2; PTX ISA version is 7.0',
    ]);
  });

  it('reports a target the PTX ISA version does not know yet', () => {
    const v = verdict('add.f16', 'sm_100a', '8.5');
    expect(messages(v)).toEqual(['target sm_100a requires PTX ISA 8.6; PTX ISA version is 8.5']);
    expect(v.reasons[0]).toMatchObject({ code: 'ptx-version', feature: '.target sm_100a' });
  });

  it('treats sm_90a as having every sm_90 feature, and sm_100f every sm_100 feature', () => {
    expect(verdict('tanh.approx.bf16', 'sm_90a', '8.0').valid).toBe(true);
    expect(verdict('fma.rn.sat.f32.f16', 'sm_100f', '8.8').valid).toBe(true);
    expect(verdict('fma.rn.sat.f32.f16', 'sm_90a', '8.8').valid).toBe(false);
  });

  it('handles sm_101 and its PTX ISA 9.0 name sm_110 alike for features', () => {
    for (const form of ALL_FORMS) {
      const old = verdictFor(form, findTarget('sm_101')!, '8.8');
      const renamed = verdictFor(form, findTarget('sm_110')!, '9.0');
      expect(old.valid, form.text).toBe(renamed.valid);
    }
    expect(verdict('add.f16', 'sm_110', '8.8').valid).toBe(false);
  });

  it('a valid verdict has no reasons and an invalid one at least one', () => {
    for (const form of ALL_FORMS) {
      for (const t of ['sm_75', 'sm_90', 'sm_100a']) {
        const v = verdictFor(form, findTarget(t)!, '8.6');
        expect(v.valid).toBe(v.reasons.length === 0);
      }
    }
  });

  it('refuses unknown targets and PTX ISA versions with a usage error', () => {
    const t = checkInstruction('add.f16', 'sm_91', '8.6');
    expect(!t.ok && t.error).toMatchObject({ code: 'target' });
    const p = checkInstruction('add.f16', 'sm_90', '8.9');
    expect(!p.ok && p.error).toMatchObject({ code: 'ptx-version' });
  });

  it('judges syntax before target and version', () => {
    const r = checkInstruction('add.rn.rn.f16', 'sm_nope', 'x');
    expect(!r.ok && r.error.code).toBe('syntax');
  });

  it('defaults to the newest target and PTX ISA version', () => {
    const r = checkInstruction('add.rn.f32.f16');
    expect(r.ok && [r.verdict.target, r.verdict.ptx]).toEqual([NEWEST_TARGET, NEWEST_PTX]);
  });
});

describe('defaults', () => {
  it('a PTX ISA version alone means the newest target it knows, its a variant first', () => {
    const target = (ptx: string) => {
      const r = checkInstruction('add.f16', undefined, ptx);
      return r.ok ? r.verdict.target : r.error.message;
    };
    expect(target('4.2')).toBe('sm_53');
    expect(target('7.0')).toBe('sm_80');
    expect(target('8.0')).toBe('sm_90a');
    expect(target(NEWEST_PTX)).toBe('sm_121a');
    const neither = checkInstruction('add.f16');
    expect(neither.ok && [neither.verdict.target, neither.verdict.ptx]).toEqual([
      'sm_121a',
      NEWEST_PTX,
    ]);
  });
});

describe('minimal target and PTX ISA version', () => {
  it('matches the spec for known forms', () => {
    const cases: [string, string, string][] = [
      ['add.f16', 'sm_53', '4.2'],
      ['neg.f16x2', 'sm_53', '6.0'],
      ['abs.ftz.f16', 'sm_53', '6.5'],
      ['fma.rn.relu.f16', 'sm_80', '7.0'],
      ['min.NaN.f16', 'sm_80', '7.0'],
      ['max.xorsign.abs.bf16', 'sm_86', '7.2'],
      ['add.rn.bf16x2', 'sm_90', '7.8'],
      ['tanh.approx.f16', 'sm_75', '7.0'],
      ['ex2.approx.ftz.bf16x2', 'sm_90', '7.8'],
      ['fma.rn.oob.relu.bf16x2', 'sm_90', '8.1'],
      ['sub.rm.sat.f32.bf16', 'sm_100', '8.6'],
      ['cvt.rn.f16.f32', 'sm_50', '4.2'],
      ['cvt.rn.bf16.f32', 'sm_80', '7.0'],
      ['cvt.f32.bf16', 'sm_80', '7.1'],
      ['cvt.ftz.f32.bf16', 'sm_90', '7.8'],
      ['cvt.rn.satfinite.e4m3x2.f32', 'sm_89', '8.1'],
      ['cvt.rn.satfinite.f16.f32', 'sm_70', '8.1'],
      ['cvt.rn.satfinite.tf32.f32', 'sm_100', '8.6'],
      ['cvt.rn.satfinite.e2m1x2.f32', 'sm_100a', '8.6'],
      ['cvt.rs.f16x2.f32', 'sm_100a', '8.7'],
    ];
    for (const [text, target, ptx] of cases) {
      const form = findForm(text);
      expect(form, text).toBeDefined();
      expect([form!.minTarget, form!.minPtx], text).toEqual([target, ptx]);
    }
  });

  it('is valid at its minimum and invalid one step below, for every form', () => {
    for (const form of ALL_FORMS) {
      const minTarget = findTarget(form.minTarget)!;
      expect(verdictFor(form, minTarget, form.minPtx).valid, form.text).toBe(true);

      const olderTarget = baselines.filter((t) => t.number < minTarget.number).at(-1);
      // An older target is judged at the newest PTX ISA version, so only the target can fail.
      if (olderTarget)
        expect(verdictFor(form, olderTarget, NEWEST_PTX).valid, form.text).toBe(false);

      const olderPtx = PTX_VERSIONS.filter((p) => comparePtx(p, form.minPtx) < 0).at(-1);
      const newest = findTarget('sm_120')!;
      if (olderPtx) expect(verdictFor(form, newest, olderPtx).valid, form.text).toBe(false);
    }
  });

  it('is monotone: a form valid at (target, ptx) stays valid on newer baselines and versions', () => {
    // A verdict depends only on the form's requirements: one form per distinct set suffices.
    const bySignature = new Map(ALL_FORMS.map((f) => [JSON.stringify(f.requirements), f]));
    for (const form of bySignature.values()) {
      for (let i = 0; i < baselines.length; i++) {
        const t = baselines[i]!;
        for (const ptx of PTX_VERSIONS) {
          if (!verdictFor(form, t, ptx).valid) continue;
          const nextT = baselines[i + 1];
          if (nextT && comparePtx(ptx, nextT.minPtx) >= 0) {
            expect(verdictFor(form, nextT, ptx).valid, `${form.text} ${nextT.name} ${ptx}`).toBe(
              true,
            );
          }
          const nextPtx =
            PTX_VERSIONS[PTX_VERSIONS.indexOf(ptx as (typeof PTX_VERSIONS)[number]) + 1];
          if (nextPtx)
            expect(verdictFor(form, t, nextPtx).valid, `${form.text} ${t.name} ${nextPtx}`).toBe(
              true,
            );
        }
      }
    }
  });
});

describe('validity is exactly: target ⊇ minimal target, PTX ≥ minimal PTX, PTX knows the target', () => {
  it('holds for random (form, target, PTX ISA version), for the forms of "sm_N or higher" rows', () => {
    // A row with a choice of targets (e4m3x2) or a list of them (.rs) is pinned above.
    const baselineOnly = ALL_FORMS.filter((f) =>
      f.requirements.every((r) => r.target.kind === 'baseline'),
    );
    expect(baselineOnly.length).toBeGreaterThan(300);
    fc.assert(
      fc.property(
        fc.constantFrom(...baselineOnly),
        fc.constantFrom(...TARGETS),
        fc.constantFrom(...PTX_VERSIONS),
        (form, target, ptx) => {
          const minTarget = baselineTarget(findTarget(form.minTarget)!.number);
          const expected =
            targetProvides(target, minTarget) &&
            comparePtx(ptx, form.minPtx) >= 0 &&
            ptxAcceptsTarget(target, ptx);
          return verdictFor(form, target, ptx).valid === expected;
        },
      ),
      { numRuns: 3000 },
    );
  });
});

describe('cvt gating', () => {
  const valid = (text: string, target: string, ptx: string) =>
    verdictFor(form(text), findTarget(target)!, ptx).valid;

  it('e4m3x2: sm_90 from PTX ISA 7.8, sm_89 from 8.1', () => {
    expect(valid('cvt.rn.satfinite.e4m3x2.f32', 'sm_90', '7.8')).toBe(true);
    expect(valid('cvt.rn.satfinite.e4m3x2.f32', 'sm_89', '8.0')).toBe(false);
    expect(valid('cvt.rn.satfinite.e4m3x2.f32', 'sm_89', '8.1')).toBe(true);
    expect(valid('cvt.rn.satfinite.e4m3x2.f32', 'sm_88', '9.0')).toBe(false);
    expect(messages(verdict('cvt.rn.satfinite.e4m3x2.f32', 'sm_89', '8.0'))).toEqual([
      'cvt with .e4m3x2/.e5m2x2 (sm_90 from PTX ISA 7.8, sm_89 from 8.1) requires sm_90 or higher (with PTX ISA 7.8); target is sm_89',
      'cvt with .e4m3x2/.e5m2x2 (sm_90 from PTX ISA 7.8, sm_89 from 8.1) requires PTX ISA 8.1; PTX ISA version is 8.0',
    ]);
  });

  it('FP4/FP6/UE8M0: the a targets, and the f families from PTX ISA 8.8 (sm_101 renamed sm_110)', () => {
    const f = 'cvt.rn.satfinite.e2m1x2.f32';
    expect(valid(f, 'sm_100a', '8.6')).toBe(true);
    expect(valid(f, 'sm_100', '9.0')).toBe(false);
    expect(valid(f, 'sm_90a', '9.0')).toBe(false);
    expect(valid(f, 'sm_101a', '8.6')).toBe(true);
    expect(valid(f, 'sm_110a', '9.0')).toBe(true);
    expect(valid(f, 'sm_110f', '9.0')).toBe(true);
    expect(valid(f, 'sm_103f', '8.8')).toBe(true);
    expect(valid(f, 'sm_121a', '8.8')).toBe(true);
    expect(valid(f, 'sm_120', '9.0')).toBe(false);
  });

  it('.rs: sm_100a and sm_103a only, from PTX ISA 8.7', () => {
    expect(valid('cvt.rs.f16x2.f32', 'sm_100a', '8.7')).toBe(true);
    expect(valid('cvt.rs.f16x2.f32', 'sm_100a', '8.6')).toBe(false);
    expect(valid('cvt.rs.f16x2.f32', 'sm_103a', '8.8')).toBe(true);
    expect(valid('cvt.rs.f16x2.f32', 'sm_100f', '9.0')).toBe(false);
    expect(valid('cvt.rs.f16x2.f32', 'sm_120a', '9.0')).toBe(false);
  });

  it('says why, in the words of the notes', () => {
    const v = verdict('cvt.rs.satfinite.e2m1x4.f32', 'sm_90', '8.6');
    expect(v.reasons.map((x) => x.code)).toEqual(['target', 'ptx-version']);
    expect(v.reasons[0]!.message).toMatch(/supported on sm_100a, sm_103a only; target is sm_90$/);
  });
});

describe('names in another case', () => {
  it('are read as their form and judged not valid: ptxas refuses them', () => {
    const v = verdict('ADD.RN.F16 d, a, b;', 'sm_90', '8.6');
    expect([v.form.text, v.valid]).toEqual(['add.rn.f16', false]);
    expect(v.reasons).toEqual([
      {
        code: 'spelling',
        feature: 'ADD.RN.F16',
        message:
          'ptxas refuses ADD.RN.F16: PTX names are case-sensitive; the spec writes add.rn.f16',
      },
    ]);
    // Beside the reasons of the form itself.
    expect(messages(verdict('min.nan.f16', 'sm_75', '7.0'))).toEqual([
      'ptxas refuses min.nan.f16: PTX names are case-sensitive; the spec writes min.NaN.f16',
      'min.f16 requires sm_80 or higher; target is sm_75',
    ]);
  });
});
