import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { findForm } from '../../src/catalog/all-forms.ts';
import type { EngineOptions } from '../../src/engine/options.ts';
import { approxJudge, isApproximate } from './approx-judge.ts';
import { cvtExpectedResults, type CvtResults } from './cvt-expected.ts';
import {
  cvtEdgeRows,
  cvtInputsAt,
  cvtSectionsOf,
  cvtShapeOf,
  type CvtRegisterInputs,
  type CvtSectionName,
  type CvtShape,
} from './cvt-plan.ts';
import { expectedResults } from './expected.ts';
import { rowHashes } from './row-hashes.ts';
import {
  decodeHashes,
  decodeResults,
  readCaptureFile,
  readSummary,
  rowDumpFileName,
  type CaptureForm,
  type CaptureSection,
  type CaptureSummary,
  type ResultBits,
  type SectionName,
} from './capture-files.ts';
import { EDGE_VALUES } from './edges.ts';
import { BLOCK_ROWS, ROW_HASH_NAME, blockCount, blockDigest, resultBlockDigests } from './hash.ts';
import { mix32 } from './sample.ts';
import {
  MAX_SAMPLE_ROWS,
  ROW_LENGTH,
  fillInputs,
  inputArrays,
  inputsAt,
  sectionsOf,
  shapeOf,
  type FormShape,
  type GeneratorName,
  type RegisterInputs,
} from './plan.ts';

/**
 * Compares a capture directory with the engine: per form and section, how many results (full
 * sections) or rows (hashed sections) agree, and the first disagreements with their operands.
 * A disagreeing hashed row is narrowed to operands when its full results were dumped with
 * `capture --row` into the capture's rows/ folder.
 *
 * Files are read as the GPU wrote them or in the compact forms a committed capture keeps
 * (hw/README.md): `<file>.gz` (gzip) for any file, and for a hashed section `<file>.blocks`
 * (block digests, hash.ts) instead of the row hashes (then whole blocks are recomputed), and
 * for a full section `<file>.blocks` instead of the results (then all of them are).
 *
 * Approximate forms (an error bound in the catalog record) are judged apart: how many results
 * equal the model, how many the spec's bound allows, which it does not. Only exact forms
 * decide whether the capture agrees.
 *
 * cvt forms (cvt-plan.ts) are compared the same way, against the engine's fast path through
 * cvt-expected.ts; every cvt form is exact.
 *
 * row-hashes.ts recomputes row hashes (on worker threads); compare-report.ts writes the report.
 */

export interface CompareOptions {
  /** Only forms whose text matches. */
  readonly forms?: RegExp;
  /**
   * Rows of each hashed section to recompute: 'all', or the edge-value rows plus this many
   * spread rows (row hashes), or ceil(this / BLOCK_ROWS) spread blocks (block digests).
   */
  readonly rowSample: number | 'all';
  /** How many disagreements to list per section. */
  readonly firstMismatches: number;
  /** Worker threads for row hashes (1: in this thread). */
  readonly jobs: number;
  readonly engineOptions?: Partial<EngineOptions>;
  /** Called as rows of a hashed section are recomputed. */
  readonly onProgress?: (progress: RowProgress) => void;
}

export interface RowProgress {
  readonly form: string;
  readonly section: SectionName;
  /** Rows recomputed so far, of `total`. */
  readonly done: number;
  readonly total: number;
}

export const DEFAULT_COMPARE_OPTIONS: CompareOptions = {
  rowSample: 64,
  firstMismatches: 5,
  jobs: 1,
};

/** One differing result: its index, the registers it was computed from, and both results. */
export interface ResultMismatch {
  readonly index: number;
  /** An arithmetic form's a, b, c; a cvt form's a and b (a up to 64 bits). */
  readonly inputs: RegisterInputs | CvtRegisterInputs;
  /** 64-bit results (cvt to .f64) are bigints. */
  readonly expected: number | bigint;
  readonly got: number | bigint;
}

export interface RowMismatch {
  readonly row: number;
  readonly expected: readonly [number, number];
  readonly got: readonly [number, number];
  /** Disagreeing results of the row, from its dump; null when no dump is in rows/. */
  readonly dump: {
    readonly file: string;
    readonly mismatches: readonly ResultMismatch[];
    readonly count: number;
  } | null;
}

