import { beforeAll, describe, expect, it } from 'vitest';
import { PTXAS_RELEASE } from '../../src/catalog/assembler-notes.ts';
import { parseInstruction } from '../../src/catalog/parse-instruction.ts';
import { PTX_VERSIONS } from '../../src/catalog/ptx-versions.ts';
import { TARGETS, type Target } from '../../src/catalog/targets.ts';
import { verdictFor } from '../../src/catalog/verdict.ts';
import { suiteNeeds } from '../support/tools.ts';
import { MATRIX_FORMS, MMA_FORMS, WGMMA_FORMS, matrixCases, type MatrixCase } from './mma-cases.ts';
import {
  archFor,
  findPtxas,
  rejectedLines,
  withTempDir,
  type PtxasInfo,
  type Rejections,
} from './ptxas-runner.ts';

/**
 * The catalog's matrix forms (records/matrix.ts), read by the one parser (parse-instruction.ts)
 * and judged by the one validator (verdict.ts), against NVIDIA's assembler: every
 * floating-point mma form and every dense floating-point wgmma form (A from a descriptor and
 * from registers), with exactly the registers the catalog gives each fragment, and ~650 near
 * misses (mma-cases.ts), on every target at each PTX ISA version where a requirement of the
 * family begins, the version before it, the newest, and the first version that accepts the
 * target. The parser reads each form's text as the form and refuses every near miss; ptxas
 * assembles the forms at exactly the cells where the verdict is valid, and refuses every near
 * miss everywhere. One ptxas run per cell on a file with one instruction per line (plus an
 * empty-kernel probe and re-runs of the accepted lines), two at a time: about 1,250 runs, 47 s
 * of CPU (32 s user, 15 s system; measured on the 2-core VM under load).
 */

const ptxas = suiteNeeds('mma agreement with ptxas', ['ptxas']) ? findPtxas() : null;

interface Cell {
  readonly instruction: 'mma' | 'wgmma';
  readonly target: Target;
  readonly ptx: string;
  readonly arch: string;
}

/**
 * The versions where the answer can change for one instruction family: each requirement's first
 * PTX ISA version, the one before it, and the newest ptxas knows. (Between two of them no
 * requirement changes; the versions each target is first accepted at are checked as cells of
 * their own below.)
 */
function versionsToCheck(instruction: 'mma' | 'wgmma', known: readonly string[]): string[] {
  const versions = PTX_VERSIONS.filter((v) => known.includes(v));
  const starts = new Set<string>([
    ...MATRIX_FORMS.filter((f) => f.matrix!.instruction === instruction).flatMap((f) =>
      f.requirements.map((r) => r.ptx),
    ),
    versions.at(-1)!,
  ]);
  const picked = new Set<string>();
  versions.forEach((v, i) => {
    if (!starts.has(v)) return;
    picked.add(v);
    if (i > 0) picked.add(versions[i - 1]!);
  });
  return versions.filter((v) => picked.has(v));
}

/** Every target at those versions, and at the first version that accepts it. */
function cellsFor(instruction: 'mma' | 'wgmma', info: PtxasInfo): Cell[] {
  const versions = versionsToCheck(instruction, info.ptxVersions);
  return TARGETS.flatMap((target) => {
    const arch = archFor(target.name, info.gpuNames);
    if (!arch) return [];
    const own = versions.includes(target.minPtx) ? [] : [target.minPtx];
    return [...versions, ...own]
      .filter((ptx) => info.ptxVersions.includes(ptx))
      .map((ptx) => ({ instruction, target, ptx, arch }));
  });
}

interface Outcome {
  readonly cells: readonly Cell[];
  readonly results: readonly Rejections[];
  /** The lines of each family, in the order its files hold them. */
  readonly cases: { readonly mma: readonly MatrixCase[]; readonly wgmma: readonly MatrixCase[] };
  readonly seconds: number;
  readonly runs: number;
}

/** Each (cell, line) of the outcome: whether ptxas assembled it, and what it said. */
function* verdicts(outcome: Outcome) {
  for (const [k, cell] of outcome.cells.entries()) {
    const result = outcome.results[k]!;
    for (const [i, c] of outcome.cases[cell.instruction].entries()) {
      const assembles = result.rejected !== null && !result.rejected.has(i);
      const says = () => (result.messages.get(i) ?? result.fileErrors).join('; ');
      yield { cell, c, assembles, says };
    }
  }
}

const where = (c: MatrixCase, cell: Cell) =>
  `${c.head}${c.aSource ? ` [A: ${c.aSource}]` : ''} @ ${cell.target.name} PTX ${cell.ptx}`;

