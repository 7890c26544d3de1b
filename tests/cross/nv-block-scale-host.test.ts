/**
 * Block quantization against an implementation built from NVIDIA's host conversions
 * (nv_block_scale_host.cpp: cuda_fp8.h, cuda_fp6.h, cuda_fp4.h and the CPU's IEEE binary32
 * division and multiplication, built by nvcc, run on the CPU). Every scheme and scale rule on
 * seeded random blocks — values spread over a few binades around a random base, zeros,
 * subnormals, few-bit values that tie — compared on the scale, NVFP4's global scale, each
 * binary32 value the element cvt converts, and each stored element. No known difference.
 * Skips where nvcc is missing (PTXF_REQUIRE_TOOLS=1 makes that a failure).
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  BLOCK_SCHEMES,
  quantizeBlock,
  SCHEMES,
  type BlockScheme,
  type ScaleRule,
} from '../../src/engine/block-scale/index.ts';
import { seeded } from '../reference/cvt-vectors.ts';
import { suiteNeeds } from '../support/tools.ts';
import { CROSS_SCALE, nvccBinary } from './reference-process.ts';

const hasNvcc = suiteNeeds('block scaling ~ NVIDIA host conversions', ['nvcc']);
const BLOCKS = 150 * CROSS_SCALE;

/** A random block: a base exponent, values up to `spread` binades below it, some zeros. */
function randomBlock(next: () => number, size: number): number[] {
  const base = Math.floor(next() * 277) - 149;
  const spread = Math.floor(next() * 24);
  const masks = [0x7fffff, 0x780000, 0x700000, 0x400000, 0];
  return Array.from({ length: size }, () => {
    const sign = next() < 0.5 ? 0x80000000 : 0;
    if (next() < 0.08) return sign >>> 0;
    const exponent = Math.max(-149, base - Math.floor(next() * (spread + 1)));
    const mantissa = Math.floor(next() * 0x800000) & masks[Math.floor(next() * masks.length)]!;
    if (exponent >= -126) return (sign | ((exponent + 127) << 23) | mantissa) >>> 0;
    return (sign | ((0x800000 | mantissa) >>> (-126 - exponent))) >>> 0;
  });
}

interface Case {
  readonly scheme: BlockScheme;
  readonly rule: ScaleRule;
  readonly values: number[];
  readonly tensorAmax?: number;
}

const hex = (x: number) => (x >>> 0).toString(16).padStart(8, '0');

function casesOf(scheme: BlockScheme, rule: ScaleRule): Case[] {
  const next = seeded(scheme.length * 7919 + rule.length * 104729 + 17);
  const size = SCHEMES[scheme].blockSize;
  return Array.from({ length: BLOCKS }, (_, k) => {
    const values = randomBlock(next, size);
    // NVFP4: every third block without tensorAmax, the others with one near or far from amax.
    if (scheme !== 'nvfp4' || k % 3 === 0) return { scheme, rule, values };
    const amax = values.reduce((m, v) => Math.max(m, v & 0x7fffffff), 0);
    const shift = (Math.floor(next() * 40) - 20) << 23;
    const tensorAmax = Math.min(0x7f7fffff, Math.max(0, amax + (k % 3 === 1 ? 0 : shift)));
    return { scheme, rule, values, tensorAmax };
  });
}

let blocks = 0;
afterAll(() => {
  if (blocks > 0)
    console.log(`block scaling ~ NVIDIA host conversions: ${blocks} blocks, bit-exact`);
});

describe.runIf(hasNvcc)('block scaling ~ NVIDIA host conversions', () => {
  let binary = '';
  it('builds the host program', () => {
    binary = nvccBinary(join(import.meta.dirname, 'nv_block_scale_host.cpp'));
    expect(binary).toMatch(/nv_block_scale_host-/);
  }, 120_000);

  for (const scheme of BLOCK_SCHEMES)
    for (const rule of SCHEMES[scheme].rules)
      it(`${scheme} ${rule}`, () => {
        const cases = casesOf(scheme, rule);
        const input = cases
          .map(
            (c) =>
              `${c.scheme} ${c.rule} ${c.tensorAmax === undefined ? '-' : hex(c.tensorAmax)} ${c.values.length} ${c.values.map(hex).join(' ')}`,
          )
          .join('\n');
        const out = spawnSync(binary, [], { input: `${input}\n`, encoding: 'utf8' });
        expect(out.status, out.stderr).toBe(0);
        const lines = out.stdout.trim().split('\n');
        expect(lines).toHaveLength(cases.length);
        cases.forEach((c, k) => {
          const host = lines[k]!.split(' ').map((h) => parseInt(h, 16) >>> 0);
          const r = quantizeBlock({
            scheme: c.scheme,
            scaleRule: c.rule,
            values: c.values,
            ...(c.tensorAmax === undefined ? {} : { tensorAmax: c.tensorAmax }),
          });
          if (!r.ok) throw new Error(r.message);
          const n = c.values.length;
          const engine = [
            parseInt(r.scale.bits, 16),
            r.globalScale ? parseInt(r.globalScale.bits, 16) >>> 0 : 0,
            ...r.elements.map((e) => parseInt(e.scaled.bits, 16) >>> 0),
            ...r.elements.map((e) => parseInt(e.stored.bits, 16)),
          ];
          expect(engine, `${input.split('\n')[k]}`).toEqual(host.slice(0, 2 + 2 * n));
          blocks++;
        });
      });
});
