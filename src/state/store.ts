import { useSyncExternalStore } from 'react';
import { createStore } from 'zustand/vanilla';
import type { FormatName } from '../catalog/formats.ts';
import type { SourceName } from '../catalog/instruction.ts';
import type { EvalResult } from '../engine/steps.ts';
import type { Comparison } from '../engine/what-if/comparison.ts';
import { DEFAULT_BLOCK_SETTINGS, type BlockSettings } from './block-state.ts';
import { NO_CORNER_FILTERS, type CornerFilters, type SweepRange } from './panel-state.ts';
import { ZERO_REGISTERS, type Registers } from './register-map.ts';
import { DEFAULT_STATE, type Tab, type UrlState } from './url-state.ts';

/**
 * The one store, for every instruction: the instruction and its target, the one register map,
 * the one result, the comparison with a variant B, and the session around them (the open panel
 * and its settings, notices, the worker's health). Components read it through narrow selectors
 * (`useStore(s => s.x)`) so an edit re-renders only what shows the edited value.
 *
 * The store holds the state and the edits that need nothing but the state; it starts from
 * DEFAULT_STATE (url-state.ts) and loads no catalog and no engine, so the page's first load
 * carries it whole. The edits that read the catalog or the engine (a pick of another form, of a
 * variant B, a value from a format page) are edits.ts's, the current form is form.ts's, and a
 * share link is read and written by url-codec.ts, loaded on first use (url-sync.ts).
 */

/** How the next URL update is written: a deliberate pick gets its own history entry. */
export type HistoryIntent = 'push' | 'replace' | 'none';

/** What a field stored when it was given a value rather than bits ("stored 0x3e00 = 1.5"). */
export interface StoredNote {
  /** The field that was given the value (its test id), where the note is shown. */
  readonly field: string;
  readonly text: string;
}

export type EvalStatus = 'idle' | 'pending' | 'done' | 'error';
export type WorkerHealth = 'starting' | 'ready' | 'restarting' | 'main-thread';
export type Theme = 'system' | 'light' | 'dark';

export interface PlaygroundState {
  instr: string;
  target: string;
  ptx: string;
  setTarget: (name: string) => void;
  setPtx: (version: string) => void;
  /** Target and PTX ISA version at once (the verdict's one-click switch): one history entry. */
  setTargetAndPtx: (target: string, ptx: string) => void;

  /** Every source register by its spec name; only those of the current form mean anything. */
  registers: Registers;
  /** Set by an edit that stored a value, cleared by the next register edit of any kind. */
  storedNote: StoredNote | null;
  setRegister: (name: SourceName, bits: bigint, stored?: StoredNote) => void;
  /** Load a whole case (a table's row, a plot's input): several registers, one history entry. */
  loadRegisters: (registers: Partial<Registers>) => void;

  result: EvalResult | null;
  evalStatus: EvalStatus;
  evalError: string | null;
  setEvaluation: (update: {
    result?: EvalResult | null;
    status: EvalStatus;
    error?: string | null;
  }) => void;

  /** What-if: a form's canonical text or 'unfused'; null when not comparing (`vs=` in links). */
  vs: string | null;
  /** A beside B on the same values (compare-on-edit.ts), or null. */
  comparison: Comparison | null;
  /** Why the comparison could not be computed (an engine error), else null. */
  compareError: string | null;
  setComparison: (comparison: Comparison | null, error?: string | null) => void;

  /** What the URL held that could not be used, shown until dismissed. */
  urlNotices: readonly string[];
  /** What the URL's operand values stored ("a = 1.5: stored 0x3e00 = 1.5"), shown until dismissed. */
  urlStored: readonly string[];
  setUrlNotices: (notices: readonly string[], stored?: readonly string[]) => void;
  /** The open panel below the editors (in the URL, so a shared link opens it). */
  tab: Tab | null;
  setTab: (tab: Tab | null) => void;
  /** The corner-case table's filters (in the URL with the table); reset by a new instruction. */
  cornerFilters: CornerFilters;
  setCornerFilters: (filters: CornerFilters) => void;
  /** The range the sweep last ran over (in the URL with the sweep), or null: the form's default. */
  sweepRange: SweepRange | null;
  setSweepRange: (range: SweepRange) => void;
  /** The format shown on the format page (in the URL as `format`), or null: the form's. */
  formatPage: FormatName | null;
  setFormatPage: (format: FormatName) => void;
  /** The block panel's block, scheme and rule (in the URL with the panel, block-settings.ts). */
  blockSettings: BlockSettings;
  setBlockSettings: (settings: BlockSettings) => void;
  workerHealth: WorkerHealth;
  workerMessage: string | null;
  setWorkerHealth: (health: WorkerHealth, message?: string | null) => void;
  theme: Theme;
  setTheme: (theme: Theme) => void;
  historyIntent: HistoryIntent;
  /** Replace the whole editable state (URL load, back/forward): written to history as `intent`. */
  applyUrlState: (state: UrlState, intent: HistoryIntent) => void;
}

