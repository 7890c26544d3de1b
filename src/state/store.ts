import { create } from 'zustand';
import { findForm, type Form } from '../catalog/index.ts';
import { approxErrorBound } from '../engine/index.ts';
import type { EvalResult } from '../engine/trace.ts';
import { adaptOperands } from './adapt-operands.ts';
import { compareSlice, type CompareSlice } from './compare-slice.ts';
import { variantFor } from './variant-text.ts';
import { cvtInstrChange, cvtSlice, type CvtSlice } from './cvt-slice.ts';
import { defaultFormatFor } from './cvt-url.ts';
import { DEFAULT_STATE, type OperandKey, type Tab, type UrlState } from './url-codec.ts';
import { hasCornerFilters, NO_CORNER_FILTERS, type CornerFilters } from './panel-url.ts';

/**
 * The one store, in slices. Components read it through narrow selectors (`useStore(s => s.x)`)
 * so an edit re-renders only what shows the edited value.
 */

/** How the next URL update is written: a deliberate pick gets its own history entry. */
export type HistoryIntent = 'push' | 'replace' | 'none';

export interface InstructionSlice {
  instr: string;
  target: string;
  ptx: string;
  /**
   * `history`: 'push' (a pick: Back returns to the form before), or 'replace' (one more keystroke
   * of the same typing, which should not leave an entry per intermediate form).
   */
  setInstr: (text: string, history?: 'push' | 'replace') => void;
  setTarget: (name: string) => void;
  setPtx: (version: string) => void;
  /** Target and PTX ISA version at once (the verdict's one-click switch): one history entry. */
  setTargetAndPtx: (target: string, ptx: string) => void;
}

/** What a field stored when it was given a value rather than bits ("stored 0x3e00 = 1.5"). */
export interface StoredNote {
  /** The field that was given the value (its test id), where the note is shown. */
  readonly field: string;
  readonly text: string;
}

export interface OperandSlice {
  operands: Readonly<Record<OperandKey, number>>;
  /** Set by an edit that stored a value, cleared by the next operand edit of any kind. */
  storedNote: StoredNote | null;
  setOperand: (key: OperandKey, bits: number, stored?: StoredNote) => void;
  /** Load a whole case (corner-case row, error plot): several operands at once, one history entry. */
  loadCase: (operands: Partial<Record<OperandKey, number>>) => void;
}

export type EvalStatus = 'idle' | 'pending' | 'done' | 'error';

export interface ResultSlice {
  result: EvalResult | null;
  evalStatus: EvalStatus;
  evalError: string | null;
  setEvaluation: (update: {
    result?: EvalResult | null;
    status: EvalStatus;
    error?: string | null;
  }) => void;
}

export type WorkerHealth = 'starting' | 'ready' | 'restarting' | 'main-thread';
export type Theme = 'system' | 'light' | 'dark';

export interface SessionSlice {
  /** What the URL held that could not be used, shown until dismissed. */
  urlNotices: readonly string[];
  /** What the URL's operand values stored ("a = 1.5: stored 0x3e00 = 1.5"), shown until dismissed. */
  urlStored: readonly string[];
  /** The open panel below the editors (in the URL, so a shared link opens it). */
  tab: Tab | null;
  /** The corner-case table's filters (in the URL with the table); reset by a new instruction. */
  cornerFilters: CornerFilters;
  workerHealth: WorkerHealth;
  workerMessage: string | null;
  theme: Theme;
  historyIntent: HistoryIntent;
  setUrlNotices: (notices: readonly string[], stored?: readonly string[]) => void;
  setTab: (tab: Tab | null) => void;
  setCornerFilters: (filters: CornerFilters) => void;
  setWorkerHealth: (health: WorkerHealth, message?: string | null) => void;
  setTheme: (theme: Theme) => void;
  /** Replace the whole editable state (URL load, back/forward): written to history as `intent`. */
  applyUrlState: (state: UrlState, intent: HistoryIntent) => void;
}

export type PlaygroundState = InstructionSlice &
  OperandSlice &
  ResultSlice &
  SessionSlice &
  CompareSlice &
  CvtSlice;

type Set = (
  partial: Partial<PlaygroundState> | ((s: PlaygroundState) => Partial<PlaygroundState>),
) => void;

