import type { Form } from '../../src/catalog/instruction.ts';
import { parseInstruction } from '../../src/catalog/parse-instruction.ts';
import { PTX_VERSIONS } from '../../src/catalog/ptx-versions.ts';
import { findTarget, TARGETS, type Target } from '../../src/catalog/targets.ts';
import { verdictFor } from '../../src/catalog/verdict.ts';
import type { AgreementCase } from './cases.ts';
import { archFor, rejectedLines, withTempDir, type PtxasInfo } from './ptxas-runner.ts';

/**
 * Compares the verdict of the catalog's parser and validator (parse-instruction.ts, verdict.ts)
 * with ptxas's for many instructions over a matrix of targets
 * and PTX ISA versions, and lists every (instruction, target, version) where they differ.
 */

export interface Disagreement {
  readonly head: string;
  readonly target: string;
  readonly ptx: string;
  readonly ptxasAccepts: boolean;
  readonly catalogSays: string;
  readonly ptxasSays: string;
}

export interface MatrixSummary {
  readonly cases: number;
  readonly cells: number;
  readonly ptxasRuns: number;
  /** Lines ptxas reported only when the accepted rest was assembled again. */
  readonly foundOnRetry: number;
  readonly disagreements: readonly Disagreement[];
  /** How many of the instructions ptxas assembled, per `target@ptx` cell. */
  readonly acceptedPerCell: ReadonlyMap<string, number>;
  /** The same per family: `arithmetic:sm_50@9.0`, `cvt:sm_50@9.0`. */
  readonly acceptedPerFamilyCell: ReadonlyMap<string, number>;
  /** Cells (`target@ptx`) where ptxas refuses the `.target`/`.version` pair itself. */
  readonly headerRejected: ReadonlySet<string>;
  /** Where both reject a catalog form (written its own way) for its target or version. */
  readonly formRejections: readonly FormRejection[];
  /** The instructions (heads) ptxas assembled in at least one cell. */
  readonly acceptedSomewhere: ReadonlySet<string>;
  /** The cells (`target@ptx`) where ptxas assembled each catalog form. */
  readonly acceptedIn: ReadonlyMap<string, ReadonlySet<string>>;
}

export interface FormRejection {
  readonly form: Form;
  readonly target: Target;
  readonly ptx: string;
  /** ptxas's messages for the line, e.g. "Feature 'add.bf16' requires .target sm_90 or higher". */
  readonly ptxasMessages: readonly string[];
}

export interface Cell {
  readonly target: Target;
  readonly ptx: string;
  readonly arch: string;
}

/** Every (target, PTX ISA version) pair both the catalog and this ptxas know. */
export function allCells(info: PtxasInfo, ptxasVersions: readonly string[]): Cell[] {
  const versions = PTX_VERSIONS.filter((v) => ptxasVersions.includes(v));
  const cells: Cell[] = [];
  for (const target of TARGETS) {
    const arch = archFor(target.name, info.gpuNames);
    if (!arch) continue;
    for (const ptx of versions) cells.push({ target, ptx, arch });
  }
  return cells;
}

/**
 * A name read as a form (`refused`: as written ptxas refuses it, in another case), or the
 * parser's error.
 */
type Parsed = { readonly form: Form; readonly refused?: string } | { readonly error: string };

// The matrix asks about the same few hundred names millions of times: parse each name once.
const parseCache = new Map<string, Parsed>();
function parsedName(text: string): Parsed {
  let parsed = parseCache.get(text);
  if (!parsed) {
    const r = parseInstruction(text);
    parsed = !r.ok
      ? { error: r.error.message }
      : r.spelling?.caseChanged
        ? { form: r.form, refused: r.spelling.message }
        : { form: r.form };
    parseCache.set(text, parsed);
  }
  return parsed;
}

