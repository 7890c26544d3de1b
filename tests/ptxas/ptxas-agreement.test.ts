import { beforeAll, describe, expect, it } from 'vitest';
import {
  ASSEMBLER_NOTES,
  assemblerNotesFor,
  PTXAS_RELEASE,
} from '../../src/catalog/assembler-notes.ts';
import { FORMS as ALL_FORMS } from '../../src/catalog/all-forms.ts';
import { checkInstruction } from '../../src/catalog/check-instruction.ts';
import { parseInstruction } from '../../src/catalog/parse-instruction.ts';
import { comparePtx, maxPtx, PTX_VERSIONS } from '../../src/catalog/ptx-versions.ts';
import { ARITHMETIC_RECORDS } from '../../src/catalog/records/arithmetic.ts';
import { CVT_RECORD, CVT_TYPE_TOKENS } from '../../src/catalog/records/convert.ts';
import { findTarget, ptxAcceptsTarget, TARGETS } from '../../src/catalog/targets.ts';
import { verdictFor } from '../../src/catalog/verdict.ts';
import { allCells, compareWithPtxas, type Disagreement, type MatrixSummary } from './agreement.ts';
import { agreementCases } from './cases.ts';
import { suiteNeeds } from '../support/tools.ts';
import { archFor, findPtxas } from './ptxas-runner.ts';

/**
 * The catalog's parser and validator (parse-instruction.ts, verdict.ts) against NVIDIA's
 * assembler: every catalog form, ~3,550 near misses and ~2,500 spelling probes (every order of
 * each form's tokens, each modifier written twice) of the arithmetic, and the 223 cvt forms
 * with ~4,200 near misses and ~1,500 spelling probes (cases.ts), for every target the catalog
 * and ptxas share and every PTX ISA version both know. ptxas runs once per (target, version) on
 * a file with one instruction per line (plus an empty-kernel probe and a re-run of the accepted
 * lines), two at a time. Budget: about 80 s of
 * CPU in all (measured: 60 s user, 19 s system), a minute of wall time on 2 idle cores. The two
 * must agree on every (instruction, target, version) cell.
 */

const CVT_TYPE_NAMES = new Set<string>(CVT_TYPE_TOKENS);
/** The arithmetic's forms (9.7.4, 9.7.5) and cvt's (9.7.9.21). */
const FORMS = ALL_FORMS.filter((f) => f.family !== 'convert');
const CVT_FORMS = ALL_FORMS.filter((f) => f.family === 'convert');
/** What the records say ptxas takes written twice, the same for every arithmetic record. */
const REPEATABLE_MODIFIERS = [...new Set(ARITHMETIC_RECORDS.flatMap((r) => r.repeatable))];
const CVT_REPEATABLE_MODIFIERS = CVT_RECORD.repeatable;

const ptxas = suiteNeeds('agreement with ptxas', ['ptxas']) ? findPtxas() : null;
const hasPtxas = ptxas !== null;

describe.runIf(hasPtxas)('ptxas availability', () => {
  it('ptxas lists the GPU targets and PTX ISA versions it knows', () => {
    console.info(
      `ptxas ${ptxas!.release}: ${ptxas!.gpuNames.length} GPU targets, PTX ISA ${ptxas!.ptxVersions.join(' ')}`,
    );
    expect(ptxas!.gpuNames.length).toBeGreaterThan(0);
    expect(ptxas!.ptxVersions.length).toBeGreaterThan(0);
  });
});

function show(ds: readonly Disagreement[]): string {
  return ds
    .slice(0, 25)
    .map(
      (d) =>
        `${d.head} @ ${d.target} PTX ${d.ptx}: ptxas ${d.ptxasAccepts ? 'accepts' : `rejects (${d.ptxasSays})`}; catalog says ${d.catalogSays}`,
    )
    .join('\n');
}

