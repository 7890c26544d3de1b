import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { findForm } from '../../src/catalog/forms.ts';
import type { EngineOptions } from '../../src/engine/index.ts';
import { expectedResults, expectedRowHash, type Results } from './expected.ts';
import {
  ROWS_DIR,
  decodeHashes,
  decodeResults,
  readSummary,
  rowDumpFileName,
  type CaptureForm,
  type CaptureSection,
  type CaptureSummary,
} from './capture-files.ts';
import { EDGE_VALUES } from './edges.ts';
import { ROW_HASH_NAME, formatHash } from './hash.ts';
import { mix32 } from './sample.ts';
import {
  MAX_SAMPLE_ROWS,
  ROW_LENGTH,
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
 */

export interface CompareOptions {
  /** Only forms whose text matches. */
  readonly forms?: RegExp;
  /** Rows of each hashed section to recompute: 'all', or the edge-value rows plus this many spread rows. */
  readonly rowSample: number | 'all';
  /** How many disagreements to list per section. */
  readonly firstMismatches: number;
  /** Worker threads for row hashes (1: in this thread). */
  readonly jobs: number;
  readonly engineOptions?: Partial<EngineOptions>;
}

export const DEFAULT_COMPARE_OPTIONS: CompareOptions = {
  rowSample: 64,
  firstMismatches: 5,
  jobs: 1,
};

export interface ResultMismatch {
  readonly index: number;
  readonly inputs: RegisterInputs;
  readonly expected: number;
  readonly got: number;
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

export interface SectionReport {
  readonly name: GeneratorName;
  readonly layout: 'full' | 'hashed-rows';
  /** Full: results compared. Hashed: rows recomputed. */
  readonly checked: number;
  readonly agree: number;
  /** Hashed: rows in the capture (the checked ones are a subset unless rowSample is 'all'). */
  readonly available?: number;
  readonly mismatches: readonly ResultMismatch[];
  readonly rowMismatches: readonly RowMismatch[];
}

export interface FormReport {
  readonly form: string;
  readonly status: 'compared' | 'skipped' | 'invalid';
  /** Why it was skipped by the harness, or what is wrong with its entry. */
  readonly note?: string;
  readonly shape?: FormShape;
  readonly sections: readonly SectionReport[];
}

export interface CaptureReport {
  readonly dir: string;
  readonly summary: CaptureSummary;
  readonly forms: readonly FormReport[];
  readonly agreed: boolean;
}

export interface RowHashJob {
  readonly form: string;
  readonly generator: GeneratorName;
  readonly rows: readonly number[];
  readonly seed: number;
  readonly engineOptions?: Partial<EngineOptions>;
}

/** Rows to recompute: every row whose `a` is an edge value (pairs), plus `count` evenly spread rows. */
export function rowsToCheck(
  shape: FormShape,
  generator: GeneratorName,
  firstRow: number,
  rows: number,
  sample: number | 'all',
): number[] {
  if (sample === 'all' || rows <= sample)
    return Array.from({ length: rows }, (_, i) => firstRow + i);
  const chosen = new Set<number>();
  if (generator === 'pairs') {
    for (const v of EDGE_VALUES[shape.sources[0]!.format])
      if (v >= firstRow && v < firstRow + rows) chosen.add(v);
  }
  const stride = rows / sample;
  for (let i = 0; i < sample; i++) {
    chosen.add(firstRow + Math.floor(i * stride) + (mix32(i) % Math.max(1, Math.floor(stride))));
  }
  return [...chosen].sort((x, y) => x - y);
}

async function rowHashes(job: RowHashJob, jobs: number): Promise<Map<number, [number, number]>> {
  const result = new Map<number, [number, number]>();
  if (jobs <= 1 || job.rows.length < 2) {
    const shape = shapeOf(findForm(job.form)!);
    for (const row of job.rows)
      result.set(row, expectedRowHash(shape, job.generator, row, job.seed, job.engineOptions));
    return result;
  }
  const parts = Array.from({ length: Math.min(jobs, job.rows.length) }, (_, k) =>
    job.rows.filter((_, i) => i % jobs === k),
  );
  const module = new URL('./row-hash-worker.ts', import.meta.url).href;
  const outputs = await Promise.all(
    parts.map(
      (rows) =>
        new Promise<number[]>((resolve, reject) => {
          const worker = new Worker(new URL('./ts-worker.mjs', import.meta.url), {
            workerData: { ...job, rows, module },
          });
          worker.once('message', (m: number[]) => {
            resolve(m);
            void worker.terminate();
          });
          worker.once('error', reject);
        }),
    ),
  );
  for (const out of outputs)
    for (let i = 0; i < out.length; i += 3) result.set(out[i]!, [out[i + 1]!, out[i + 2]!]);
  return result;
}

function compareResults(
  shape: FormShape,
  generator: GeneratorName,
  first: number,
  expected: Results,
  got: Results,
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
        inputs: inputsAt(shape, generator, first + i, seed),
        expected: expected[i]!,
        got: got[i]!,
      });
  }
  return { agree, mismatches, count: expected.length - agree };
}

