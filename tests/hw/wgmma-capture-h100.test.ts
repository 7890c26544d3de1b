/**
 * The committed wgmma capture of an NVIDIA H100 (hw/captures/sm_90/h100/wgmma) against the
 * engine's sm_90 model, case by case (hw/mma/wgmma/compare-lib.ts): all 1,326 cases agree, because
 * the engine follows the H100's two measured rules for wgmma (tensor-core-models.ts `measured`:
 * a zero sum is +0, decision mma-zero-sign-sm90; an .f32 result past the largest finite value is
 * ±∞, decision mma-f32-overflow-sm90). Blackwell's model is Hopper's for f16, bf16 and tf32
 * inputs without those rules: against it exactly the cases the rules decide differ. FP8 with an
 * .f16 result, which the published models leave unsettled, agrees too (decision
 * mma-fp8-f16-hopper), where n = 25 would not.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { WGMMA_CAPTURE_FORMS, wgmmaCases, type WgmmaCase } from '../../hw/mma/wgmma/cases.ts';
import { compareWgmma, readOutput, type WgmmaGroup } from '../../hw/mma/wgmma/compare-lib.ts';
import { measuredRulesFor, tensorCoreModel } from '../../src/catalog/tensor-core-models.ts';

const CAPTURE = 'hw/captures/sm_90/h100/wgmma';
const DIR = join(import.meta.dirname, '../..', CAPTURE);
const read = (file: string) => readFileSync(join(DIR, file), 'utf8');
const cases = JSON.parse(read('wgmma-cases.json')) as WgmmaCase[];
const output = read('wgmma-d.txt');
const measured = readOutput(output, cases.length);
if ('error' in measured) throw new Error(`${CAPTURE}/wgmma-d.txt: ${measured.error}`);

const isFp8 = (form: string) => /\.e[45]m[23]\.e[45]m[23]$/.test(form);
const isFp8F16 = (form: string) => isFp8(form) && form.includes('k32.f16.');
/** The cases whose model and GPU differ, as `form case-name` (random rows as `random`). */
const differing = (groups: readonly WgmmaGroup[]) =>
  groups.flatMap((g) =>
    g.differences.map((d) => `${g.form} ${d.case.name.replace(/^random \d+$/, 'random')}`),
  );

describe(CAPTURE, () => {
  it('is the H100 capture device.txt names, with the sums it records', () => {
    const device = read('device.txt');
    expect(device).toMatch(/^NVIDIA H100 80GB HBM3, 580\.159\.04, 9\.0, GPU-/m);
    expect(output.split('\n')[0]).toBe('# GPU: NVIDIA H100 80GB HBM3 (sm_90), 1326 cases');
    const sums = [...device.matchAll(/^([0-9a-f]{64}) {2}(\S+)$/gm)];
    expect(sums.map((m) => m[2]).sort()).toEqual(['wgmma-cases.json', 'wgmma-d.txt']);
    for (const [, sum, file] of sums)
      expect(createHash('sha256').update(read(file!)).digest('hex'), file).toBe(sum);
  });

  it('holds the cases of hw/mma/wgmma/cases.ts: every form of the harness, A from both sources', () => {
    expect(cases).toEqual(wgmmaCases());
    expect(new Set(cases.map((c) => c.form))).toEqual(
      new Set(WGMMA_CAPTURE_FORMS.map((f) => f.text)),
    );
    expect(cases).toHaveLength(1326);
  });

  it('the engine follows the H100 for wgmma on sm_90: the rules are the capture’s record', () => {
    const rules = measuredRulesFor(tensorCoreModel('hopper'), 'wgmma')!;
    expect(rules).toMatchObject({ capture: CAPTURE, zeroSum: 'positive', f32Overflow: 'infinity' });
    expect(rules.on).toMatch(/^NVIDIA H100 80GB HBM3 \(sm_90\)/);
  });

  it.each(['sm_90', 'sm_90a'])('every case agrees with the engine on %s', (target) => {
    const groups = compareWgmma(cases, measured, target);
    expect(groups).toHaveLength(48);
    expect(differing(groups)).toEqual([]);
    expect(groups.reduce((n, g) => n + g.agree, 0)).toBe(1326);
  });

  it('without the measured rules (Blackwell: the same n = 25) the rules’ cases differ, and only they', () => {
    const groups = compareWgmma(
      cases.filter((c) => !isFp8(c.form)),
      measured.filter((_, i) => !isFp8(cases[i]!.form)),
      'sm_100',
    );
    const zero = differing(groups).filter((d) => d.endsWith(' all-neg-zero-terms'));
    const overflow = differing(groups).filter((d) => !d.endsWith(' all-neg-zero-terms'));
    // The four non-FP8 type combinations at m64n8, A from a descriptor and from registers.
    expect(zero).toHaveLength(8);
    expect(new Set(overflow)).toEqual(
      new Set(
        ['m64n8k16.f32.bf16.bf16', 'm64n8k8.f32.tf32.tf32'].flatMap((f) =>
          ['max-times-max', 'overflow-sum', 'overflow-sum-negative'].map(
            (name) => `wgmma.mma_async.sync.aligned.${f} ${name}`,
          ),
        ),
      ),
    );
    expect(overflow).toHaveLength(12);
  });

  it('FP8 with an .f16 result: 436 cases, all the model’s; n = 25 would miss 32 beside the zero sign', () => {
    const fp8 = cases.flatMap((c, i) => (isFp8F16(c.form) ? [i] : []));
    expect(fp8).toHaveLength(436);
    const pick = <T>(xs: readonly T[]) => fp8.map((i) => xs[i]!);
    expect(differing(compareWgmma(pick(cases), pick(measured), 'sm_90'))).toEqual([]);
    const n25 = differing(compareWgmma(pick(cases), pick(measured), 'sm_100')).filter(
      (d) => !d.endsWith(' all-neg-zero-terms'),
    );
    expect(n25).toHaveLength(32);
  });
});