describe.runIf(hasPtxas)('agreement with ptxas', () => {
  const info = ptxas!;
  const cases = agreementCases();
  let summary: MatrixSummary;

  beforeAll(async () => {
    const started = performance.now();
    summary = await compareWithPtxas(cases, allCells(info, info.ptxVersions), 2);
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    console.info(
      `ptxas agreement: ${summary.cases} instructions (${FORMS.length} forms) × ${summary.cells} (target, PTX) cells, ` +
        `${summary.ptxasRuns} ptxas runs in ${seconds} s; ${summary.disagreements.length} disagreements, ` +
        `${summary.foundOnRetry} errors found only on re-run`,
    );
  }, 400_000);

  it('is ptxas of the release the notes were written against', () => {
    expect(info.release).toBe(PTXAS_RELEASE);
  });

  it('covers every target and PTX ISA version ptxas supports', () => {
    // Every GPU ptxas can compile for is a catalog target, and every catalog target can be
    // assembled (old ones for ptxas's oldest GPU, sm_101* for sm_110*).
    for (const gpu of info.gpuNames) expect(findTarget(gpu), gpu).toBeDefined();
    for (const t of TARGETS) expect(archFor(t.name, info.gpuNames), t.name).not.toBeNull();
    expect(archFor('sm_101a', info.gpuNames)).toBe('sm_110a');
    // Every .version ptxas accepts from 4.2 on is a catalog PTX ISA version, or a note says why not.
    const supported = info.ptxVersions.filter((v) => comparePtx(v, '4.2') >= 0);
    const leftOut = supported.filter((v) => !(PTX_VERSIONS as readonly string[]).includes(v));
    for (const v of leftOut) {
      expect(
        assemblerNotesFor('add.f16', undefined, v).map((n) => n.id),
        `.version ${v}`,
      ).not.toEqual([]);
    }
    expect(summary.cells).toBe(TARGETS.length * (supported.length - leftOut.length));
    expect(summary.cases).toBe(cases.length);
  });

  it('finds every rejected line in one run: the accepted rest assembles cleanly', () => {
    // rejectedLines re-assembles what ptxas accepted; had ptxas stopped early, the re-run would
    // find more errors (and they would still be counted). ptxas 13.0 reports them all at once.
    expect(summary.foundOnRetry).toBe(0);
    expect(summary.ptxasRuns).toBeGreaterThan(summary.cells);
  });

  it('assembles every form on sm_121a at the newest PTX ISA and nothing on sm_50', () => {
    // A sanity check on the harness itself (registers, operand widths, file layout): were the
    // generated lines wrong, ptxas would reject forms everywhere and the comparison be hollow.
    // (Each form's minimal target and PTX version are covered by the agreement below: the
    // catalog calls a form valid exactly from there on.)
    const newest = info.ptxVersions
      .filter((v) => (PTX_VERSIONS as readonly string[]).includes(v))
      .at(-1)!;
    expect(summary.acceptedPerCell.get(`sm_121a@${newest}`)).toBeGreaterThanOrEqual(FORMS.length);
    // On sm_50 no arithmetic assembles; cvt between f16, f32 and f64 does.
    expect(summary.acceptedPerFamilyCell.get('arithmetic:sm_50@9.0') ?? 0).toBe(0);
    expect(summary.acceptedIn.get('cvt.rn.f16.f32')?.has('sm_50@9.0')).toBe(true);
  });

  it('assembles every cvt form somewhere, and on its least target and PTX ISA version', () => {
    for (const form of CVT_FORMS) {
      expect(summary.acceptedSomewhere.has(form.text), form.text).toBe(true);
      expect(
        summary.acceptedIn.get(form.text)?.has(`${form.minTarget}@${form.minPtx}`),
        form.text,
      ).toBe(true);
    }
  });

  it('agrees on every form, near miss and spelling, target and PTX version', () => {
    expect(summary.disagreements.length, `disagreements:\n${show(summary.disagreements)}`).toBe(0);
  });

  it('reads as the form exactly the spellings ptxas assembles: any order, the type as one unit', () => {
    // The probes are not hollow: ptxas assembles most orders, and the parser reads each of
    // those as a form with a note that names the form's own spelling.
    const probes = cases.filter((c) => c.kind === 'spelling');
    const assembled = probes.filter((c) => summary.acceptedSomewhere.has(c.head));
    expect(assembled.filter((c) => c.family === 'arithmetic').length).toBeGreaterThan(1000);
    expect(assembled.filter((c) => c.family === 'cvt').length).toBeGreaterThan(500);
    for (const c of assembled) {
      const r = parseInstruction(c.head);
      expect(r.ok && r.spelling?.canonical, c.head).toBe(r.ok && r.form.text);
    }
    // What ptxas refuses among them: the mixed type split up or turned round, a doubled
    // modifier outside REPEATABLE_MODIFIERS.
    const refused = probes.filter((c) => !summary.acceptedSomewhere.has(c.head));
    for (const c of refused) expect(parseInstruction(c.head).ok, c.head).toBe(false);
    expect(refused.some((c) => c.head === 'add.sat.f16.f32')).toBe(true);
    expect(refused.some((c) => c.head === 'cvt.rn.rn.f16.f32')).toBe(true);
  });

  it('lets exactly the modifiers of the records’ repeatable be written twice, as ptxas does', () => {
    for (const r of ARITHMETIC_RECORDS)
      expect(r.repeatable, r.opcode).toEqual(REPEATABLE_MODIFIERS);
    // A modifier written twice (cvt.f16.f16 names a type twice: that is no repetition).
    const doubled = (head: string) => {
      const tokens = head.split('.').slice(1);
      return tokens.find((t, i) => tokens.indexOf(t) !== i && !CVT_TYPE_NAMES.has(t));
    };
    const tally = (family: 'arithmetic' | 'cvt') => {
      const repeatable = new Set<string>();
      const notRepeatable = new Set<string>();
      for (const c of cases.filter((x) => x.kind === 'spelling' && x.family === family)) {
        const token = doubled(c.head);
        if (token === undefined) continue;
        (summary.acceptedSomewhere.has(c.head) ? repeatable : notRepeatable).add(token);
      }
      return { repeatable, notRepeatable };
    };
    const arithmetic = tally('arithmetic');
    expect([...arithmetic.repeatable].sort()).toEqual([...REPEATABLE_MODIFIERS].sort());
    for (const m of ['rn', 'rz', 'ftz', 'oob', 'xorsign', 'abs'])
      expect(arithmetic.notRepeatable).toContain(m);
    const cvt = tally('cvt');
    expect([...cvt.repeatable].sort()).toEqual([...CVT_REPEATABLE_MODIFIERS].sort());
    for (const m of ['rn', 'rz', 'rna', 'rs', 'rni', 'ftz']) expect(cvt.notRepeatable).toContain(m);
  });

  it('knows which PTX ISA versions accept each target, as ptxas does', () => {
    // Checked on its own because on old targets (sm_50, sm_52) every form is invalid anyway.
    const differ: string[] = [];
    for (const target of TARGETS) {
      for (const ptx of PTX_VERSIONS.filter((v) => info.ptxVersions.includes(v))) {
        const ptxasTakes = !summary.headerRejected.has(`${target.name}@${ptx}`);
        if (ptxasTakes !== ptxAcceptsTarget(target, ptx)) {
          differ.push(
            `.target ${target.name} at .version ${ptx}: ptxas ${ptxasTakes ? 'accepts' : 'refuses'}`,
          );
        }
      }
    }
    expect(differ).toEqual([]);
  });

  it('gives the reasons ptxas gives: the same highest target and PTX ISA version required', () => {
    // ptxas names every feature gate a line trips ("Feature '.bf16' requires .target sm_80",
    // "Feature 'add.bf16' requires .target sm_90"); the catalog names the requirements of the
    // form. The strictest of each kind must match, so the reasons point at the same fix.
    const mismatches: string[] = [];
    let compared = 0;
    for (const r of summary.formRejections) {
      const ptxasSm = r.ptxasMessages.flatMap((m) =>
        [...m.matchAll(/requires \.target sm_(\d+)/g)].map((x) => Number(x[1])),
      );
      const ptxasPtx = r.ptxasMessages.flatMap((m) =>
        [...m.matchAll(/requires PTX ISA \.version (\d+\.\d+)/g)].map((x) => x[1]!),
      );
      const reasons = verdictFor(r.form, r.target, r.ptx).reasons;
      // The catalog's reasons say "requires sm_N or higher" and "requires PTX ISA V"; a cvt
      // feature of listed architectures says "is supported on … only", as ptxas says "not
      // supported on .target" with no number.
      const catalogSm = reasons.flatMap((x) =>
        x.code === 'target'
          ? [...x.message.matchAll(/requires sm_(\d+)/g)].map((m) => Number(m[1]))
          : [],
      );
      const catalogPtx = reasons.flatMap((x) =>
        x.code === 'ptx-version'
          ? [...x.message.matchAll(/requires PTX ISA (\d+\.\d+)/g)].map((m) => m[1]!)
          : [],
      );
      const highest = (xs: number[]) => (xs.length ? Math.max(...xs) : null);
      const newest = (xs: string[]) => (xs.length ? maxPtx(xs) : null);
      compared++;
      // Where ptxas refuses the target outright ("not supported on .target"), the catalog must
      // say the feature exists on listed targets only; other target numbers are then moot.
      const notSupported = r.ptxasMessages.some((m) => /not supported on \.target/.test(m));
      const onlyListed = reasons.some((x) => / only; target is /.test(x.message));
      if (notSupported || onlyListed) {
        if (notSupported !== onlyListed || newest(ptxasPtx) !== newest(catalogPtx))
          mismatches.push(
            `${r.form.text} @ ${r.target.name} PTX ${r.ptx}: ptxas [${r.ptxasMessages.join('; ')}], catalog [${reasons.map((x) => x.message).join('; ')}]`,
          );
        continue;
      }
      if (highest(ptxasSm) !== highest(catalogSm) || newest(ptxasPtx) !== newest(catalogPtx)) {
        mismatches.push(
          `${r.form.text} @ ${r.target.name} PTX ${r.ptx}: ptxas [${r.ptxasMessages.join('; ')}], catalog [${reasons.map((x) => x.message).join('; ')}]`,
        );
      }
    }
    expect(compared).toBeGreaterThan(1000);
    expect(mismatches.length, mismatches.slice(0, 20).join('\n')).toBe(0);
  });

  it('needs every note: each covers something ptxas assembles that the spec does not list (or refuses what it allows)', () => {
    for (const note of ASSEMBLER_NOTES) {
      if (note.scope.kind === 'ptx-version') {
        // Versions the catalog leaves out: needed while ptxas still accepts them.
        for (const v of note.scope.versions) expect(info.ptxVersions).toContain(v);
        continue;
      }
      if (note.scope.kind === 'target') continue; // checked below
      if (note.scope.kind === 'refused') {
        // What the text allows and ptxas refuses: probed, and refused on every cell.
        const probed = cases.filter((c) => assemblerNotesFor(c.head).includes(note));
        expect(probed.length, `note ${note.id} covers no probe`).toBeGreaterThan(0);
        for (const c of probed) expect(summary.acceptedSomewhere.has(c.head), c.head).toBe(false);
        continue;
      }
      const covered = cases.filter(
        (c) => summary.acceptedSomewhere.has(c.head) && assemblerNotesFor(c.head).includes(note),
      );
      expect(
        covered.length,
        `note ${note.id} covers nothing ptxas assembles; remove it`,
      ).toBeGreaterThan(0);
    }
  });

  it('follows ptxas where the notes say so: sm_101 at PTX 9.0 and sm_88 before 9.0', () => {
    for (const note of ASSEMBLER_NOTES.filter((n) => n.catalogFollows === 'ptxas')) {
      if (note.scope.kind !== 'target') continue;
      for (const target of note.scope.targets) {
        for (const ptx of note.scope.ptx) {
          // ptxas assembles forms there, and so does the catalog.
          expect(
            summary.acceptedPerCell.get(`${target}@${ptx}`),
            `${target}@${ptx}`,
          ).toBeGreaterThan(0);
          const check = checkInstruction('add.f16', target, ptx);
          expect(check.ok && check.verdict.valid, `add.f16 @ ${target} PTX ${ptx}`).toBe(true);
        }
      }
    }
  });
});