export interface BlockMismatch {
  readonly block: number;
  readonly firstRow: number;
  readonly rows: number;
  readonly expected: readonly [number, number];
  readonly got: readonly [number, number];
}

/** One lane result of an approximate form that the spec's bound does not allow. */
export interface ApproxOutside {
  readonly index: number;
  readonly lane: number;
  /** The lane's input bits and result bits. */
  readonly input: number;
  readonly got: number;
  readonly model: number;
  readonly allowed: ReturnType<ReturnType<typeof approxJudge>>['allowed'];
}

/** Lane by lane, an approximate form's captured results against the model and the bound. */
export interface ApproxSectionReport {
  readonly lanes: number;
  readonly equalModel: number;
  readonly withinBound: number;
  /** Lanes whose exact value no result meets the bound for (not within, not outside). */
  readonly noValueAllowed: number;
  /** Lanes outside a bound that some value meets. */
  readonly outside: number;
  readonly firstOutside: readonly ApproxOutside[];
}

export interface SectionReport {
  readonly name: SectionName;
  readonly layout: 'full' | 'hashed-rows';
  /** What `checked` and `agree` count: results (full), rows, or blocks (block digests). */
  readonly unit: 'results' | 'rows' | 'blocks';
  readonly checked: number;
  readonly agree: number;
  /** Hashed: rows (or blocks) in the capture; the checked ones are a subset unless rowSample is 'all'. */
  readonly available?: number;
  /** Hashed: rows recomputed. */
  readonly rowsRecomputed?: number;
  readonly mismatches: readonly ResultMismatch[];
  readonly rowMismatches: readonly RowMismatch[];
  readonly blockMismatches: readonly BlockMismatch[];
  /** Approximate forms: the results judged against the spec's bound. */
  readonly approx?: ApproxSectionReport;
}

export interface FormReport {
  readonly form: string;
  readonly status: 'compared' | 'skipped' | 'invalid';
  /** Why it was skipped by the harness, or what is wrong with its entry. */
  readonly note?: string;
  readonly shape?: FormShape;
  /** A cvt form's plan (instead of `shape`). */
  readonly cvtShape?: CvtShape;
  /** The form's results are approximate: reported apart, not part of the verdict. */
  readonly approximate: boolean;
  readonly sections: readonly SectionReport[];
}

export interface CaptureReport {
  readonly dir: string;
  readonly summary: CaptureSummary;
  readonly forms: readonly FormReport[];
  /** Every exact form compared agrees and no entry is invalid. */
  readonly agreed: boolean;
}

type AnyResults = Results | CvtResults;
type Results = Uint16Array | Uint32Array;

/**
 * What comparing a form's sections needs of its plan: an arithmetic form's (plan.ts,
 * expected.ts) or a cvt form's (cvt-plan.ts, cvt-expected.ts).
 */
interface Subject {
  readonly text: string;
  readonly resultBits: ResultBits;
  /** The engine's results of inputs [first, first + count) of a section. */
  expected(section: SectionName, first: number, count: number, seed: number): AnyResults;
  /** The registers of input `index`, for the report. */
  inputsAt(section: SectionName, index: number, seed: number): ResultMismatch['inputs'];
  /** Rows of a hashed section worth checking first: those whose `a` is an edge value. */
  edgeRows(section: SectionName): readonly number[];
  /** Approximate forms: every lane of a full section judged against the bound. */
  judgeApprox?(section: SectionName, got: Results, seed: number): ApproxSectionReport;
}

function arithmeticSubject(shape: FormShape, options: CompareOptions): Subject {
  const eo = options.engineOptions;
  const generator = (section: SectionName) => section as GeneratorName;
  return {
    text: shape.form.text,
    resultBits: shape.resultBits,
    expected: (section, first, count, seed) =>
      expectedResults(shape, generator(section), first, count, seed, eo),
    inputsAt: (section, index, seed) => inputsAt(shape, generator(section), index, seed),
    edgeRows: (section) => (section === 'pairs' ? EDGE_VALUES[shape.sources[0]!.format] : []),
    ...(isApproximate(shape.form)
      ? {
          judgeApprox: (section: SectionName, got: Results, seed: number) =>
            judgeApprox(shape, generator(section), got, seed, options),
        }
      : {}),
  };
}