function readResults(dir: string, file: string, shape: FormShape, expectedCount: number): Results {
  const results = decodeResults(readFileSync(join(dir, file)), shape.resultBits);
  if (results.length !== expectedCount)
    throw new Error(`${file} holds ${results.length} results, the summary says ${expectedCount}`);
  return results;
}

async function compareSection(
  dir: string,
  summary: CaptureSummary,
  shape: FormShape,
  section: CaptureSection,
  options: CompareOptions,
): Promise<SectionReport> {
  const seed = summary.sampleSeed;
  const base = { name: section.name, layout: section.layout, rowMismatches: [] as RowMismatch[] };
  if (section.layout === 'full') {
    const count = section.count ?? 0;
    const got = readResults(dir, section.file, shape, count);
    const expected = expectedResults(shape, section.name, 0, count, seed, options.engineOptions);
    const { agree, mismatches } = compareResults(
      shape,
      section.name,
      0,
      expected,
      got,
      options.firstMismatches,
      seed,
    );
    return { ...base, checked: count, agree, mismatches };
  }
  const firstRow = section.firstRow ?? 0;
  const rows = section.rows ?? 0;
  const hashes = decodeHashes(readFileSync(join(dir, section.file)));
  if (hashes.length !== rows)
    throw new Error(`${section.file} holds ${hashes.length} rows, the summary says ${rows}`);
  const checkRows = rowsToCheck(shape, section.name, firstRow, rows, options.rowSample);
  const expected = await rowHashes(
    {
      form: shape.form.text,
      generator: section.name,
      rows: checkRows,
      seed,
      engineOptions: options.engineOptions,
    },
    options.jobs,
  );
  let agree = 0;
  const rowMismatches: RowMismatch[] = [];
  for (const row of checkRows) {
    const want = expected.get(row)!;
    const got = hashes[row - firstRow]!;
    if (want[0] === got[0] && want[1] === got[1]) {
      agree++;
      continue;
    }
    if (rowMismatches.length >= options.firstMismatches) continue;
    const file = rowDumpFileName(shape.form.text, section.name, row);
    let dump: RowMismatch['dump'] = null;
    if (existsSync(join(dir, file))) {
      const gotRow = readResults(dir, file, shape, ROW_LENGTH);
      const want = expectedResults(
        shape,
        section.name,
        row * ROW_LENGTH,
        ROW_LENGTH,
        seed,
        options.engineOptions,
      );
      const c = compareResults(
        shape,
        section.name,
        row * ROW_LENGTH,
        want,
        gotRow,
        options.firstMismatches,
        seed,
      );
      dump = { file, mismatches: c.mismatches, count: c.count };
    }
    rowMismatches.push({ row, expected: want, got, dump });
  }
  return {
    ...base,
    checked: checkRows.length,
    agree,
    available: rows,
    mismatches: [],
    rowMismatches,
  };
}