const instructionSlice = (set: Set): InstructionSlice => ({
  instr: DEFAULT_STATE.instr,
  target: DEFAULT_STATE.target,
  ptx: DEFAULT_STATE.ptx,
  setInstr: (text, history = 'push') =>
    set((s) => {
      // To, from and between cvt forms: cvt-slice.ts. A cvt is compared only with a cvt, the
      // arithmetic with the arithmetic: a change of kind ends the comparison.
      const cvt = cvtInstrChange(s, text, history);
      if (cvt)
        return cvt.instr && s.vs && !('vs' in variantFor(cvt.instr, s.vs))
          ? { ...cvt, vs: null }
          : cvt;
      const next = findForm(text);
      if (!next || next.text === s.instr) return {};
      const prev = findForm(s.instr) as Form;
      return {
        instr: next.text,
        operands: adaptOperands(prev, next, s.operands),
        storedNote: null,
        cornerFilters: NO_CORNER_FILTERS,
        // An exact form has no error plot to keep open.
        tab: s.tab === 'approx' && approxErrorBound(next) === null ? null : s.tab,
        historyIntent: history,
      };
    }),
  setTarget: (name) =>
    set((s) => (name === s.target ? {} : { target: name, historyIntent: 'push' })),
  setPtx: (version) =>
    set((s) => (version === s.ptx ? {} : { ptx: version, historyIntent: 'push' })),
  setTargetAndPtx: (target, ptx) =>
    set((s) =>
      target === s.target && ptx === s.ptx ? {} : { target, ptx, historyIntent: 'push' },
    ),
});

const operandSlice = (set: Set): OperandSlice => ({
  operands: DEFAULT_STATE.operands,
  storedNote: null,
  setOperand: (key, bits, stored) =>
    set((s) => {
      const note = stored ?? null;
      if (s.operands[key] === bits >>> 0) return note === s.storedNote ? {} : { storedNote: note };
      return {
        operands: { ...s.operands, [key]: bits >>> 0 },
        storedNote: note,
        historyIntent: 'replace',
      };
    }),
  loadCase: (operands) =>
    set((s) => ({
      operands: { ...s.operands, ...operands },
      storedNote: null,
      historyIntent: 'push',
    })),
});

const resultSlice = (set: Set): ResultSlice => ({
  result: null,
  evalStatus: 'idle',
  evalError: null,
  setEvaluation: ({ result, status, error }) =>
    set((s) => ({
      result: result === undefined ? s.result : result,
      evalStatus: status,
      evalError: error === undefined ? s.evalError : error,
    })),
});

const sessionSlice = (set: Set): SessionSlice => ({
  urlNotices: [],
  urlStored: [],
  tab: DEFAULT_STATE.tab,
  cornerFilters: NO_CORNER_FILTERS,
  workerHealth: 'starting',
  workerMessage: null,
  theme: 'system',
  historyIntent: 'none',
  setUrlNotices: (notices, stored = []) => set({ urlNotices: notices, urlStored: stored }),
  setTab: (tab) => set((s) => (tab === s.tab ? {} : { tab, historyIntent: 'replace' })),
  setCornerFilters: (cornerFilters) => set({ cornerFilters, historyIntent: 'replace' }),
  setWorkerHealth: (health, message = null) =>
    set({ workerHealth: health, workerMessage: message }),
  setTheme: (theme) => set({ theme }),
  applyUrlState: (state, intent) =>
    set({
      instr: state.instr,
      target: state.target,
      ptx: state.ptx,
      operands: state.operands,
      tab: state.tab,
      vs: state.vs,
      storedNote: null,
      historyIntent: intent,
      cornerFilters: state.corners ?? NO_CORNER_FILTERS,
      sweepRange: state.sweep ?? null,
      ...(state.cvt ? { cvtRegisters: state.cvt } : {}),
      ...(state.format ? { formatPage: state.format } : {}),
    }),
});

export const useStore = create<PlaygroundState>()((set) => ({
  ...instructionSlice(set),
  ...operandSlice(set),
  ...resultSlice(set),
  ...sessionSlice(set),
  ...compareSlice(set),
  ...cvtSlice(set),
}));

/** The URL-visible part of the state. */
export function urlStateOf(s: PlaygroundState): UrlState {
  return {
    instr: s.instr,
    target: s.target,
    ptx: s.ptx,
    operands: s.operands,
    tab: s.tab,
    vs: s.vs,
    // cvt forms and the format page (cvt-url.ts).
    ...(findForm(s.instr) ? {} : { cvt: s.cvtRegisters }),
    ...(s.tab === 'format' ? { format: s.formatPage ?? defaultFormatFor(s.instr) } : {}),
    // The open panel's settings (panel-url.ts).
    ...(s.tab === 'corners' && hasCornerFilters(s.cornerFilters)
      ? { corners: s.cornerFilters }
      : {}),
    ...(s.tab === 'sweep' && s.sweepRange ? { sweep: s.sweepRange } : {}),
  };
}

/** The current form (always a catalog form: every setter checks). */
export function useForm(): Form {
  return findForm(useStore((s) => s.instr))!;
}
