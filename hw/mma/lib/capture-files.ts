/**
 * The files of an mma capture (hw/mma/mma-capture.cu writes them): summary.json and one
 * mma-<group>.bin per input group, holding per form A, B, C and D of every tile (layout in
 * tiles.ts), each element little-endian in its slot width. Reading and writing them.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MMA_CAPTURE_FORMS, type MmaForm } from './forms.ts';
import { slotBits, type FragmentOperand } from './layout.ts';
import { geometryOf, type TileGeometry } from './tiles.ts';

export const MMA_SUMMARY_FILE = 'summary.json';

export interface MmaCaptureFormEntry {
  readonly form: string;
  readonly group: string;
  readonly file: string;
  readonly tiles: number;
  readonly sections: { readonly exact: number; readonly corner: number; readonly random: number };
  readonly offsets: {
    readonly a: number;
    readonly b: number;
    readonly c: number;
    readonly d: number;
  };
  /** GPU time of the form's launch; −1 in a self-test. */
  readonly gpuMs: number;
  readonly cornerCases: readonly string[];
}

export interface MmaCaptureSummary {
  readonly format: 'ptxf-mma-capture';
  readonly formatVersion: 1;
  readonly producer: string;
  /** gpu: measured; selftest: inputs only, D zero; model: D from the engine's model. */
  readonly mode: 'gpu' | 'selftest' | 'model';
  readonly createdAt: string;
  readonly device: {
    readonly name: string;
    readonly sm: number;
    readonly compiledFor: number;
    readonly driverVersion: number;
    readonly runtimeVersion: number;
  } | null;
  readonly seed: number;
  readonly randomTiles: number;
  readonly files: { readonly [group: string]: { readonly file: string; readonly bytes: number } };
  readonly forms: readonly MmaCaptureFormEntry[];
}

/** One form of a capture: its catalog form and every operand of every tile, as patterns. */
export interface MmaCapturedForm {
  readonly entry: MmaCaptureFormEntry;
  readonly form: MmaForm;
  readonly geometry: TileGeometry;
  /** Each operand of all tiles, tile after tile. */
  readonly a: Uint32Array;
  readonly b: Uint32Array;
  readonly c: Uint32Array;
  readonly d: Uint32Array;
}

export class MmaCaptureError extends Error {}

export function operandSize(g: TileGeometry, op: FragmentOperand): number {
  return op === 'a'
    ? g.products * g.m * g.k
    : op === 'b'
      ? g.products * g.n * g.k
      : g.products * g.m * g.n;
}

function readSlots(
  bytes: Buffer,
  offset: number,
  count: number,
  bits: number,
  file: string,
): Uint32Array {
  const width = bits / 8;
  if (offset + count * width > bytes.length)
    throw new MmaCaptureError(
      `${file}: ${count} elements at byte ${offset} run past its end (${bytes.length} bytes)`,
    );
  const out = new Uint32Array(count);
  for (let i = 0; i < count; i++) {
    const at = offset + i * width;
    out[i] =
      width === 1 ? bytes[at]! : width === 2 ? bytes.readUInt16LE(at) : bytes.readUInt32LE(at);
  }
  return out;
}

function writeSlots(bytes: Buffer, offset: number, values: Uint32Array, bits: number): void {
  const width = bits / 8;
  for (let i = 0; i < values.length; i++) {
    const at = offset + i * width;
    if (width === 1) bytes[at] = values[i]!;
    else if (width === 2) bytes.writeUInt16LE(values[i]!, at);
    else bytes.writeUInt32LE(values[i]!, at);
  }
}

export function readMmaSummary(dir: string): MmaCaptureSummary {
  let summary: MmaCaptureSummary;
  try {
    summary = JSON.parse(readFileSync(join(dir, MMA_SUMMARY_FILE), 'utf8')) as MmaCaptureSummary;
  } catch (e) {
    throw new MmaCaptureError(
      `cannot read ${join(dir, MMA_SUMMARY_FILE)}: ${(e as Error).message}`,
    );
  }
  if (summary.format !== 'ptxf-mma-capture' || summary.formatVersion !== 1)
    throw new MmaCaptureError(
      `${dir}: not an mma capture (format ${String(summary.format)} ${String(summary.formatVersion)})`,
    );
  return summary;
}

/** Every form of the capture whose text matches `only` (all by default). */
export function readMmaCapture(
  dir: string,
  only: RegExp = /./,
): { summary: MmaCaptureSummary; forms: MmaCapturedForm[] } {
  const summary = readMmaSummary(dir);
  const files = new Map<string, Buffer>();
  const forms: MmaCapturedForm[] = [];
  for (const entry of summary.forms) {
    if (!only.test(entry.form)) continue;
    const form = MMA_CAPTURE_FORMS.find((f) => f.text === entry.form);
    if (!form)
      throw new MmaCaptureError(`${dir}: ${entry.form} is not a form the capture harness knows`);
    if (!files.has(entry.file)) files.set(entry.file, readFileSync(join(dir, entry.file)));
    const bytes = files.get(entry.file)!;
    const g = geometryOf(form);
    const slots = (op: FragmentOperand) =>
      readSlots(
        bytes,
        entry.offsets[op],
        entry.tiles * operandSize(g, op),
        slotBits(form, op),
        entry.file,
      );
    forms.push({
      entry,
      form,
      geometry: g,
      a: slots('a'),
      b: slots('b'),
      c: slots('c'),
      d: slots('d'),
    });
  }
  return { summary, forms };
}

/**
 * Writes a copy of the capture in `fromDir` to `toDir` with every form's D replaced by
 * `d(form)` (same length and order as its D), and `mode` in the summary.
 */
export function writeCaptureWithD(
  fromDir: string,
  toDir: string,
  mode: MmaCaptureSummary['mode'],
  d: (form: MmaCapturedForm) => Uint32Array,
): void {
  const { summary, forms } = readMmaCapture(fromDir);
  const files = new Map<string, Buffer>();
  for (const name of new Set(summary.forms.map((f) => f.file)))
    files.set(name, readFileSync(join(fromDir, name)));
  for (const captured of forms)
    writeSlots(
      files.get(captured.entry.file)!,
      captured.entry.offsets.d,
      d(captured),
      slotBits(captured.form, 'd'),
    );
  for (const [name, bytes] of files) writeFileSync(join(toDir, name), bytes);
  writeFileSync(
    join(toDir, MMA_SUMMARY_FILE),
    JSON.stringify({ ...summary, mode }, null, 2) + '\n',
  );
}
