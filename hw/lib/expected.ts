/**
 * The engine's expectations in the GPU capture harness's format (hw/README.md): the same
 * inputs (hw/lib/plan.ts), the same row hash (hw/lib/hash.ts), the same files. hw/compare.ts
 * uses these to check a capture; writeExpectedCapture writes a whole capture directory from
 * the engine, which is what a capture from a GPU that agrees with the engine would contain.
 *
 * Results come from the engine's fast path (src/engine/fast: compileFast(form).batch) on inputs
 * filled in bulk (fillInputs). `.oob` forms: the registers are ordinary values, and the engine, like the
 * measured hardware, zeroes a lane whose a or b holds the OOB-NaN pattern (oobNanBits).
 */
// Every family's semantics, provided before anything evaluates (engine/family-semantics.ts).
import '../../src/engine/all-families.ts';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { findForm } from '../../src/catalog/all-forms.ts';
import { compileFast } from '../../src/engine/fast/index.ts';
import type { EngineOptions } from '../../src/engine/options.ts';
import { hashWords, ROW_HASH_NAME } from './hash.ts';
import { cvtExpectedResults, cvtRowHasher } from './cvt-expected.ts';
import { cvtMinSmOf, cvtSectionsOf, cvtShapeByName, type CvtSectionName } from './cvt-plan.ts';
import {
  CAPTURE_FORMAT,
  CAPTURE_FORMAT_VERSION,
  SUMMARY_FILE,
  encodeHashes,
  encodeResults,
  rowDumpFileName,
  sectionFileName,
  type CaptureDevice,
  type CaptureForm,
  type CaptureSection,
  type CaptureSummary,
  type SectionName,
} from './capture-files.ts';
import {
  DEFAULT_SAMPLE_ROWS,
  DEFAULT_SAMPLE_SEED,
  ROW_LENGTH,
  fillInputs,
  inputArrays,
  minSmOf,
  sectionsOf,
  shapeOf,
  type FormShape,
  type GeneratorName,
} from './plan.ts';

export type Results = Uint16Array | Uint32Array;

export function shapeByName(text: string): FormShape {
  const form = findForm(text);
  if (!form || (form.family !== 'half' && form.family !== 'mixed'))
    throw new Error(`not a catalog arithmetic form: ${text}`);
  return shapeOf(form);
}

/** Whether the text names a cvt form (cvt-plan.ts and cvt-expected.ts handle those). */
export function isCvtForm(text: string): boolean {
  return findForm(text)?.family === 'convert';
}

function resultArray(shape: FormShape, length: number): Results {
  return shape.resultBits === 16 ? new Uint16Array(length) : new Uint32Array(length);
}

/** Inputs evaluated per engine batch call: one row. */
const CHUNK = ROW_LENGTH;

/** Engine results for inputs [first, first + count) of a section, in the harness's order. */
export function expectedResults(
  shape: FormShape,
  generator: GeneratorName,
  first: number,
  count: number,
  seed: number,
  options?: Partial<EngineOptions>,
): Results {
  const { batch } = compileFast(shape.form, options);
  const out = resultArray(shape, count);
  const inputs = inputArrays(Math.min(count, CHUNK));
  for (let done = 0; done < count; done += CHUNK) {
    const n = Math.min(CHUNK, count - done);
    fillInputs(shape, generator, first + done, n, seed, inputs);
    batch(inputs, out.subarray(done, done + n), n);
  }
  return out;
}

/** The 65,536 results of one row of a hashed section (what `capture --row` dumps). */
export function expectedRowResults(
  shape: FormShape,
  generator: GeneratorName,
  row: number,
  seed: number,
  options?: Partial<EngineOptions>,
): Results {
  return expectedResults(shape, generator, row * ROW_LENGTH, ROW_LENGTH, seed, options);
}

/**
 * A function of a row number that gives the row's hash, computed as the GPU does: the row's
 * results in column order through hashWords. The form is compiled and the buffers allocated
 * once, so hashing many rows costs only the engine's batch evaluation, the input fill and the
 * hash.
 */
export function rowHasher(
  shape: FormShape,
  generator: GeneratorName,
  seed: number,
  options?: Partial<EngineOptions>,
): (row: number) => [number, number] {
  const { batch } = compileFast(shape.form, options);
  const inputs = inputArrays(ROW_LENGTH);
  const out = resultArray(shape, ROW_LENGTH);
  return (row) => {
    fillInputs(shape, generator, row * ROW_LENGTH, ROW_LENGTH, seed, inputs);
    batch(inputs, out, ROW_LENGTH);
    return hashWords(out);
  };
}

/** The row hash of one row. */
export function expectedRowHash(
  shape: FormShape,
  generator: GeneratorName,
  row: number,
  seed: number,
  options?: Partial<EngineOptions>,
): [number, number] {
  return rowHasher(shape, generator, seed, options)(row);
}

