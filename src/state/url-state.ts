import type { FormatName } from '../catalog/formats.ts';
import type { SourceName } from '../catalog/instruction.ts';
import { DEFAULT_EVAL_PTX, DEFAULT_EVAL_TARGET } from '../catalog/targets.ts';
import type { BlockSettings } from './block-state.ts';
import type { CornerFilters, SweepRange } from './panel-state.ts';

/**
 * The part of the page's state a share link holds, and the state of a page opened without one.
 * How a link writes and reads it is url-codec.ts (a chunk the page loads when it first reads or
 * writes a link: url-sync.ts); the store starts from DEFAULT_STATE without it.
 */

/**
 * The panel open below the editors: corner cases, the sweep over many inputs (with the error
 * plot of an approximation), the GPU program, the format pages, block scaling (block-settings.ts).
 */
export type Tab = 'corners' | 'sweep' | 'repro' | 'format' | 'block';
export const TABS: readonly Tab[] = ['corners', 'sweep', 'repro', 'format', 'block'];

export type UrlRegisters = Readonly<Partial<Record<SourceName, bigint>>>;

export interface UrlState {
  readonly instr: string;
  readonly target: string;
  readonly ptx: string;
  /** The form's source registers (exactly those it has), unsigned, of their widths. */
  readonly registers: UrlRegisters;
  /** The open panel, or null when none is open. */
  readonly tab: Tab | null;
  /**
   * What-if: the variant B compared with the instruction, a form's canonical text or
   * `unfused` (an fma's mul-then-add sequence); null when not comparing.
   */
  readonly vs: string | null;
  /** The format page's format; present exactly when `tab` is 'format'. */
  readonly format?: FormatName;
  /** The corner-case table's filters (panel-url.ts); only with `tab` 'corners', absent: none. */
  readonly corners?: CornerFilters;
  /** A sweep's range (panel-url.ts); only with `tab` 'sweep', absent: the form's default. */
  readonly sweep?: SweepRange;
  /** The block panel's block, scheme and rule (block-settings.ts); only with `tab` 'block'. */
  readonly block?: BlockSettings;
}

/**
 * A page opened without a link: fma.rn.f16 with its start values (registers.ts's
 * startRegisters), 1.5 × 2.0 + 0.25, written out as the bits they are so that the first state
 * needs no catalog; url-state.test.ts checks them against the catalog and startRegisters.
 */
export const DEFAULT_STATE: UrlState = {
  instr: 'fma.rn.f16',
  // The same default as `ptxf eval` (catalog/targets.ts).
  target: DEFAULT_EVAL_TARGET,
  ptx: DEFAULT_EVAL_PTX,
  registers: { a: 0x3e00n, b: 0x4000n, c: 0x3400n },
  tab: null,
  vs: null,
};
