import { describe, expect, it } from 'vitest';
import {
  comparePtx,
  isKnownPtxVersion,
  maxPtx,
  NEWEST_PTX,
  parsePtxVersion,
  PTX_VERSIONS,
} from './ptx-versions.ts';

describe('PTX ISA versions', () => {
  it('runs from 4.2 to the newest, strictly increasing', () => {
    expect(PTX_VERSIONS[0]).toBe('4.2');
    expect(NEWEST_PTX).toBe(PTX_VERSIONS[PTX_VERSIONS.length - 1]);
    for (let i = 1; i < PTX_VERSIONS.length; i++) {
      expect(comparePtx(PTX_VERSIONS[i - 1]!, PTX_VERSIONS[i]!)).toBeLessThan(0);
    }
  });

  it('compares numerically, not as text', () => {
    expect(comparePtx('10.0', '9.1')).toBeGreaterThan(0);
    expect(comparePtx('8.6', '8.6')).toBe(0);
    expect(maxPtx(['7.8', '4.2', '8.1'])).toBe('8.1');
  });

  it('rejects malformed versions', () => {
    for (const bad of ['', '8', '8.', '8.10', 'v8.6', '8.6.1', 'x.y'])
      expect(parsePtxVersion(bad)).toBeNull();
    expect(() => comparePtx('8.6', 'nine')).toThrow(/not a PTX ISA version/);
    expect(isKnownPtxVersion('8.6')).toBe(true);
    expect(isKnownPtxVersion('4.1')).toBe(false);
    expect(isKnownPtxVersion('9.9')).toBe(false);
  });
});
