import { findForm } from '../catalog/all-forms.ts';
import type { FormatName } from '../catalog/formats.ts';
import type { Form } from '../catalog/instruction.ts';
import { sweepsOneInput } from '../engine/analysis/sweep-request.ts';
import { loadFormatValue as formatValueLoaded } from './format-value.ts';
import { NO_CORNER_FILTERS } from './panel-state.ts';
import { adaptRegisters } from './registers.ts';
import { useStore } from './store.ts';
import type { Tab } from './url-state.ts';
import { variantFor } from './variant.ts';

/**
 * The edits that read the catalog or the engine: a pick of another form (its registers carried
 * over), of a variant B, a value clicked on a format page. Each is one update of the store
 * (store.ts), written to history as its intent says; the editors that make them load this
 * module with the catalog, so the store itself does not.
 */

/** Whether a form has the open panel: the sweep is for forms of one input per element. */
function keepsTab(tab: Tab | null, form: Form): Tab | null {
  if (tab !== 'sweep') return tab;
  return sweepsOneInput(form) ? tab : null;
}

/** B where it still compares with the form `instr`, else null (variant.ts: of the other kind). */
function keptVs(vs: string | null, instr: string): string | null {
  return vs !== null && 'error' in variantFor(instr, vs) ? null : vs;
}

/**
 * Pick the instruction `text` (any spelling the catalog finds; other text changes nothing).
 * `history`: 'push' (a pick: Back returns to the form before), or 'replace' (one more keystroke
 * of the same typing, which should not leave an entry per intermediate form).
 */
export function setInstr(text: string, history: 'push' | 'replace' = 'push'): void {
  useStore.setState((s) => {
    const next = findForm(text);
    if (!next || next.text === s.instr) return {};
    const prev = findForm(s.instr)!;
    return {
      instr: next.text,
      registers: adaptRegisters(prev, next, s.registers),
      storedNote: null,
      // A new form starts with its own table unfiltered and its own default range.
      cornerFilters: NO_CORNER_FILTERS,
      sweepRange: null,
      tab: keepsTab(s.tab, next),
      vs: keptVs(s.vs, next.text),
      historyIntent: history,
    };
  });
}

/**
 * Compare with a form (as typed: any spelling the parser reads) or 'unfused'; null stops. A pick
 * gets its own history entry, as choosing the instruction does; further keystrokes of the same
 * typing replace it.
 */
export function setVs(text: string | null, history: 'push' | 'replace' = 'push'): void {
  useStore.setState((s) => {
    if (text === null) return s.vs === null ? {} : { vs: null, historyIntent: history };
    const variant = variantFor(s.instr, text);
    return 'error' in variant || variant.vs === s.vs
      ? {}
      : { vs: variant.vs, historyIntent: history };
  });
}

/** A value clicked on a format page: into the form that reads it (format-value.ts). */
export function loadFormatValue(format: FormatName, bits: bigint): void {
  useStore.setState((s) => {
    const loaded = formatValueLoaded(format, bits, findForm(s.instr)!, s.registers);
    return {
      instr: loaded.form.text,
      registers: loaded.registers,
      // The page stays on the format clicked, even where it was the old form's default.
      formatPage: format,
      storedNote: null,
      vs: keptVs(s.vs, loaded.form.text),
      historyIntent: 'push',
    };
  });
}