function cvtSubject(shape: CvtShape, options: CompareOptions): Subject {
  const eo = options.engineOptions;
  const generator = (section: SectionName) => section as CvtSectionName;
  return {
    text: shape.form.text,
    resultBits: shape.resultBits,
    expected: (section, first, count, seed) =>
      cvtExpectedResults(shape, generator(section), first, count, seed, eo),
    inputsAt: (section, index, seed) => cvtInputsAt(shape, generator(section), index, seed),
    edgeRows: () => cvtEdgeRows(shape),
  };
}

/** Rows to recompute: every row whose `a` is an edge value (`edgeRows`), plus `count` evenly spread rows. */
export function rowsToCheck(
  edgeRows: readonly number[],
  firstRow: number,
  rows: number,
  sample: number | 'all',
): number[] {
  if (sample === 'all' || rows <= sample)
    return Array.from({ length: rows }, (_, i) => firstRow + i);
  const chosen = new Set<number>();
  for (const v of edgeRows) if (v >= firstRow && v < firstRow + rows) chosen.add(v);
  const stride = rows / sample;
  for (let i = 0; i < sample; i++) {
    chosen.add(firstRow + Math.floor(i * stride) + (mix32(i) % Math.max(1, Math.floor(stride))));
  }
  return [...chosen].sort((x, y) => x - y);
}

/** Blocks of a block-digest file to recompute: all, or ceil(sample / BLOCK_ROWS) spread evenly. */
export function blocksToCheck(blocks: number, sample: number | 'all'): number[] {
  const k = sample === 'all' ? blocks : Math.min(blocks, Math.ceil(sample / BLOCK_ROWS));
  return Array.from({ length: k }, (_, i) => Math.floor(((i + 0.5) * blocks) / k));
}

/** A hashed section's stored hashes: the row hashes, or the digests of their blocks. */
type HashedStore =
  | { readonly kind: 'rows'; readonly hashes: [number, number][] }
  | { readonly kind: 'blocks'; readonly digests: [number, number][] };

function readHashed(dir: string, file: string): HashedStore {
  const path = join(dir, file);
  if (existsSync(path) || existsSync(`${path}.gz`))
    return { kind: 'rows', hashes: decodeHashes(readCaptureFile(dir, file)) };
  if (existsSync(`${path}.blocks`))
    return { kind: 'blocks', digests: decodeHashes(readFileSync(`${path}.blocks`)) };
  throw new Error(`${file}: not in ${dir} (nor ${file}.gz, ${file}.blocks)`);
}

function compareResults(
  subject: Subject,
  section: SectionName,
  first: number,
  expected: AnyResults,
  got: AnyResults,
  keep: number,
  seed: number,
): { agree: number; mismatches: ResultMismatch[]; count: number } {
  const mismatches: ResultMismatch[] = [];
  let agree = 0;
  for (let i = 0; i < expected.length; i++) {
    if (expected[i] === got[i]) agree++;
    else if (mismatches.length < keep)
      mismatches.push({
        index: first + i,
        inputs: subject.inputsAt(section, first + i, seed),
        expected: expected[i]!,
        got: got[i]!,
      });
  }
  return { agree, mismatches, count: expected.length - agree };
}

/** Every lane of an approximate form's full section, judged against the model and the bound. */
function judgeApprox(
  shape: FormShape,
  generator: GeneratorName,
  got: Results,
  seed: number,
  options: CompareOptions,
): ApproxSectionReport {
  const judge = approxJudge(shape.form, options.engineOptions);
  const inputs = inputArrays(got.length);
  fillInputs(shape, generator, 0, got.length, seed, inputs);
  let lanes = 0;
  let equalModel = 0;
  let withinBound = 0;
  let noValueAllowed = 0;
  const firstOutside: ApproxOutside[] = [];
  for (let i = 0; i < got.length; i++) {
    for (let lane = 0; lane < shape.lanes; lane++) {
      const input = (inputs.a[i]! >>> (16 * lane)) & 0xffff;
      const v = (got[i]! >>> (16 * lane)) & 0xffff;
      const j = judge(input, v);
      lanes++;
      if (v === j.model) equalModel++;
      if (j.withinBound) withinBound++;
      else if (j.noValueAllowed) noValueAllowed++;
      else if (firstOutside.length < options.firstMismatches)
        firstOutside.push({ index: i, lane, input, got: v, model: j.model, allowed: j.allowed });
    }
  }
  const outside = lanes - withinBound - noValueAllowed;
  return { lanes, equalModel, withinBound, noValueAllowed, outside, firstOutside };
}

