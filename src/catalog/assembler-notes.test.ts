import { describe, expect, it } from 'vitest';
import { ASSEMBLER_NOTES, assemblerNotesFor, noteCovers } from './assembler-notes.ts';
import { FORMS as ALL_SCALAR_FORMS } from './all-forms.ts';
import { checkInstruction } from './check-instruction.ts';
import { isKnownPtxVersion } from './ptx-versions.ts';
import { findTarget } from './targets.ts';

/** The half- and mixed-precision forms, which the form notes about syntax lines speak of. */
const FORMS = ALL_SCALAR_FORMS.filter((f) => f.family === 'half' || f.family === 'mixed');

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

  it('cover the forms the spec does not list, and only those, by a form note', () => {
    const formNotes = ASSEMBLER_NOTES.filter((n) => n.scope.kind === 'form');
    for (const f of FORMS) {
      const covered = formNotes.some((n) => noteCovers(n, f.text));
      expect(covered, f.text).toBe(!f.documented);
    }
    expect(FORMS.filter((f) => !f.documented)).toHaveLength(26);
  });

  it('never call a form written its own way a spelling ptxas merely accepts', () => {
    const spellingNotes = ASSEMBLER_NOTES.filter(
      (n) => n.scope.kind === 'reordered' || n.scope.kind === 'repeated',
    );
    for (const n of spellingNotes)
      for (const f of FORMS) expect(noteCovers(n, f.text), `${n.id} covers ${f.text}`).toBe(false);
  });

  it('cover what they describe, and only that', () => {
    expect(noteCovers(note('modifier-order'), 'add.sat.rn.f16')).toBe(true);
    expect(noteCovers(note('modifier-order'), 'add.f16.sat')).toBe(true);
    expect(noteCovers(note('modifier-order'), 'min.abs.xorsign.f16')).toBe(true);
    expect(noteCovers(note('modifier-order'), 'add.rn.sat.f16')).toBe(false);
    // Invalid in any order (ptxas rejects .ftz with .oob too): no order note.
    expect(noteCovers(note('modifier-order'), 'fma.rn.oob.ftz.f16')).toBe(false);
    expect(noteCovers(note('modifier-order'), 'fma.rn.ftz.oob.f16')).toBe(false);
    expect(noteCovers(note('repeated-modifier'), 'fma.rz.sat.f32.f16.sat')).toBe(true);
    expect(noteCovers(note('repeated-modifier'), 'fma.rz.sat.f32.f16')).toBe(false);
    expect(noteCovers(note('repeated-modifier'), 'add.ftz.ftz.f16')).toBe(false);
    expect(noteCovers(note('fma-bf16-directed-rounding'), 'fma.rz.bf16')).toBe(true);
    expect(noteCovers(note('fma-bf16-directed-rounding'), 'fma.relu.rm.bf16x2')).toBe(true);
    expect(noteCovers(note('fma-bf16-directed-rounding'), 'fma.rz.f16')).toBe(false);
    expect(noteCovers(note('fma-oob-sat'), 'fma.rn.oob.sat.f16x2')).toBe(true);
    expect(noteCovers(note('fma-oob-sat'), 'fma.rn.sat.oob.f16')).toBe(true);
    expect(noteCovers(note('fma-oob-sat'), 'fma.rn.oob.relu.f16')).toBe(false);
    expect(noteCovers(note('sm_101-at-ptx-9.0'), 'add.f16', 'sm_101a', '9.0')).toBe(true);
    expect(noteCovers(note('sm_101-at-ptx-9.0'), 'add.f16', 'sm_101a', '8.8')).toBe(false);
    expect(noteCovers(note('sm_101-at-ptx-9.0'), 'add.f16')).toBe(false);
    expect(assemblerNotesFor('add.f16', 'sm_90', '8.6')).toEqual([]);
    expect(assemblerNotesFor('fma.rz.bf16').map((n) => n.id)).toEqual([
      'fma-bf16-directed-rounding',
    ]);
    expect(assemblerNotesFor('fma.relu.rz.bf16.relu').map((n) => n.id)).toEqual([
      'modifier-order',
      'repeated-modifier',
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

  it('match the catalog data: the catalog follows ptxas everywhere but the PTX ISA version list', () => {
    const valid = (instr: string, target: string, ptx: string) => {
      const r = checkInstruction(instr, target, ptx);
      return r.ok && r.verdict.valid;
    };
    expect(valid('add.f16', 'sm_101', '9.0')).toBe(true);
    expect(valid('add.f16', 'sm_88', '7.3')).toBe(true);
    expect(valid('add.f16', 'sm_88', '7.2')).toBe(false);
    // What ptxas takes beyond the spec's syntax lines, with the gates ptxas applies.
    expect(valid('fma.rz.bf16', 'sm_80', '7.0')).toBe(true);
    expect(valid('fma.rz.bf16', 'sm_75', '9.0')).toBe(false);
    expect(valid('fma.rp.oob.relu.bf16x2', 'sm_90', '8.1')).toBe(true);
    expect(valid('fma.rp.oob.relu.bf16x2', 'sm_90', '8.0')).toBe(false);
    expect(valid('fma.rn.sat.oob.f16', 'sm_90', '8.1')).toBe(true);
    expect(valid('fma.rn.sat.oob.f16', 'sm_89', '8.1')).toBe(false);
    expect(valid('add.sat.rn.f16', 'sm_90', '8.6')).toBe(true);
    expect(valid('fma.rz.sat.f32.f16.sat', 'sm_100', '8.6')).toBe(true);
    for (const n of ASSEMBLER_NOTES)
      expect(n.catalogFollows, n.id).toBe(n.scope.kind === 'ptx-version' ? 'spec' : 'ptxas');
  });
});