// Many names (every spelling of a form) read as the same form: judge each form once per cell.
const verdictCache = new Map<string, { valid: boolean; why: () => string }>();
function catalogVerdict(
  parsed: Parsed,
  target: Target,
  ptx: string,
): { valid: boolean; why: () => string } {
  if ('error' in parsed) return { valid: false, why: () => parsed.error };
  const refused = parsed.refused;
  if (refused !== undefined) return { valid: false, why: () => refused };
  const key = `${parsed.form.text} ${target.name} ${ptx}`;
  let verdict = verdictCache.get(key);
  if (!verdict) {
    const v = verdictFor(parsed.form, target, ptx);
    verdict = {
      valid: v.valid,
      why: () => (v.valid ? 'valid' : v.reasons.map((r) => r.message).join('; ')),
    };
    verdictCache.set(key, verdict);
  }
  return verdict;
}

export async function compareWithPtxas(
  cases: readonly AgreementCase[],
  cells: readonly Cell[],
  parallel: number,
): Promise<MatrixSummary> {
  const parsed = cases.map((c) => parsedName(c.line));
  const disagreements: Disagreement[] = [];
  let ptxasRuns = 0;
  let foundOnRetry = 0;
  const acceptedPerCell = new Map<string, number>();
  const formRejections: FormRejection[] = [];
  const headerRejected = new Set<string>();
  const acceptedSomewhere = new Set<string>();
  const acceptedIn = new Map<string, Set<string>>();
  const acceptedPerFamilyCell = new Map<string, number>();
  const lines = cases.map((c) => c.line);
  const results = await withTempDir((dir) =>
    rejectedLines(
      cells.map((cell) => ({
        file: { version: cell.ptx, target: cell.target.name, instructions: lines },
        arch: cell.arch,
        tag: `${cell.target.name}-${cell.ptx}`,
      })),
      dir,
      parallel,
    ),
  );
  cells.forEach((cell, k) => {
    const result = results[k]!;
    ptxasRuns += result.runs;
    foundOnRetry += result.foundOnRetry;
    const accepted = result.rejected === null ? 0 : cases.length - result.rejected.size;
    acceptedPerCell.set(`${cell.target.name}@${cell.ptx}`, accepted);
    if (result.rejected === null) headerRejected.add(`${cell.target.name}@${cell.ptx}`);
    cases.forEach((c, i) => {
      const ptxasAccepts = result.rejected !== null && !result.rejected.has(i);
      if (ptxasAccepts) acceptedSomewhere.add(c.head);
      if (ptxasAccepts) {
        const key = `${c.family}:${cell.target.name}@${cell.ptx}`;
        acceptedPerFamilyCell.set(key, (acceptedPerFamilyCell.get(key) ?? 0) + 1);
      }
      if (ptxasAccepts && c.kind === 'form') {
        const cells = acceptedIn.get(c.head) ?? new Set<string>();
        cells.add(`${cell.target.name}@${cell.ptx}`);
        acceptedIn.set(c.head, cells);
      }
      const p = parsed[i]!;
      const mine = catalogVerdict(p, cell.target, cell.ptx);
      if (
        !ptxasAccepts &&
        !mine.valid &&
        c.kind === 'form' &&
        'form' in p &&
        result.rejected !== null
      ) {
        formRejections.push({
          form: p.form,
          target: cell.target,
          ptx: cell.ptx,
          ptxasMessages: result.messages.get(i) ?? [],
        });
      }
      if (mine.valid === ptxasAccepts) return;
      const ptxasSays =
        result.rejected === null
          ? result.fileErrors.join('; ')
          : ptxasAccepts
            ? 'assembles'
            : (result.messages.get(i) ?? []).join('; ');
      disagreements.push({
        head: c.head,
        target: cell.target.name,
        ptx: cell.ptx,
        ptxasAccepts,
        catalogSays: mine.why(),
        ptxasSays,
      });
    });
  });
  return {
    cases: cases.length,
    cells: cells.length,
    ptxasRuns,
    foundOnRetry,
    disagreements,
    acceptedPerCell,
    acceptedPerFamilyCell,
    formRejections,
    headerRejected,
    acceptedSomewhere,
    acceptedIn,
  };
}

export function targetByName(name: string): Target {
  const t = findTarget(name);
  if (!t) throw new Error(`unknown target ${name}`);
  return t;
}