function readResults(
  dir: string,
  file: string,
  subject: Subject,
  expectedCount: number,
): AnyResults {
  const results = decodeResults(readCaptureFile(dir, file), subject.resultBits);
  if (results.length !== expectedCount)
    throw new Error(`${file} holds ${results.length} results, the summary says ${expectedCount}`);
  return results;
}

const NO_MISMATCHES = { mismatches: [], rowMismatches: [], blockMismatches: [] } as const;

async function compareSection(
  dir: string,
  summary: CaptureSummary,
  subject: Subject,
  section: CaptureSection,
  options: CompareOptions,
): Promise<SectionReport> {
  const seed = summary.sampleSeed;
  if (section.layout === 'full') {
    const count = section.count ?? 0;
    const expected = subject.expected(section.name, 0, count, seed);
    const base = { ...NO_MISMATCHES, name: section.name, layout: section.layout };
    const digests = fullSectionDigests(dir, section.file);
    if (digests) return compareResultDigests(base, expected, digests, options);
    const got = readResults(dir, section.file, subject, count);
    const { agree, mismatches } = compareResults(
      subject,
      section.name,
      0,
      expected,
      got,
      options.firstMismatches,
      seed,
    );
    return {
      ...base,
      unit: 'results',
      checked: count,
      agree,
      mismatches,
      ...(subject.judgeApprox && !(got instanceof BigUint64Array)
        ? { approx: subject.judgeApprox(section.name, got, seed) }
        : {}),
    };
  }
  const firstRow = section.firstRow ?? 0;
  const rows = section.rows ?? 0;
  const store = readHashed(dir, section.file);
  const stored = store.kind === 'rows' ? store.hashes : store.digests;
  const storedCount = store.kind === 'rows' ? rows : blockCount(rows);
  if (stored.length !== storedCount)
    throw new Error(
      `${section.file}${store.kind === 'blocks' ? '.blocks' : ''} holds ${stored.length} ${store.kind}, the summary's ${rows} rows make ${storedCount}`,
    );
  const blocks = store.kind === 'blocks' ? blocksToCheck(storedCount, options.rowSample) : [];
  const checkRows =
    store.kind === 'rows'
      ? rowsToCheck(subject.edgeRows(section.name), firstRow, rows, options.rowSample)
      : blocks.flatMap((k) => blockRows(firstRow, rows, k));
  let done = 0;
  const expected = await rowHashes(
    {
      form: subject.text,
      generator: section.name,
      rows: checkRows,
      seed,
      engineOptions: options.engineOptions,
    },
    options.jobs,
    (n) => {
      done += n;
      options.onProgress?.({
        form: subject.text,
        section: section.name,
        done,
        total: checkRows.length,
      });
    },
  );
  const base = {
    ...NO_MISMATCHES,
    name: section.name,
    layout: section.layout,
    rowsRecomputed: checkRows.length,
  };
  if (store.kind === 'blocks') {
    let agree = 0;
    const blockMismatches: BlockMismatch[] = [];
    for (const k of blocks) {
      const blockRowList = blockRows(firstRow, rows, k);
      const want = blockDigest(blockRowList.map((r) => expected.get(r)!));
      const got = store.digests[k]!;
      if (want[0] === got[0] && want[1] === got[1]) agree++;
      else if (blockMismatches.length < options.firstMismatches)
        blockMismatches.push({
          block: k,
          firstRow: blockRowList[0]!,
          rows: blockRowList.length,
          expected: want,
          got,
        });
    }
    return {
      ...base,
      unit: 'blocks',
      checked: blocks.length,
      agree,
      available: storedCount,
      blockMismatches,
    };
  }
  let agree = 0;
  const rowMismatches: RowMismatch[] = [];
  for (const row of checkRows) {
    const want = expected.get(row)!;
    const got = store.hashes[row - firstRow]!;
    if (want[0] === got[0] && want[1] === got[1]) {
      agree++;
      continue;
    }
    if (rowMismatches.length >= options.firstMismatches) continue;
    rowMismatches.push({
      row,
      expected: want,
      got,
      dump: rowDump(dir, subject, section, row, seed, options),
    });
  }
  return {
    ...base,
    unit: 'rows',
    checked: checkRows.length,
    agree,
    available: rows,
    rowMismatches,
  };
}

