import { findForm } from '../catalog/all-forms.ts';
import type { SourceName } from '../catalog/instruction.ts';
import { hasCornerFilters } from './panel-state.ts';
import type { PlaygroundState } from './store.ts';
import { decodeUrl, defaultFormatFor, encodeUrl, type DecodeResult } from './url-codec.ts';
import type { UrlState } from './url-state.ts';

/**
 * The page's state as a share link and back: what url-sync.ts loads (a chunk of its own, with
 * the codec, the catalog and the engine parts that read operand text) the first time it reads or
 * writes a link, so that a page opened without one carries none of them in its first load.
 */

/** The URL-visible part of the state. */
export function urlStateOf(s: PlaygroundState): UrlState {
  const form = findForm(s.instr)!;
  return {
    instr: s.instr,
    target: s.target,
    ptx: s.ptx,
    registers: Object.fromEntries(
      form.registers.slice(1).map((r) => [r.name, s.registers[r.name as SourceName]]),
    ),
    tab: s.tab,
    vs: s.vs,
    ...(s.tab === 'format' ? { format: s.formatPage ?? defaultFormatFor(s.instr) } : {}),
    // The open panel's settings (panel-url.ts).
    ...(s.tab === 'corners' && hasCornerFilters(s.cornerFilters)
      ? { corners: s.cornerFilters }
      : {}),
    ...(s.tab === 'sweep' && s.sweepRange ? { sweep: s.sweepRange } : {}),
    ...(s.tab === 'block' ? { block: s.blockSettings } : {}),
  };
}

/** Reads a link's query and writes the state's (url-sync.ts takes it as one object). */
export interface UrlLink {
  /** The state a query (`?…`, or '') holds, with what it ignored and what it stored. */
  readonly read: (search: string) => DecodeResult;
  /** The query (with `?`) of the state. */
  readonly queryOf: (s: PlaygroundState) => string;
}

export const URL_LINK: UrlLink = {
  read: decodeUrl,
  queryOf: (s) => encodeUrl(urlStateOf(s)),
};
