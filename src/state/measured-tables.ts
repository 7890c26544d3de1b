import { useEffect, useState } from 'react';
import type { Form } from '../catalog/instruction.ts';
import {
  decodeMeasuredTable,
  measuredIndexSets,
  type MeasuredIndexSet,
} from '../engine/measured-format.ts';
import type { EngineOptions } from '../engine/options.ts';

type ApproxTables = NonNullable<EngineOptions['approxTables']>;

/**
 * Measured tanh.approx / ex2.approx results for the playground. public/measured (written from a
 * GPU capture by hw/export-measured.ts) lists per GPU the targets it stands for and its tables;
 * on such a target an approximate form is evaluated with the GPU's results (the engine's
 * EngineOptions.approxTables), and the error plot shows their error. The files are fetched the
 * first time an approximate form is evaluated for a measured target, decompressed with
 * DecompressionStream, and kept for the session.
 */

/** Where the tables are, relative to the page (the site's base is relative: vite.config.ts). */
export const MEASURED_BASE = `${import.meta.env.BASE_URL}measured/`;

/** A set as loaded: the index's facts ("measured on …" is what the UI says) and the tables. */
export interface MeasuredSet extends Omit<MeasuredIndexSet, 'dir' | 'tables'> {
  readonly tables: ApproxTables;
}

/** A target's measured results: none, on their way, there, or unreadable (the model is used). */
export type MeasuredState =
  | { readonly status: 'none' }
  | { readonly status: 'loading' }
  | { readonly status: 'ready'; readonly set: MeasuredSet }
  | { readonly status: 'error'; readonly message: string };

const NONE: MeasuredState = { status: 'none' };
const LOADING: MeasuredState = { status: 'loading' };

export type Fetch = (url: string) => Promise<Response>;

/** The loaded sets, by target; a load in flight, by target. */
const known = new Map<string, MeasuredState>();
const inFlight = new Map<string, Promise<MeasuredState>>();
let indexLoad: Promise<readonly MeasuredIndexSet[]> | null = null;

async function readIndex(fetchFn: Fetch): Promise<readonly MeasuredIndexSet[]> {
  const response = await fetchFn(`${MEASURED_BASE}index.json`);
  if (!response.ok) throw new Error(`index.json: HTTP ${response.status}`);
  return measuredIndexSets(await response.json());
}

/**
 * A table file: 65,536 uint16 result patterns, little-endian, gzip-compressed. Some static
 * servers send a `.gz` file with `Content-Encoding: gzip` (the browser has then decompressed
 * it already), others as it is: the gzip magic number tells which.
 */
export async function decodeTable(response: Response, name: string): Promise<Uint16Array> {
  if (!response.ok) throw new Error(`${name}: HTTP ${response.status}`);
  let bytes = new Uint8Array(await response.arrayBuffer());
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) {
    const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'));
    bytes = new Uint8Array(await new Response(stream).arrayBuffer());
  }
  return decodeMeasuredTable(bytes, name);
}

async function loadSet(set: MeasuredIndexSet, fetchFn: Fetch): Promise<MeasuredSet> {
  const entries = await Promise.all(
    Object.entries(set.tables).map(async ([key, entry]) => {
      const name = `${set.dir}/${entry!.file}`;
      const results = await decodeTable(await fetchFn(`${MEASURED_BASE}${name}`), name);
      return [key, { results, measuredOn: set.measuredOn }] as const;
    }),
  );
  const { dir: _dir, tables: _files, ...facts } = set;
  return { ...facts, tables: Object.fromEntries(entries) };
}

/** What is known now about a target's measured results, without loading anything. */
export function measuredNow(target: string): MeasuredState | undefined {
  return known.get(target);
}

/**
 * Loads the measured results of a target (once: later calls share the load). A failed load is
 * remembered as an error, so the model is used and the UI says why, rather than retrying on
 * every edit.
 */
export function loadMeasured(target: string, fetchFn: Fetch = fetch): Promise<MeasuredState> {
  const state = known.get(target);
  if (state) return Promise.resolve(state);
  let load = inFlight.get(target);
  if (!load) {
    load = (async (): Promise<MeasuredState> => {
      try {
        indexLoad ??= readIndex(fetchFn);
        const set = (await indexLoad).find((s) => s.targets.includes(target));
        return set ? { status: 'ready', set: await loadSet(set, fetchFn) } : NONE;
      } catch (e) {
        indexLoad = null;
        return { status: 'error', message: (e as Error).message };
      }
    })().then((s) => {
      known.set(target, s);
      inFlight.delete(target);
      return s;
    });
    inFlight.set(target, load);
  }
  return load;
}

/** Forget what was loaded (tests). */
export function resetMeasured(): void {
  known.clear();
  inFlight.clear();
  indexLoad = null;
}

/** True when the form's result may come from a measured table: it is approximate. */
export function usesMeasured(form: Form): boolean {
  return form.errorBound !== undefined;
}

/**
 * The engine options to evaluate `form` with on `target`: none for an exact form or a target
 * without measured results; the tables when loaded; 'loading' while they are on their way
 * (the caller evaluates once `loadMeasured` settles).
 */
export function measuredOptionsNow(
  target: string,
  form: Form,
): Pick<EngineOptions, 'approxTables'> | null | 'loading' {
  if (!usesMeasured(form)) return null;
  const state = known.get(target);
  if (!state || state.status === 'loading') return 'loading';
  return state.status === 'ready' ? { approxTables: state.set.tables } : null;
}

/** A target's measured results for a component: loads them when the form is approximate. */
export function useMeasured(target: string, form: Form): MeasuredState {
  const wanted = usesMeasured(form);
  const [state, setState] = useState<MeasuredState>(() =>
    wanted ? (known.get(target) ?? LOADING) : NONE,
  );
  useEffect(() => {
    if (!wanted) {
      setState(NONE);
      return;
    }
    let live = true;
    setState(known.get(target) ?? LOADING);
    void loadMeasured(target).then((s) => {
      if (live) setState(s);
    });
    return () => {
      live = false;
    };
  }, [target, wanted]);
  return state;
}