/**
 * The block digests of a full section kept as `<file>.blocks` (its results hashed row by row:
 * hash.ts resultBlockDigests), or null when the results themselves are there.
 */
function fullSectionDigests(dir: string, file: string): [number, number][] | null {
  const path = join(dir, file);
  if (existsSync(path) || existsSync(`${path}.gz`) || !existsSync(`${path}.blocks`)) return null;
  return decodeHashes(readFileSync(`${path}.blocks`));
}

/** A full section against its block digests: every result is recomputed, every block checked. */
function compareResultDigests(
  base: Pick<SectionReport, 'name' | 'layout' | 'mismatches' | 'rowMismatches'>,
  expected: AnyResults,
  digests: readonly (readonly [number, number])[],
  options: CompareOptions,
): SectionReport {
  const want = resultBlockDigests(expected);
  if (want.length !== digests.length)
    throw new Error(
      `${base.name}: ${digests.length} block digests, the results make ${want.length}`,
    );
  const blockMismatches: BlockMismatch[] = [];
  let agree = 0;
  want.forEach((w, k) => {
    const got = digests[k]!;
    if (w[0] === got[0] && w[1] === got[1]) agree++;
    else if (blockMismatches.length < options.firstMismatches)
      blockMismatches.push({
        block: k,
        firstRow: k * BLOCK_ROWS,
        rows: Math.min(BLOCK_ROWS, Math.ceil(expected.length / ROW_LENGTH) - k * BLOCK_ROWS),
        expected: w,
        got,
      });
  });
  return {
    ...base,
    unit: 'blocks',
    checked: want.length,
    agree,
    available: want.length,
    rowsRecomputed: Math.ceil(expected.length / ROW_LENGTH),
    blockMismatches,
  };
}

/** The rows of block k of a section whose rows are firstRow .. firstRow + rows - 1. */
function blockRows(firstRow: number, rows: number, k: number): number[] {
  const start = k * BLOCK_ROWS;
  const n = Math.min(BLOCK_ROWS, rows - start);
  return Array.from({ length: n }, (_, i) => firstRow + start + i);
}

/** A differing row narrowed to its results, when `capture --row` dumped it into rows/. */
function rowDump(
  dir: string,
  subject: Subject,
  section: CaptureSection,
  row: number,
  seed: number,
  options: CompareOptions,
): RowMismatch['dump'] {
  const file = rowDumpFileName(subject.text, section.name, row);
  if (!existsSync(join(dir, file)) && !existsSync(join(dir, `${file}.gz`))) return null;
  const gotRow = readResults(dir, file, subject, ROW_LENGTH);
  const want = subject.expected(section.name, row * ROW_LENGTH, ROW_LENGTH, seed);
  const c = compareResults(
    subject,
    section.name,
    row * ROW_LENGTH,
    want,
    gotRow,
    options.firstMismatches,
    seed,
  );
  return { file, mismatches: c.mismatches, count: c.count };
}

