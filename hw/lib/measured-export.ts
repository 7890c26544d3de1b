/**
 * The measured tanh.approx / ex2.approx tables of a GPU capture, in the form the playground
 * and the CLI load them (hw/README.md, "Measured approx tables"):
 *
 *   public/measured/index.json      the sets: targets, device, driver, and per table its file
 *   public/measured/<dir>/<key>.bin.gz
 *                                   65,536 result patterns (uint16, little-endian) indexed by
 *                                   the input pattern, gzip-compressed
 *
 * A table's key is the engine's (EngineOptions.approxTables): `${fn}.${f16|bf16}`. It comes
 * from the one-lane approximate form of that function and format the capture holds, found by
 * the catalog's error bounds (isApproximate), the form without .ftz where there are both (an
 * .ftz capture loses the subnormal inputs).
 */
import { readFileSync, writeFileSync, mkdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { findForm } from '../../src/catalog/all-forms.ts';
import { TARGETS } from '../../src/catalog/targets.ts';
import { FORMATS } from '../../src/engine/format.ts';
import {
  MEASURED_FORMAT,
  MEASURED_FORMAT_VERSION,
  type MeasuredIndexSet,
} from '../../src/engine/measured-format.ts';
import { approxTableKey, type ApproxTableKey } from '../../src/engine/semantics/approx.ts';
import { isApproximate } from './approx-judge.ts';
import {
  decodeResults,
  readCaptureFile,
  readSummary,
  type CaptureSummary,
} from './capture-files.ts';
import { sha256 } from './capture-pack.ts';
import { gzip } from './gzip.ts';

export const INDEX_FILE = 'index.json';

export interface MeasuredTableEntry {
  /** The table file, relative to the set's directory. */
  readonly file: string;
  /** The captured form and section the table is. */
  readonly form: string;
  readonly section: string;
  /** SHA-256 of the 131,072 uncompressed bytes. */
  readonly sha256: string;
}

/** A set as the index holds it: the table entries say where each table came from. */
export interface MeasuredSet extends Omit<MeasuredIndexSet, 'tables'> {
  readonly tables: Readonly<Partial<Record<ApproxTableKey, MeasuredTableEntry>>>;
}

export interface MeasuredIndex {
  readonly format: typeof MEASURED_FORMAT;
  readonly formatVersion: number;
  readonly sets: readonly MeasuredSet[];
}

/** Which captured section gives each table: one-lane approximate forms, .ftz only when alone. */
export function measuredSources(
  summary: CaptureSummary,
): Map<ApproxTableKey, { form: string; section: string; file: string }> {
  const sources = new Map<
    ApproxTableKey,
    { form: string; section: string; file: string; ftz: boolean }
  >();
  for (const entry of summary.forms) {
    const form = findForm(entry.form);
    if (!form || !entry.captured || entry.lanes !== 1 || !isApproximate(form)) continue;
    const section = entry.sections.find((s) => s.layout === 'full')!;
    const key = approxTableKey(
      form.operation as 'tanh' | 'ex2',
      FORMATS[form.elements[0]!.dest.format],
    );
    const ftz = form.modifiers.includes('ftz');
    const known = sources.get(key);
    if (!known || (known.ftz && !ftz))
      sources.set(key, { form: form.text, section: section.name, file: section.file, ftz });
  }
  return new Map([...sources].map(([k, { form, section, file }]) => [k, { form, section, file }]));
}

/**
 * The driver version and CUDA version nvidia-smi printed (device.txt of capture-all.sh): the
 * summary's driverVersion is the CUDA driver API's version, not the driver's.
 */
export function deviceFacts(deviceText: string): { name: string; driver: string; cuda: string } {
  const csv = /^(.+), (\d+\.\d+(?:\.\d+)?), \d+\.\d+, GPU-/m.exec(deviceText);
  const cuda = /CUDA Version: (\d+\.\d+)/.exec(deviceText);
  if (!csv || !cuda) throw new Error('device.txt: no nvidia-smi name/driver line or CUDA version');
  return { name: csv[1]!.trim(), driver: csv[2]!, cuda: cuda[1]! };
}

/**
 * Writes the tables of the capture `captureDir` (a capture directory; `deviceFile` is
 * capture-all.sh's device.txt) into `outRoot/dir` and adds (or replaces) its set in the index.
 */
export function exportMeasured(options: {
  readonly captureDir: string;
  readonly deviceFile: string;
  readonly outRoot: string;
  readonly dir: string;
  /** The capture's path as the index names it. */
  readonly captureName: string;
}): MeasuredSet {
  const summary = readSummary(options.captureDir);
  const facts = deviceFacts(readFileSync(options.deviceFile, 'utf8'));
  if (facts.name !== summary.device.name)
    throw new Error(`device.txt names ${facts.name}, the summary ${summary.device.name}`);
  const tables: Partial<Record<ApproxTableKey, MeasuredTableEntry>> = {};
  mkdirSync(join(options.outRoot, options.dir), { recursive: true });
  for (const [key, source] of measuredSources(summary)) {
    const bytes = readCaptureFile(options.captureDir, source.file);
    if (decodeResults(bytes, 16).length !== 65536)
      throw new Error(`${source.file}: not 65,536 results`);
    const file = `${key}.bin.gz`;
    writeFileSync(join(options.outRoot, options.dir, file), gzip(bytes));
    tables[key] = { file, form: source.form, section: source.section, sha256: sha256(bytes) };
  }
  const set: MeasuredSet = {
    targets: TARGETS.filter((t) => t.number === summary.device.sm).map((t) => t.name),
    dir: options.dir,
    device: facts.name,
    driver: facts.driver,
    cuda: facts.cuda,
    measuredOn: `${facts.name} (driver ${facts.driver}, CUDA ${facts.cuda})`,
    capture: options.captureName,
    capturedAt: summary.createdAt,
    tables,
  };
  const indexPath = join(options.outRoot, INDEX_FILE);
  const old: MeasuredIndex = existsSync(indexPath)
    ? (JSON.parse(readFileSync(indexPath, 'utf8')) as MeasuredIndex)
    : { format: MEASURED_FORMAT, formatVersion: MEASURED_FORMAT_VERSION, sets: [] };
  const index: MeasuredIndex = {
    format: MEASURED_FORMAT,
    formatVersion: MEASURED_FORMAT_VERSION,
    sets: [...old.sets.filter((s) => s.dir !== set.dir), set],
  };
  writeFileSync(indexPath, JSON.stringify(index, null, 2) + '\n');
  return set;
}
