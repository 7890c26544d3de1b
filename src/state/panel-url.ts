import type { Form } from '../catalog/instruction.ts';
// The modules themselves, not the analysis index: the index brings the sweep's batch engine,
// which the page's first load does not need.
import { CASE_OUTCOMES, type CaseOutcome } from '../engine/analysis/outcomes.ts';
import {
  SWEEP_MAX_VALUES,
  sweepProblem,
  sweepsOneInput,
  sweptSource,
} from '../engine/analysis/sweep-request.ts';
import { FORMATS, isNaNBits, isInfBits, isNegative, toDouble, hexOf } from '../engine/format.ts';
import { quoteText } from '../engine/number-text.ts';
import { readElementText } from '../engine/register-text.ts';
import { readValueText } from '../engine/stored-value.ts';
import { sweepProblemWords } from '../present/sweep-problem-words.ts';
import {
  hasCornerFilters,
  RESULT_CLASSES,
  type CornerFilters,
  type ResultClass,
  type SweepRange,
} from './panel-state.ts';

/**
 * The open panel's own settings in a share link, read only with the panel they belong to:
 *
 *   - `tab=corners`: the corner-case table's filters, `filter=` (the search words, as typed),
 *     `class=` (the result class) and `happened=` (a mark: invalid, overflow, tie, …);
 *   - `tab=sweep`: a sweep's range over an .f32 or .f64 source, `from=`, `to=` (by the one rule
 *     for operand text: `0x…`/`0b…` are the source format's bits) and `count=`.
 *
 * Added in v2 without a new schema version, as `vs` and `format` were: a link without them loads
 * as before (no filter, the form's default range). url-codec.ts calls these; the settings
 * themselves are panel-state.ts's.
 */

/** The parameters these settings may use. */
export const PANEL_URL_KEYS: readonly string[] = [
  'filter',
  'class',
  'happened',
  'from',
  'to',
  'count',
];
const CORNER_KEYS = ['filter', 'class', 'happened'] as const;
const SWEEP_KEYS = ['from', 'to', 'count'] as const;

/** The source format a form's sweep reads a range of (.f32, .f64), or null (every pattern). */
export function rangeSource(form: Form): 'f32' | 'f64' | null {
  if (!sweepsOneInput(form)) return null;
  const src = sweptSource(form);
  return src === 'f32' || src === 'f64' ? src : null;
}

/** The range a sweep of an .f32/.f64 source starts with: a little past the destination's MAX_NORM. */
export function defaultSweepRange(form: Form): SweepRange {
  const dest = FORMATS[form.elements[0]!.dest.format];
  const max = toDouble(dest.maxBits, dest);
  const top = max <= 1e6 ? Number((max * 1.125).toPrecision(3)) : 4;
  const bounds = dest.signed ? { from: -top, to: top } : { from: 0, to: top };
  return { ...bounds, count: SWEEP_MAX_VALUES };
}

/** A bound of a sweep's range as typed: a number, and its bits where it was written as bits. */
export type SweepBound =
  | { readonly ok: true; readonly value: number; readonly bits: string | null }
  | { readonly ok: false; readonly message: string };

/**
 * A bound by the one rule for operand text: `0x…` and `0b…` are the bits of the swept source
 * format (.f32 or .f64), anything else a value read as the nearest .f64 (what a range's evenly
 * spaced values are computed in). A bound is finite: NaN and the infinities are refused.
 */
export function readSweepBound(text: string, source: 'f32' | 'f64'): SweepBound {
  const compact = text.trim().replace(/[\s_]/g, '');
  // 0x or 0b with digits is a bit pattern; a hex float (0x1.8p-3) is a value.
  const asBits = /^0[xb]/i.test(compact) && !/^0x[0-9a-f]*[.p]/i.test(compact);
  const f = FORMATS[asBits ? source : 'f64'];
  const read = asBits ? readElementText(text, f) : readValueText(text, f);
  if (!read.ok) return { ok: false, message: read.error.message };
  const bits = 'bits' in read ? read.bits : read.value.bits;
  if (isNaNBits(bits, f))
    return { ok: false, message: 'NaN is not a bound; a bound is a finite number' };
  if (isInfBits(bits, f))
    return {
      ok: false,
      message: `${isNegative(bits, f) ? '-' : '+'}inf is not a bound; a bound is a finite number`,
    };
  return { ok: true, value: toDouble(bits, f), bits: asBits ? hexOf(bits, f.width) : null };
}

interface Notes {
  readonly ignored: string[];
}