/** Checks the summary's entry against the plan; returns what is wrong, or null. */
export function planProblem(
  entry: CaptureForm,
  shape: FormShape,
  summary: CaptureSummary,
): string | null {
  if (entry.resultBits !== shape.resultBits || entry.lanes !== shape.lanes)
    return `result ${entry.resultBits} bits × ${entry.lanes} lanes, the plan says ${shape.resultBits} × ${shape.lanes}`;
  const plan = sectionsOf(shape, summary.sampleRows);
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
  if (!form)
    return { form: entry.form, status: 'invalid', note: 'not a catalog form', sections: [] };
  const shape = shapeOf(form);
  if (!entry.captured) {
    const note = entry.skipReason ?? 'not captured';
    return { form: entry.form, status: 'skipped', note, shape, sections: [] };
  }
  const problem = planProblem(entry, shape, summary);
  if (problem) return { form: entry.form, status: 'invalid', note: problem, shape, sections: [] };
  const sections: SectionReport[] = [];
  for (const section of entry.sections)
    sections.push(await compareSection(dir, summary, shape, section, options));
  return { form: entry.form, status: 'compared', shape, sections };
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
    (f) => f.status !== 'invalid' && f.sections.every((s) => s.agree === s.checked),
  );
  return { dir, summary, forms, agreed };
}

// ---- text report ----

function hexBits(value: number, bits: number): string {
  return `0x${value.toString(16).padStart(bits / 4, '0')}`;
}

function registerBits(shape: FormShape, name: 'a' | 'b' | 'c'): number {
  return shape.form.operands.find((o) => o.name === name)!.bits;
}

export function describeInputs(shape: FormShape, inputs: RegisterInputs): string {
  return shape.sources
    .map((s) => `${s.name}=${hexBits(inputs[s.name], registerBits(shape, s.name))}`)
    .join(' ');
}

function describeMismatch(shape: FormShape, m: ResultMismatch): string {
  return `${shape.form.text} ${describeInputs(shape, m.inputs)}: engine ${hexBits(m.expected, shape.resultBits)}, capture ${hexBits(m.got, shape.resultBits)}`;
}

function formAgrees(f: FormReport): boolean {
  return f.status === 'compared' && f.sections.every((s) => s.agree === s.checked);
}

export function formatHeader(dir: string, summary: CaptureSummary): string {
  const d = summary.device;
  return `capture ${dir}: ${d.name} (sm_${d.sm}, kernels for sm_${d.compiledFor}), driver ${d.driverVersion}, runtime ${d.runtimeVersion}, by ${summary.producer}`;
}

/** The lines of one form: its agreement counts, then its first disagreements. */
export function formatForm(f: FormReport, dir: string, summary: CaptureSummary): string[] {
  if (f.status !== 'compared') return [`${f.form}: ${f.status} (${f.note})`];
  const parts = f.sections.map((s) =>
    s.layout === 'full'
      ? `${s.name} ${s.agree}/${s.checked} results agree`
      : `${s.name} ${s.agree}/${s.checked} rows agree (${s.checked} of ${s.available} rows recomputed, ${ROW_LENGTH} results each)`,
  );
  const lines = [`${f.form}: ${formAgrees(f) ? 'AGREE' : 'DIFFER'}: ${parts.join('; ')}`];
  for (const s of f.sections) {
    for (const m of s.mismatches)
      lines.push(`  ${s.name}[${m.index}] ${describeMismatch(f.shape!, m)}`);
    for (const r of s.rowMismatches) {
      lines.push(
        `  ${s.name} row ${r.row} (${hexBits(r.row, 16)}): hash engine ${formatHash(r.expected)}, capture ${formatHash(r.got)}`,
      );
      if (r.dump) {
        lines.push(`    ${r.dump.file}: ${r.dump.count} of ${ROW_LENGTH} results differ`);
        for (const m of r.dump.mismatches)
          lines.push(`    ${s.name}[${m.index}] ${describeMismatch(f.shape!, m)}`);
      } else {
        lines.push(
          `    narrow it down: hw/build/capture --row ${f.form} ${s.name} ${r.row} --seed ${summary.sampleSeed} --out ${dir}  (writes ${ROWS_DIR}/), then compare again`,
        );
      }
    }
  }
  return lines;
}

export function formatTotals(forms: readonly FormReport[]): string {
  const count = (status: FormReport['status']): number =>
    forms.filter((f) => f.status === status).length;
  return `${forms.filter(formAgrees).length} of ${count('compared')} compared forms agree; ${count('skipped')} skipped; ${count('invalid')} invalid`;
}

export function formatReport(report: CaptureReport): string {
  return [
    formatHeader(report.dir, report.summary),
    ...report.forms.flatMap((f) => formatForm(f, report.dir, report.summary)),
    formatTotals(report.forms),
  ].join('\n');
}