const store = createStore<PlaygroundState>()((set) => ({
  instr: DEFAULT_STATE.instr,
  target: DEFAULT_STATE.target,
  ptx: DEFAULT_STATE.ptx,
  setTarget: (name) =>
    set((s) => (name === s.target ? {} : { target: name, historyIntent: 'push' })),
  setPtx: (version) =>
    set((s) => (version === s.ptx ? {} : { ptx: version, historyIntent: 'push' })),
  setTargetAndPtx: (target, ptx) =>
    set((s) =>
      target === s.target && ptx === s.ptx ? {} : { target, ptx, historyIntent: 'push' },
    ),

  registers: { ...ZERO_REGISTERS, ...DEFAULT_STATE.registers },
  storedNote: null,
  setRegister: (name, bits, stored) =>
    set((s) => {
      const note = stored ?? null;
      if (s.registers[name] === bits) return note === s.storedNote ? {} : { storedNote: note };
      return {
        registers: { ...s.registers, [name]: bits },
        storedNote: note,
        historyIntent: 'replace',
      };
    }),
  loadRegisters: (registers) =>
    set((s) => ({
      registers: { ...s.registers, ...registers },
      storedNote: null,
      historyIntent: 'push',
    })),

  result: null,
  evalStatus: 'idle',
  evalError: null,
  setEvaluation: ({ result, status, error }) =>
    set((s) => ({
      result: result === undefined ? s.result : result,
      evalStatus: status,
      evalError: error === undefined ? s.evalError : error,
    })),

  vs: DEFAULT_STATE.vs,
  comparison: null,
  compareError: null,
  setComparison: (comparison, error = null) => set({ comparison, compareError: error }),

  urlNotices: [],
  urlStored: [],
  setUrlNotices: (notices, stored = []) => set({ urlNotices: notices, urlStored: stored }),
  tab: DEFAULT_STATE.tab,
  setTab: (tab) => set((s) => (tab === s.tab ? {} : { tab, historyIntent: 'replace' })),
  cornerFilters: NO_CORNER_FILTERS,
  setCornerFilters: (cornerFilters) => set({ cornerFilters, historyIntent: 'replace' }),
  sweepRange: null,
  setSweepRange: (sweepRange) => set({ sweepRange, historyIntent: 'replace' }),
  formatPage: null,
  setFormatPage: (format) =>
    set((s) =>
      format === s.formatPage && s.tab === 'format'
        ? {}
        : { formatPage: format, tab: 'format', historyIntent: 'push' },
    ),
  blockSettings: DEFAULT_BLOCK_SETTINGS,
  setBlockSettings: (blockSettings) => set({ blockSettings, historyIntent: 'replace' }),
  workerHealth: 'starting',
  workerMessage: null,
  setWorkerHealth: (health, message = null) =>
    set({ workerHealth: health, workerMessage: message }),
  theme: 'system',
  setTheme: (theme) => set({ theme }),
  historyIntent: 'none',
  applyUrlState: (state, intent) =>
    set((s) => ({
      instr: state.instr,
      target: state.target,
      ptx: state.ptx,
      registers: { ...s.registers, ...state.registers },
      tab: state.tab,
      vs: state.vs,
      storedNote: null,
      historyIntent: intent,
      cornerFilters: state.corners ?? NO_CORNER_FILTERS,
      sweepRange: state.sweep ?? null,
      ...(state.format ? { formatPage: state.format } : {}),
      ...(state.block ? { blockSettings: state.block } : {}),
    })),
}));

/**
 * The store as a hook (`useStore((s) => s.x)`), with the store's own methods (`getState`,
 * `setState`, `subscribe`). Unlike zustand's `create`, the snapshot for server rendering and for
 * hydration is the state now, not the initial one: the page prerendered at build time shows the
 * default state with its result (src/prerender.tsx), and the browser hydrates that HTML only
 * when its own state renders the same (src/main.tsx), so both render from the state as it is.
 */
export const useStore = Object.assign(<T>(selector: (s: PlaygroundState) => T): T => {
  const snapshot = () => selector(store.getState());
  return useSyncExternalStore(store.subscribe, snapshot, snapshot);
}, store);

/** The result while it is the current form's (another one is on its way otherwise), or null. */
export function useResult(): EvalResult | null {
  const instr = useStore((s) => s.instr);
  const result = useStore((s) => s.result);
  return result && result.form === instr ? result : null;
}
