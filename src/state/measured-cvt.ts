/**
 * The cvt forms a GPU was measured on (public/measured/cvt.json, written by
 * hw/export-measured-cvt.ts from a committed capture), for the page's "measured on" line. The file
 * is fetched once, when a cvt form is first shown, never before the first result; a file that
 * cannot be read leaves the line out (the result never depends on it).
 */
import { useEffect, useState } from 'react';
import { measuredCvtForm, measuredCvtSets, type MeasuredCvtSet } from '../engine/measured-cvt.ts';
import { measuredCvtText } from '../present/measured-cvt-text.ts';
import { MEASURED_BASE, type Fetch } from './measured-tables.ts';

let loading: Promise<readonly MeasuredCvtSet[]> | null = null;

/** The measured sets, fetched once per page (an unreadable file gives none). */
export function loadMeasuredCvt(
  fetchFn: Fetch = (url) => fetch(url),
): Promise<readonly MeasuredCvtSet[]> {
  loading ??= fetchFn(`${MEASURED_BASE}cvt.json`)
    .then((response) => (response.ok ? response.json() : null))
    .then((json: unknown) => (json === null ? [] : measuredCvtSets(json)))
    .catch(() => []);
  return loading;
}

/** The line a form shows on a target, or null: not a cvt, not measured there, or not loaded yet. */
export function measuredCvtLine(
  sets: readonly MeasuredCvtSet[],
  target: string,
  formText: string,
): string | null {
  const found = measuredCvtForm(sets, target, formText);
  return found ? measuredCvtText(found.set, found.form) : null;
}

/** React: the "measured on" line of a cvt form on a target (null until the file is read). */
export function useMeasuredCvtLine(
  target: string,
  formText: string,
  isConvert: boolean,
): string | null {
  const [sets, setSets] = useState<readonly MeasuredCvtSet[] | null>(null);
  useEffect(() => {
    if (!isConvert || sets !== null) return;
    let live = true;
    void loadMeasuredCvt().then((s) => live && setSets(s));
    return () => {
      live = false;
    };
  }, [isConvert, sets]);
  return isConvert && sets ? measuredCvtLine(sets, target, formText) : null;
}