describe.runIf(ptxas !== null)('mma agreement with ptxas', () => {
  const info = ptxas!;
  let outcome: Outcome;

  beforeAll(async () => {
    const started = performance.now();
    const all = matrixCases();
    const cases = {
      mma: all.filter((c) => c.instruction === 'mma'),
      wgmma: all.filter((c) => c.instruction === 'wgmma'),
    };
    const cells = [...cellsFor('mma', info), ...cellsFor('wgmma', info)];
    const results = await withTempDir((dir) =>
      rejectedLines(
        cells.map((cell) => ({
          file: {
            version: cell.ptx,
            target: cell.target.name,
            instructions: cases[cell.instruction].map((c) => c.line),
          },
          arch: cell.arch,
          tag: `${cell.instruction}-${cell.target.name}-${cell.ptx}`,
        })),
        dir,
        2,
      ),
    );
    const seconds = (performance.now() - started) / 1000;
    const runs = results.reduce((n, r) => n + r.runs, 0);
    outcome = { cells, results, cases, seconds, runs };
    const count = (i: 'mma' | 'wgmma') => cells.filter((c) => c.instruction === i).length;
    console.info(
      `mma agreement: ${cases.mma.length} mma lines (${MMA_FORMS.length} forms) × ${count('mma')} cells, ` +
        `${cases.wgmma.length} wgmma lines (${WGMMA_FORMS.length} forms) × ${count('wgmma')} cells; ` +
        `${runs} ptxas runs in ${seconds.toFixed(1)} s`,
    );
  }, 300_000);

  it('is ptxas of the release the data was written against', () => {
    expect(info.release).toBe(PTXAS_RELEASE);
  });

  it('reads every form by its text, and refuses every near miss', () => {
    const lines = [...outcome.cases.mma, ...outcome.cases.wgmma];
    for (const c of lines) {
      const r = parseInstruction(c.head);
      if (c.kind === 'form') expect(r.ok && r.form.text, c.head).toBe(c.head);
      else expect(r.ok, c.head).toBe(false);
    }
  });

  it('assembles each form exactly where the verdict is valid', () => {
    const differ: string[] = [];
    let compared = 0;
    const parsed = new Map<string, ReturnType<typeof parseInstruction>>();
    for (const { cell, c, assembles, says } of verdicts(outcome)) {
      if (c.kind !== 'form') continue;
      compared++;
      if (!parsed.has(c.head)) parsed.set(c.head, parseInstruction(c.head));
      const read = parsed.get(c.head)!;
      const valid = read.ok && verdictFor(read.form, cell.target, cell.ptx).valid;
      if (assembles !== valid)
        differ.push(
          `${where(c, cell)}: ptxas ${assembles ? 'assembles' : `refuses (${says()})`}, the verdict says ${valid ? 'valid' : 'not valid'}`,
        );
    }
    expect(compared).toBeGreaterThan(10_000);
    expect(differ.length, differ.slice(0, 20).join('\n')).toBe(0);
  });

  it('refuses every near miss on every target and version: the records list every form', () => {
    const assembled: string[] = [];
    for (const { cell, c, assembles } of verdicts(outcome))
      if (c.kind === 'near-miss' && assembles) assembled.push(where(c, cell));
    const misses = [...outcome.cases.mma, ...outcome.cases.wgmma].filter(
      (c) => c.kind === 'near-miss',
    );
    expect(misses.length).toBeGreaterThan(500);
    expect(assembled.slice(0, 20)).toEqual([]);
  });

  it('assembles every form somewhere, with the registers the catalog gives each fragment', () => {
    // A wrong register count is refused ("Argument vector size mismatch"), so a form that
    // assembles somewhere has the data's counts; and none is listed that assembles nowhere.
    const somewhere = new Set<string>();
    for (const { c, assembles } of verdicts(outcome))
      if (c.kind === 'form' && assembles) somewhere.add(`${c.head} ${c.aSource ?? ''}`);
    const formLines = [...outcome.cases.mma, ...outcome.cases.wgmma].filter(
      (c) => c.kind === 'form',
    );
    expect(formLines.length).toBe(MMA_FORMS.length + 2 * WGMMA_FORMS.length);
    expect(
      formLines.filter((c) => !somewhere.has(`${c.head} ${c.aSource ?? ''}`)).map((c) => c.head),
    ).toEqual([]);
  });

  it('needs few ptxas runs: errors are found in the first run or a short re-run', () => {
    expect(outcome.runs).toBeLessThan(4 * outcome.cells.length);
  });
});