export interface ExpectedCaptureOptions {
  readonly forms: readonly string[];
  readonly sampleRows?: number;
  readonly seed?: number;
  /** Rows of the `pairs` sections to write (all 65,536 by default: 2^32 evaluations a form). */
  readonly pairRows?: { readonly first: number; readonly count: number };
  readonly engineOptions?: Partial<EngineOptions>;
  readonly device?: CaptureDevice;
}

const ENGINE_DEVICE: CaptureDevice = {
  name: 'ptxf engine (expected values)',
  sm: 0,
  compiledFor: 0,
  driverVersion: 'none',
  runtimeVersion: 'none',
};

function write(dir: string, file: string, bytes: Uint8Array): void {
  mkdirSync(dirname(join(dir, file)), { recursive: true });
  writeFileSync(join(dir, file), bytes);
}

/** Writes the engine's expectations for the given forms as a capture directory. */
export function writeExpectedCapture(dir: string, options: ExpectedCaptureOptions): CaptureSummary {
  const sampleRows = options.sampleRows ?? DEFAULT_SAMPLE_ROWS;
  const seed = options.seed ?? DEFAULT_SAMPLE_SEED;
  const pairRows = options.pairRows ?? { first: 0, count: ROW_LENGTH };
  const forms: CaptureForm[] = options.forms.map((text) => {
    if (isCvtForm(text)) return writeExpectedCvtForm(dir, text, seed, pairRows, options);
    const shape = shapeByName(text);
    const sections: CaptureSection[] = sectionsOf(shape, sampleRows).map((s) => {
      const file = sectionFileName(text, s.name, s.layout);
      if (s.layout === 'full') {
        const results = expectedResults(shape, s.name, 0, s.size, seed, options.engineOptions);
        write(dir, file, encodeResults(results, shape.resultBits));
        return { name: s.name, layout: s.layout, file, count: s.size };
      }
      const { first, count } = s.name === 'pairs' ? pairRows : { first: 0, count: sampleRows };
      const hashRow = rowHasher(shape, s.name, seed, options.engineOptions);
      const hashes = Array.from({ length: count }, (_, i) => hashRow(first + i));
      write(dir, file, encodeHashes(hashes));
      return { name: s.name, layout: s.layout, file, firstRow: first, rows: count };
    });
    return {
      form: text,
      minSm: minSmOf(shape.form),
      captured: true,
      resultBits: shape.resultBits,
      lanes: shape.lanes,
      sections,
    };
  });
  const summary: CaptureSummary = {
    format: CAPTURE_FORMAT,
    formatVersion: CAPTURE_FORMAT_VERSION,
    producer: 'hw/lib/expected.ts',
    createdAt: new Date().toISOString(),
    device: options.device ?? ENGINE_DEVICE,
    hash: ROW_HASH_NAME,
    sampleSeed: seed,
    sampleRows,
    forms,
  };
  write(dir, SUMMARY_FILE, new TextEncoder().encode(JSON.stringify(summary, null, 2) + '\n'));
  return summary;
}

/**
 * A cvt form's files and summary entry. Its hashed sections (every 32-bit a) take the rows of
 * `pairRows`, as `capture --rows` gives them.
 */
function writeExpectedCvtForm(
  dir: string,
  text: string,
  seed: number,
  pairRows: { readonly first: number; readonly count: number },
  options: ExpectedCaptureOptions,
): CaptureForm {
  const shape = cvtShapeByName(text);
  const sections: CaptureSection[] = cvtSectionsOf(shape).map((s) => {
    const file = sectionFileName(text, s.name, s.layout);
    if (s.layout === 'full') {
      const results = cvtExpectedResults(shape, s.name, 0, s.size, seed, options.engineOptions);
      write(dir, file, encodeResults(results, shape.resultBits));
      return { name: s.name, layout: s.layout, file, count: s.size };
    }
    const hashRow = cvtRowHasher(shape, s.name, seed, options.engineOptions);
    const hashes = Array.from({ length: pairRows.count }, (_, i) => hashRow(pairRows.first + i));
    write(dir, file, encodeHashes(hashes));
    return { name: s.name, layout: s.layout, file, firstRow: pairRows.first, rows: pairRows.count };
  });
  return {
    form: text,
    minSm: cvtMinSmOf(shape.form),
    captured: true,
    resultBits: shape.resultBits,
    lanes: shape.lanes,
    sections,
  };
}

/** Writes the engine's results for one row as `capture --row` would. */
export function writeExpectedRowDump(
  dir: string,
  text: string,
  generator: SectionName,
  row: number,
  seed: number,
  options?: Partial<EngineOptions>,
): string {
  const file = rowDumpFileName(text, generator, row);
  if (isCvtForm(text)) {
    const shape = cvtShapeByName(text);
    const results = cvtExpectedResults(
      shape,
      generator as CvtSectionName,
      row * ROW_LENGTH,
      ROW_LENGTH,
      seed,
      options,
    );
    write(dir, file, encodeResults(results, shape.resultBits));
    return file;
  }
  const shape = shapeByName(text);
  const rowResults = expectedRowResults(shape, generator as GeneratorName, row, seed, options);
  write(dir, file, encodeResults(rowResults, shape.resultBits));
  return file;
}