/** Checks the summary's entry against the plan; returns what is wrong, or null. */
export function planProblem(
  entry: CaptureForm,
  shape: FormShape | CvtShape,
  summary: CaptureSummary,
): string | null {
  if (entry.resultBits !== shape.resultBits || entry.lanes !== shape.lanes)
    return `result ${entry.resultBits} bits × ${entry.lanes} lanes, the plan says ${shape.resultBits} × ${shape.lanes}`;
  const plan: readonly { name: string; layout: string; size: number }[] =
    'aBits' in shape ? cvtSectionsOf(shape) : sectionsOf(shape, summary.sampleRows);
  const names = (list: readonly { name: string }[]): string => list.map((s) => s.name).join(',');
  if (names(plan) !== names(entry.sections))
    return `sections [${names(entry.sections)}], the plan says [${names(plan)}]`;
  for (const [i, s] of entry.sections.entries()) {
    const p = plan[i]!;
    if (s.layout !== p.layout) return `section ${s.name} is ${s.layout}, the plan says ${p.layout}`;
    if (s.layout === 'full' && s.count !== p.size)
      return `section ${s.name} has ${s.count} results, the plan says ${p.size}`;
    if (s.layout === 'hashed-rows') {
      const first = s.firstRow ?? -1;
      const rows = s.rows ?? -1;
      if (first < 0 || rows < 1 || first + rows > p.size)
        return `section ${s.name} rows ${first}+${rows} outside 0..${p.size}`;
    }
  }
  return null;
}

async function compareForm(
  dir: string,
  summary: CaptureSummary,
  entry: CaptureForm,
  options: CompareOptions,
): Promise<FormReport> {
  const form = findForm(entry.form);
  if (form?.family === 'convert')
    return compareCvtForm(dir, summary, entry, cvtShapeOf(form), options);
  if (!form)
    return {
      form: entry.form,
      status: 'invalid',
      note: 'not a catalog form',
      approximate: false,
      sections: [],
    };
  const shape = shapeOf(form);
  const approximate = isApproximate(form);
  if (!entry.captured) {
    const note = entry.skipReason ?? 'not captured';
    return { form: entry.form, status: 'skipped', note, shape, approximate, sections: [] };
  }
  const problem = planProblem(entry, shape, summary);
  if (problem)
    return { form: entry.form, status: 'invalid', note: problem, shape, approximate, sections: [] };
  const subject = arithmeticSubject(shape, options);
  const sections: SectionReport[] = [];
  for (const section of entry.sections)
    sections.push(await compareSection(dir, summary, subject, section, options));
  return { form: entry.form, status: 'compared', shape, approximate, sections };
}

async function compareCvtForm(
  dir: string,
  summary: CaptureSummary,
  entry: CaptureForm,
  cvtShape: CvtShape,
  options: CompareOptions,
): Promise<FormReport> {
  const base = { form: entry.form, cvtShape, approximate: false };
  if (!entry.captured)
    return { ...base, status: 'skipped', note: entry.skipReason ?? 'not captured', sections: [] };
  const problem = planProblem(entry, cvtShape, summary);
  if (problem) return { ...base, status: 'invalid', note: problem, sections: [] };
  const subject = cvtSubject(cvtShape, options);
  const sections: SectionReport[] = [];
  for (const section of entry.sections)
    sections.push(await compareSection(dir, summary, subject, section, options));
  return { ...base, status: 'compared', sections };
}

/** Compares every (selected) form of the capture; `onForm` sees each form's report as it is done. */
export async function compareCapture(
  dir: string,
  options: CompareOptions = DEFAULT_COMPARE_OPTIONS,
  onForm?: (report: FormReport) => void,
): Promise<CaptureReport> {
  const summary = readSummary(dir);
  if (summary.hash !== ROW_HASH_NAME)
    throw new Error(`${dir}: row hash ${summary.hash}, this tool computes ${ROW_HASH_NAME}`);
  if (summary.sampleRows > MAX_SAMPLE_ROWS)
    throw new Error(`${dir}: sampleRows ${summary.sampleRows} > ${MAX_SAMPLE_ROWS}`);
  const forms: FormReport[] = [];
  for (const entry of summary.forms) {
    if (options.forms && !options.forms.test(entry.form)) continue;
    const report = await compareForm(dir, summary, entry, options);
    forms.push(report);
    onForm?.(report);
  }
  const agreed = forms.every(
    (f) => f.status === 'skipped' || (f.status === 'compared' && (f.approximate || formAgrees(f))),
  );
  return { dir, summary, forms, agreed };
}

/** A compared form all of whose checked results, rows or blocks equal the engine's. */
export function formAgrees(f: FormReport): boolean {
  return f.status === 'compared' && f.sections.every((s) => s.agree === s.checked);
}

/** An approximate form with no result outside a bound that some value meets. */
export function approxWithinBound(f: FormReport): boolean {
  return f.sections.every((s) => !s.approx || s.approx.outside === 0);
}
