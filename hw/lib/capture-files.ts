import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { CvtGeneratorName } from './cvt-plan.ts';
import type { GeneratorName, SectionLayout } from './plan.ts';

/**
 * The capture directory format (documented in hw/README.md). hw/capture.cu writes it on a GPU;
 * hw/lib/expected.ts writes the same format from the engine.
 */

export const CAPTURE_FORMAT = 'ptxf-hw-capture';
export const CAPTURE_FORMAT_VERSION = 1;

export interface CaptureDevice {
  readonly name: string;
  /** Compute capability as a number: 90 for sm_90. */
  readonly sm: number;
  /** The architecture the loaded kernels were compiled for (cudaFuncAttributes.binaryVersion). */
  readonly compiledFor: number;
  readonly driverVersion: string;
  readonly runtimeVersion: string;
}

/** A section's name: its input generator (plan.ts, or cvt-plan.ts for cvt forms). */
export type SectionName = GeneratorName | CvtGeneratorName;

/** Width of one result: 16 or 32 bits, 64 for a cvt form with an .f64 destination. */
export type ResultBits = 16 | 32 | 64;

export interface CaptureSection {
  readonly name: SectionName;
  readonly layout: SectionLayout;
  readonly file: string;
  /** Full: number of results in the file. */
  readonly count?: number;
  /** Hashed: rows firstRow .. firstRow+rows-1 are in the file, 8 bytes each. */
  readonly firstRow?: number;
  readonly rows?: number;
}

export interface CaptureForm {
  readonly form: string;
  readonly minSm: number;
  readonly captured: boolean;
  readonly skipReason?: string;
  readonly resultBits: ResultBits;
  readonly lanes: 1 | 2;
  readonly sections: readonly CaptureSection[];
  /** Milliseconds the GPU spent on this form (harness only). */
  readonly gpuMs?: number;
}

export interface CaptureSummary {
  readonly format: typeof CAPTURE_FORMAT;
  readonly formatVersion: number;
  readonly producer: string;
  readonly createdAt: string;
  readonly device: CaptureDevice;
  readonly hash: string;
  readonly sampleSeed: number;
  readonly sampleRows: number;
  readonly forms: readonly CaptureForm[];
}

export const SUMMARY_FILE = 'summary.json';
export const ROWS_DIR = 'rows';

export function sectionFileName(form: string, section: SectionName, layout: SectionLayout): string {
  return `${form}.${section}.${layout === 'full' ? 'bin' : 'hash'}`;
}

/** Full results of one row, written by `capture --row`. */
export function rowDumpFileName(form: string, section: SectionName, row: number): string {
  return join(ROWS_DIR, `${form}.${section}.${row}.bin`);
}

export function readSummary(dir: string): CaptureSummary {
  const summary = JSON.parse(readFileSync(join(dir, SUMMARY_FILE), 'utf8')) as CaptureSummary;
  if (summary.format !== CAPTURE_FORMAT || summary.formatVersion !== CAPTURE_FORMAT_VERSION) {
    throw new Error(
      `${dir}: not a ${CAPTURE_FORMAT} v${CAPTURE_FORMAT_VERSION} summary (format ${String(summary.format)} v${String(summary.formatVersion)})`,
    );
  }
  return summary;
}

/** Reads a capture file as the GPU wrote it, or its gzip-compressed copy `<file>.gz`. */
export function readCaptureFile(dir: string, file: string): Uint8Array {
  const path = join(dir, file);
  if (existsSync(path)) return readFileSync(path);
  if (existsSync(`${path}.gz`)) return gunzipSync(readFileSync(`${path}.gz`));
  throw new Error(`${file}: not in ${dir} (nor ${file}.gz)`);
}

/** Results stored little-endian, 2 or 4 bytes each. */
export function decodeResults(bytes: Uint8Array, resultBits: 16 | 32): Uint16Array | Uint32Array;
/** Results stored little-endian, 2, 4 or 8 bytes each (64-bit ones as a BigUint64Array). */
export function decodeResults(
  bytes: Uint8Array,
  resultBits: ResultBits,
): Uint16Array | Uint32Array | BigUint64Array;
export function decodeResults(
  bytes: Uint8Array,
  resultBits: ResultBits,
): Uint16Array | Uint32Array | BigUint64Array {
  const width = resultBits / 8;
  if (bytes.byteLength % width !== 0)
    throw new Error(`result file length ${bytes.byteLength} is not a multiple of ${width}`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const n = bytes.byteLength / width;
  if (resultBits === 64) {
    const out = new BigUint64Array(n);
    for (let i = 0; i < n; i++) out[i] = view.getBigUint64(8 * i, true);
    return out;
  }
  if (resultBits === 16) {
    const out = new Uint16Array(n);
    for (let i = 0; i < n; i++) out[i] = view.getUint16(2 * i, true);
    return out;
  }
  const out = new Uint32Array(n);
  for (let i = 0; i < n; i++) out[i] = view.getUint32(4 * i, true);
  return out;
}

export function encodeResults(
  results: ArrayLike<number> | BigUint64Array,
  resultBits: ResultBits,
): Uint8Array {
  const width = resultBits / 8;
  const bytes = new Uint8Array(results.length * width);
  const view = new DataView(bytes.buffer);
  if (results instanceof BigUint64Array || resultBits === 64) {
    if (!(results instanceof BigUint64Array) || resultBits !== 64)
      throw new Error('64-bit results are encoded from a BigUint64Array');
    results.forEach((r, i) => view.setBigUint64(8 * i, r, true));
    return bytes;
  }
  for (let i = 0; i < results.length; i++) {
    if (resultBits === 16) view.setUint16(2 * i, results[i]!, true);
    else view.setUint32(4 * i, results[i]!, true);
  }
  return bytes;
}

/** Row hashes: per row the low then the high 32-bit word, little-endian. */
export function decodeHashes(bytes: Uint8Array): [number, number][] {
  if (bytes.byteLength % 8 !== 0)
    throw new Error(`hash file length ${bytes.byteLength} is not a multiple of 8`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out: [number, number][] = [];
  for (let i = 0; i < bytes.byteLength; i += 8)
    out.push([view.getUint32(i, true), view.getUint32(i + 4, true)]);
  return out;
}

export function encodeHashes(hashes: readonly (readonly [number, number])[]): Uint8Array {
  const bytes = new Uint8Array(hashes.length * 8);
  const view = new DataView(bytes.buffer);
  hashes.forEach(([lo, hi], i) => {
    view.setUint32(8 * i, lo, true);
    view.setUint32(8 * i + 4, hi, true);
  });
  return bytes;
}
