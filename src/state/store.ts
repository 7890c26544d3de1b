import { create } from 'zustand';
import { findForm, type Form } from '../catalog/index.ts';
import type { EvalResult } from '../engine/trace.ts';
import { adaptOperands } from './adapt-operands.ts';
import {
  DEFAULT_STATE,
  NO_OOB,
  type OobState,
  type OperandKey,
  type UrlState,
} from './url-codec.ts';

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
}

export interface OperandSlice {
  operands: Readonly<Record<OperandKey, number>>;
  oob: OobState;
  setOperand: (key: OperandKey, bits: number) => void;
  setOob: (key: OperandKey, lane: 0 | 1, on: boolean) => void;
  /** Load a whole case (corner-case row): operands and marks at once, one history entry. */
  loadCase: (operands: Partial<Record<OperandKey, number>>, oob?: OobState) => void;
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
  workerHealth: WorkerHealth;
  workerMessage: string | null;
  theme: Theme;
  historyIntent: HistoryIntent;
  setUrlNotices: (notices: readonly string[]) => void;
  setWorkerHealth: (health: WorkerHealth, message?: string | null) => void;
  setTheme: (theme: Theme) => void;
  /** Replace the whole editable state (URL load, back/forward): written to history as `intent`. */
  applyUrlState: (state: UrlState, intent: HistoryIntent) => void;
}

export type PlaygroundState = InstructionSlice & OperandSlice & ResultSlice & SessionSlice;

type Set = (
  partial: Partial<PlaygroundState> | ((s: PlaygroundState) => Partial<PlaygroundState>),
) => void;

const instructionSlice = (set: Set): InstructionSlice => ({
  instr: DEFAULT_STATE.instr,
  target: DEFAULT_STATE.target,
  ptx: DEFAULT_STATE.ptx,
  setInstr: (text, history = 'push') =>
    set((s) => {
      const next = findForm(text);
      if (!next || next.text === s.instr) return {};
      const prev = findForm(s.instr) as Form;
      return {
        instr: next.text,
        operands: adaptOperands(prev, next, s.operands),
        oob: keepOob(next, s.oob),
        historyIntent: history,
      };
    }),
  setTarget: (name) =>
    set((s) => (name === s.target ? {} : { target: name, historyIntent: 'push' })),
  setPtx: (version) =>
    set((s) => (version === s.ptx ? {} : { ptx: version, historyIntent: 'push' })),
});

/** OOB marks survive a form change only on operands and lanes the new form has. */
function keepOob(form: Form, oob: OobState): OobState {
  const lanes = (k: OperandKey): readonly [boolean, boolean] => {
    const op = form.operands.find((o) => o.name === k);
    if (!op) return [false, false];
    return op.lanes === 2 ? oob[k] : [oob[k][0], false];
  };
  return { a: lanes('a'), b: lanes('b'), c: lanes('c') };
}

const operandSlice = (set: Set): OperandSlice => ({
  operands: DEFAULT_STATE.operands,
  oob: NO_OOB,
  setOperand: (key, bits) =>
    set((s) =>
      s.operands[key] === bits >>> 0
        ? {}
        : { operands: { ...s.operands, [key]: bits >>> 0 }, historyIntent: 'replace' },
    ),
  setOob: (key, lane, on) =>
    set((s) => {
      const lanes: [boolean, boolean] = [...s.oob[key]];
      lanes[lane] = on;
      return { oob: { ...s.oob, [key]: lanes }, historyIntent: 'replace' };
    }),
  loadCase: (operands, oob) =>
    set((s) => ({
      operands: { ...s.operands, ...operands },
      oob: oob ?? NO_OOB,
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
  workerHealth: 'starting',
  workerMessage: null,
  theme: 'system',
  historyIntent: 'none',
  setUrlNotices: (notices) => set({ urlNotices: notices }),
  setWorkerHealth: (health, message = null) =>
    set({ workerHealth: health, workerMessage: message }),
  setTheme: (theme) => set({ theme }),
  applyUrlState: (state, intent) =>
    set({
      instr: state.instr,
      target: state.target,
      ptx: state.ptx,
      operands: state.operands,
      oob: state.oob,
      historyIntent: intent,
    }),
});

export const useStore = create<PlaygroundState>()((set) => ({
  ...instructionSlice(set),
  ...operandSlice(set),
  ...resultSlice(set),
  ...sessionSlice(set),
}));

/** The URL-visible part of the state. */
export function urlStateOf(s: PlaygroundState): UrlState {
  return { instr: s.instr, target: s.target, ptx: s.ptx, operands: s.operands, oob: s.oob };
}

/** The current form (always a catalog form: every setter checks). */
export function useForm(): Form {
  return findForm(useStore((s) => s.instr))!;
}
