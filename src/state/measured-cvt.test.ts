import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { measuredCvtSets } from '../engine/measured-cvt.ts';
import { measuredCvtLine } from './measured-cvt.ts';

const sets = measuredCvtSets(
  JSON.parse(readFileSync(new URL('../../public/measured/cvt.json', import.meta.url), 'utf8')),
);

describe('the page\'s "measured on" line of a cvt form', () => {
  it('names the GPU and what was measured, on the targets the capture stands for', () => {
    expect(measuredCvtLine(sets, 'sm_90', 'cvt.rn.f16.bf16')).toMatch(
      /^measured on NVIDIA H200 \(driver 580\.159\.04, CUDA 13\.0\): all 65,536 inputs agree/,
    );
    expect(measuredCvtLine(sets, 'sm_90', 'cvt.rn.f16.f32')).toMatch(
      /every input \(2\^32\), as row hashes/,
    );
  });
  it('says nothing where nothing was measured: another target, a form the GPU lacks, an arithmetic form', () => {
    expect(measuredCvtLine(sets, 'sm_80', 'cvt.rn.f16.bf16')).toBeNull();
    expect(measuredCvtLine(sets, 'sm_90', 'cvt.rs.satfinite.e2m1x4.f32')).toBeNull();
    expect(measuredCvtLine(sets, 'sm_90', 'add.rn.f16')).toBeNull();
  });
});
