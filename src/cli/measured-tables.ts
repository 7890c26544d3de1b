/**
 * Measured tanh.approx / ex2.approx results for the CLI: on a target a GPU was measured for
 * (public/measured/index.json, written by hw/export-measured.ts), approximate forms are
 * evaluated with that GPU's tables (EngineOptions.approxTables) instead of the model; the trace
 * then says "measured on …" and gives the model's value beside it. The files are read once per
 * process, when an approximate form is first evaluated for such a target.
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import type { Form } from '../catalog/instruction.ts';
import {
  decodeMeasuredTable,
  measuredIndexSets,
  type MeasuredIndexSet,
} from '../engine/measured-format.ts';
import type { EngineOptions } from '../engine/options.ts';

type ApproxTables = NonNullable<EngineOptions['approxTables']>;

/** Where hw/export-measured.ts writes the tables (also served by the playground). */
export const MEASURED_ROOT = new URL('../../public/measured/', import.meta.url);

export type MeasuredOptions =
  | { readonly ok: true; readonly options: Partial<EngineOptions> }
  | { readonly ok: false; readonly message: string };

const NONE: MeasuredOptions = { ok: true, options: {} };

/** The index per root, and the options per set: one object per set, so the engine's table caches are reused. */
const indexes = new Map<string, readonly MeasuredIndexSet[]>();
const loaded = new Map<string, MeasuredOptions>();

function readIndex(root: URL): readonly MeasuredIndexSet[] {
  return measuredIndexSets(JSON.parse(readFileSync(new URL('index.json', root), 'utf8')));
}

function loadSet(set: MeasuredIndexSet, root: URL): Partial<EngineOptions> {
  const approxTables: ApproxTables = {};
  for (const [key, entry] of Object.entries(set.tables)) {
    const name = `${set.dir}/${entry!.file}`;
    approxTables[key as keyof ApproxTables] = {
      results: decodeMeasuredTable(gunzipSync(readFileSync(new URL(name, root))), name),
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
export function measuredOptions(
  target: string,
  form: Pick<Form, 'errorBound'>,
  root = MEASURED_ROOT,
): MeasuredOptions {
  // The approximate forms are those whose spec states an error bound (tanh, ex2).
  if (!form.errorBound) return NONE;
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