/**
 * The panel settings a link holds, for the panel it opens (`tab`) and the form it names; each
 * parameter that cannot be used is named in `ignored`.
 */
export function readPanelSettings(
  params: ReadonlyMap<string, string>,
  tab: string | null,
  form: Form,
  notes: Notes,
): { corners?: CornerFilters; sweep?: SweepRange } {
  const out: { corners?: CornerFilters; sweep?: SweepRange } = {};
  if (tab === 'corners') {
    const corners = readCornerFilters(params, notes);
    if (hasCornerFilters(corners)) out.corners = corners;
  } else {
    for (const key of CORNER_KEYS) ignoredWithout(params, key, 'tab=corners', notes);
  }
  const source = rangeSource(form);
  if (tab === 'sweep' && source) {
    const sweep = readSweepRange(params, form, source, notes);
    if (sweep) out.sweep = sweep;
  } else {
    const needs =
      tab === 'sweep'
        ? `a sweep of a range (${form.text} sweeps every pattern of its source)`
        : 'tab=sweep';
    for (const key of SWEEP_KEYS) ignoredWithout(params, key, needs, notes);
  }
  return out;
}

function ignoredWithout(
  params: ReadonlyMap<string, string>,
  key: string,
  needs: string,
  notes: Notes,
): void {
  const text = params.get(key);
  if (text !== undefined)
    notes.ignored.push(`${key} ${quoteText(text)} is read with ${needs}; ignored it`);
}

function readCornerFilters(params: ReadonlyMap<string, string>, notes: Notes): CornerFilters {
  const query = params.get('filter') ?? '';
  const classText = params.get('class');
  let resultClass: ResultClass | null = null;
  if (classText !== undefined) {
    if ((RESULT_CLASSES as readonly string[]).includes(classText))
      resultClass = classText as ResultClass;
    else
      notes.ignored.push(
        `class ${quoteText(classText)} is not a result class (expected ${RESULT_CLASSES.join(', ')}); ignored it`,
      );
  }
  const happenedText = params.get('happened');
  let happened: CaseOutcome | null = null;
  if (happenedText !== undefined) {
    if ((CASE_OUTCOMES as readonly string[]).includes(happenedText))
      happened = happenedText as CaseOutcome;
    else
      notes.ignored.push(
        `happened ${quoteText(happenedText)} is not a mark (expected ${CASE_OUTCOMES.join(', ')}); ignored it`,
      );
  }
  return { query, resultClass, happened };
}

/** The link's range, the form's default for what it leaves out; null when it gives none. */
function readSweepRange(
  params: ReadonlyMap<string, string>,
  form: Form,
  source: 'f32' | 'f64',
  notes: Notes,
): SweepRange | null {
  if (SWEEP_KEYS.every((key) => !params.has(key))) return null;
  const range = { ...defaultSweepRange(form) };
  for (const key of ['from', 'to'] as const) {
    const text = params.get(key);
    if (text === undefined) continue;
    const bound = readSweepBound(text, source);
    if (bound.ok) range[key] = bound.value;
    else notes.ignored.push(`${key}: ${bound.message}; using ${range[key]}`);
  }
  const countText = params.get('count');
  if (countText !== undefined) {
    if (/^\d{1,9}$/.test(countText.trim())) range.count = Number(countText.trim());
    else
      notes.ignored.push(
        `count ${quoteText(countText)} is not a whole number; using ${range.count}`,
      );
  }
  const problem = sweepProblem(form, { kind: 'range', ...range });
  if (problem) {
    const fallback = defaultSweepRange(form);
    notes.ignored.push(
      `sweep range: ${sweepProblemWords(problem)}; using ${fallback.from} to ${fallback.to} (${fallback.count} values)`,
    );
    return null;
  }
  return range;
}

/** A number as a link writes it: the shortest decimal that reads back to it, -0 kept. */
function numberText(x: number): string {
  return Object.is(x, -0) ? '-0' : String(x);
}

/** The link's parameters for the open panel's settings, in a fixed order. */
export function writePanelSettings(settings: {
  corners?: CornerFilters;
  sweep?: SweepRange;
}): [string, string][] {
  const out: [string, string][] = [];
  const c = settings.corners;
  if (c) {
    if (c.query !== '') out.push(['filter', c.query]);
    if (c.resultClass !== null) out.push(['class', c.resultClass]);
    if (c.happened !== null) out.push(['happened', c.happened]);
  }
  const s = settings.sweep;
  if (s)
    out.push(['from', numberText(s.from)], ['to', numberText(s.to)], ['count', String(s.count)]);
  return out;
}
