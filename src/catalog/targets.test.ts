import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PTX_VERSIONS } from './ptx-versions.ts';
import {
  baselineTarget,
  findTarget,
  NEWEST_TARGET,
  ptxAcceptsTarget,
  TARGETS,
  targetProvides,
  type Target,
} from './targets.ts';

const T = (name: string): Target => {
  const t = findTarget(name);
  if (!t) throw new Error(`no target ${name}`);
  return t;
};
const provides = (have: string, need: string) => targetProvides(T(have), T(need));
const anyTarget = fc.constantFrom(...TARGETS);

describe('targets', () => {
  it("names the GPUs of each target as NVIDIA's compute-capability list does", () => {
    const gpus = (name: string) => findTarget(name)?.gpus;
    // The examples, checked against developer.nvidia.com/cuda-gpus.
    expect(gpus('sm_80')).toContain('A100');
    expect(gpus('sm_86')).toMatch(/RTX 30.*A10/);
    expect(gpus('sm_89')).toMatch(/RTX 40.*L4.*L40/);
    expect(gpus('sm_90')).toMatch(/H100.*H200/);
    expect(gpus('sm_100')).toMatch(/B200.*GB200/);
    expect(gpus('sm_103')).toContain('B300');
    expect(gpus('sm_120')).toContain('RTX 50');
    expect(gpus('sm_121')).toContain('GB10');
    // The a and f variants run on the same GPUs; sm_88 is on no list, so it names none.
    expect(gpus('sm_90a')).toBe(gpus('sm_90'));
    expect(gpus('sm_121f')).toBe(gpus('sm_121'));
    expect(gpus('sm_88')).toBeUndefined();
    // Every other target has its GPUs, short enough for an option on a phone.
    for (const t of TARGETS) {
      if (t.number === 88) continue;
      expect(t.gpus, t.name).toBeDefined();
      expect(t.gpus!.length, t.name).toBeLessThanOrEqual(20);
    }
  });

  it('lists sm_50 … sm_121 once each, with a and f variants', () => {
    const names = TARGETS.map((t) => t.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names[0]).toBe('sm_50');
    for (const name of [
      'sm_53',
      'sm_90a',
      'sm_100f',
      'sm_101a',
      'sm_103f',
      'sm_110f',
      'sm_120a',
      'sm_121f',
    ]) {
      expect(names).toContain(name);
    }
    expect(findTarget(NEWEST_TARGET)).toBeDefined();
    expect(findTarget('sm_91')).toBeUndefined();
    expect(findTarget('SM_90')).toBeUndefined();
  });

  it('knows the PTX ISA version that introduced each target', () => {
    expect(T('sm_53').minPtx).toBe('4.2');
    expect(T('sm_90').minPtx).toBe('7.8');
    expect(T('sm_90a').minPtx).toBe('8.0');
    expect(T('sm_100f').minPtx).toBe('8.8');
    expect(T('sm_110').minPtx).toBe('9.0');
    expect(ptxAcceptsTarget(T('sm_90'), '7.7')).toBe(false);
    expect(ptxAcceptsTarget(T('sm_90'), '7.8')).toBe(true);
    expect(ptxAcceptsTarget(T('sm_120a'), '8.6')).toBe(false);
  });

  it('orders a and f targets by the spec rules, not by number', () => {
    expect(provides('sm_90a', 'sm_90')).toBe(true);
    expect(provides('sm_90', 'sm_90a')).toBe(false);
    expect(provides('sm_100a', 'sm_100f')).toBe(true);
    expect(provides('sm_100f', 'sm_100a')).toBe(false);
    expect(provides('sm_103f', 'sm_100f')).toBe(true);
    expect(provides('sm_103a', 'sm_100f')).toBe(true);
    expect(provides('sm_100f', 'sm_103f')).toBe(false);
    expect(provides('sm_103', 'sm_100f')).toBe(false); // a baseline target has no family features
    expect(provides('sm_120f', 'sm_100f')).toBe(false); // another family
    expect(provides('sm_110f', 'sm_100f')).toBe(false);
    expect(provides('sm_121f', 'sm_120f')).toBe(true);
    expect(provides('sm_103a', 'sm_100a')).toBe(false); // arch-specific features belong to one target
    expect(provides('sm_121a', 'sm_90')).toBe(true);
    expect(provides('sm_89', 'sm_90')).toBe(false);
    expect(provides('sm_100f', 'sm_90a')).toBe(false);
  });

  it('is reflexive', () => {
    fc.assert(fc.property(anyTarget, (t) => targetProvides(t, t)));
  });

  it('is antisymmetric on names', () => {
    fc.assert(
      fc.property(
        anyTarget,
        anyTarget,
        (a, b) => !(targetProvides(a, b) && targetProvides(b, a)) || a.name === b.name,
      ),
    );
  });

  it('is transitive over every triple of targets', () => {
    let checked = 0;
    for (const a of TARGETS) {
      for (const b of TARGETS) {
        if (!targetProvides(a, b)) continue;
        for (const c of TARGETS) {
          if (targetProvides(b, c))
            expect(targetProvides(a, c), `${a.name} ⊇ ${b.name} ⊇ ${c.name}`).toBe(true);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(TARGETS.length);
  });

  it('gives every baseline target a feature set that each newer target has', () => {
    fc.assert(
      fc.property(anyTarget, anyTarget, (have, need) => {
        if (need.variant !== '') return true;
        return targetProvides(have, need) === have.number >= need.number;
      }),
    );
    expect(baselineTarget(90).name).toBe('sm_90');
    expect(() => baselineTarget(91)).toThrow();
  });

  it('accepts each target in a contiguous run of PTX ISA versions', () => {
    for (const t of TARGETS) {
      const accepted = PTX_VERSIONS.map((v) => ptxAcceptsTarget(t, v));
      const first = accepted.indexOf(true);
      const last = accepted.lastIndexOf(true);
      expect(first, t.name).toBeGreaterThanOrEqual(0);
      expect(accepted.slice(first, last + 1).every(Boolean), t.name).toBe(true);
    }
  });
});
