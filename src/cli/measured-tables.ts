/**
 * Measured tanh.approx / ex2.approx results for the CLI: on a target a GPU was measured for
 * (public/measured/index.json, written by hw/export-measured.ts), approximate forms are
 * evaluated with that GPU's tables (EngineOptions.approxTables) instead of the model; the trace
 * then says "measured on …" and gives the model's value beside it. The files are read once per
 * process, when an approximate form is first evaluated for such a target.
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import type { Form } from '../catalog/index.ts';
import {
  approxErrorBound,
  type ApproxTableKey,
  type EngineOptions,
  type MeasuredTable,
} from '../engine/index.ts';

/** Where hw/export-measured.ts writes the tables (also served by the playground). */
export const MEASURED_ROOT = new URL('../../public/measured/', import.meta.url);

const FORMAT = 'ptxf-measured-approx';
const FORMAT_VERSION = 1;
const TABLE_BYTES = 65536 * 2;

interface IndexSet {
  readonly targets: readonly string[];
  readonly dir: string;
  readonly measuredOn: string;
  readonly tables: Readonly<Record<string, { readonly file: string }>>;
}

export type MeasuredOptions =
  | { readonly ok: true; readonly options: Partial<EngineOptions> }
  | { readonly ok: false; readonly message: string };

const NONE: MeasuredOptions = { ok: true, options: {} };

/** The index per root, and the options per set: one object per set, so the engine's table caches are reused. */
const indexes = new Map<string, readonly IndexSet[]>();
const loaded = new Map<string, MeasuredOptions>();

function readIndex(root: URL): readonly IndexSet[] {
  const index = JSON.parse(readFileSync(new URL('index.json', root), 'utf8')) as {
    format?: unknown;
    formatVersion?: unknown;
    sets?: unknown;
  };
  if (
    index.format !== FORMAT ||
    index.formatVersion !== FORMAT_VERSION ||
    !Array.isArray(index.sets)
  )
    throw new Error(`index.json is not a ${FORMAT} v${FORMAT_VERSION} index`);
  return index.sets as IndexSet[];
}

/** A table file: 65,536 uint16 result patterns, little-endian, gzip-compressed. */
export function decodeTable(gz: Uint8Array, name: string): Uint16Array {
  const bytes = gunzipSync(gz);
  if (bytes.byteLength !== TABLE_BYTES)
    throw new Error(`${name}: ${bytes.byteLength} bytes, a table has ${TABLE_BYTES}`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return Uint16Array.from({ length: 65536 }, (_, i) => view.getUint16(2 * i, true));
}

function loadSet(set: IndexSet, root: URL): Partial<EngineOptions> {
  const approxTables: Partial<Record<ApproxTableKey, MeasuredTable>> = {};
  for (const [key, { file }] of Object.entries(set.tables)) {
    const path = new URL(`${set.dir}/${file}`, root);
    approxTables[key as ApproxTableKey] = {
      results: decodeTable(readFileSync(path), `${set.dir}/${file}`),
      measuredOn: set.measuredOn,
    };
  }
  return { approxTables };
}

/**
 * The engine options that make `form` evaluate as measured on `target`: the measured tables
 * when the form is approximate and the target has a measured set, else none. A set whose files
 * cannot be read is reported, not skipped: its results would silently be the model's.
 */
export function measuredOptions(target: string, form: Form, root = MEASURED_ROOT): MeasuredOptions {
  if (!approxErrorBound(form)) return NONE;
  try {
    let sets = indexes.get(root.href);
    if (!sets) indexes.set(root.href, (sets = readIndex(root)));
    const set = sets.find((s) => s.targets.includes(target));
    if (!set) return NONE;
    const key = new URL(`${set.dir}/`, root).href;
    let options = loaded.get(key);
    if (!options) {
      options = { ok: true, options: loadSet(set, root) };
      loaded.set(key, options);
    }
    return options;
  } catch (e) {
    return {
      ok: false,
      message: `the measured tables in ${root.pathname} could not be read: ${(e as Error).message}`,
    };
  }
}
