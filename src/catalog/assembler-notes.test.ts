import { describe, expect, it } from 'vitest';
import {
  ASSEMBLER_NOTES,
  assemblerNotesFor,
  canonicalSpelling,
  noteCovers,
} from './assembler-notes.ts';
import { FORMS } from './forms.ts';
import { isKnownPtxVersion } from './ptx-versions.ts';
import { findTarget } from './targets.ts';
import { checkInstruction } from './validate.ts';

const note = (id: string) => {
  const n = ASSEMBLER_NOTES.find((x) => x.id === id);
  if (!n) throw new Error(`no note ${id}`);
  return n;
};

describe('assembler notes', () => {
  it('are complete records with unique ids', () => {
    expect(new Set(ASSEMBLER_NOTES.map((n) => n.id)).size).toBe(ASSEMBLER_NOTES.length);
    for (const n of ASSEMBLER_NOTES) {
      for (const text of [n.pattern, n.specSays, n.ptxasSays, n.why])
        expect(text.length).toBeGreaterThan(10);
      expect(['spec', 'ptxas']).toContain(n.catalogFollows);
    }
  });

  it('spell every catalog form in the spec order already', () => {
    // The token order canonicalSpelling uses must agree with every syntax line; otherwise the
    // modifier-order note would claim a catalog form is a permutation.
    for (const f of FORMS) expect(canonicalSpelling(f.text)).toBe(f.text);
  });

  it('put modifiers in the spec order and the type last', () => {
    expect(canonicalSpelling('add.sat.rn.f16')).toBe('add.rn.sat.f16');
    expect(canonicalSpelling('add.f16.sat')).toBe('add.sat.f16');
    expect(canonicalSpelling('add.f16.f32.rz')).toBe('add.rz.f32.f16');
    expect(canonicalSpelling('fma.relu.oob.rn.bf16')).toBe('fma.rn.oob.relu.bf16');
    expect(canonicalSpelling('min.abs.NaN.xorsign.f16')).toBe('min.NaN.xorsign.abs.f16');
    expect(canonicalSpelling('add.bogus.f16')).toBe('add.bogus.f16');
  });

  it('never cover a valid catalog form when they keep the spec over ptxas', () => {
    // A note that keeps the spec explains why the catalog rejects something ptxas accepts;
    // it must not apply to what the catalog accepts.
    for (const n of ASSEMBLER_NOTES.filter(
      (x) => x.catalogFollows === 'spec' && x.scope.kind !== 'ptx-version',
    )) {
      for (const f of FORMS) expect(noteCovers(n, f.text), `${n.id} covers ${f.text}`).toBe(false);
    }
  });

  it('cover what they describe, and only that', () => {
    expect(noteCovers(note('modifier-order'), 'add.sat.rn.f16')).toBe(true);
    expect(noteCovers(note('modifier-order'), 'add.rn.sat.f16')).toBe(false);
    expect(noteCovers(note('fma-bf16-directed-rounding'), 'fma.rz.bf16')).toBe(true);
    expect(noteCovers(note('fma-bf16-directed-rounding'), 'fma.relu.rm.bf16x2')).toBe(true);
    expect(noteCovers(note('fma-bf16-directed-rounding'), 'fma.rz.f16')).toBe(false);
    expect(noteCovers(note('fma-oob-sat'), 'fma.rn.oob.sat.f16x2')).toBe(true);
    expect(noteCovers(note('fma-oob-sat'), 'fma.rn.oob.relu.f16')).toBe(false);
    expect(noteCovers(note('sm_101-at-ptx-9.0'), 'add.f16', 'sm_101a', '9.0')).toBe(true);
    expect(noteCovers(note('sm_101-at-ptx-9.0'), 'add.f16', 'sm_101a', '8.8')).toBe(false);
    expect(noteCovers(note('sm_101-at-ptx-9.0'), 'add.f16')).toBe(false);
    expect(assemblerNotesFor('add.f16', 'sm_90', '8.6')).toEqual([]);
    expect(assemblerNotesFor('fma.rz.bf16').map((n) => n.id)).toEqual([
      'fma-bf16-directed-rounding',
    ]);
  });

  it('name targets and PTX versions the catalog knows, except versions it leaves out on purpose', () => {
    for (const n of ASSEMBLER_NOTES) {
      if (n.scope.kind === 'target') {
        for (const t of n.scope.targets) expect(findTarget(t), t).toBeDefined();
        for (const v of n.scope.ptx) expect(isKnownPtxVersion(v), v).toBe(true);
      }
      if (n.scope.kind === 'ptx-version') {
        for (const v of n.scope.versions) expect(isKnownPtxVersion(v), v).toBe(false);
      }
    }
  });

  it('match the catalog data where the catalog follows ptxas', () => {
    const valid = (instr: string, target: string, ptx: string) => {
      const r = checkInstruction(instr, target, ptx);
      return r.ok && r.verdict.valid;
    };
    expect(valid('add.f16', 'sm_101', '9.0')).toBe(true);
    expect(valid('add.f16', 'sm_88', '7.3')).toBe(true);
    expect(valid('add.f16', 'sm_88', '7.2')).toBe(false);
    // And the spec where it keeps the spec: ptxas would take these.
    expect(valid('fma.rz.bf16', 'sm_90', '8.6')).toBe(false);
    expect(valid('add.sat.rn.f16', 'sm_90', '8.6')).toBe(false);
  });
});
