/**
 * What a GPU measured of a cvt form, for ptxf eval: public/measured/cvt.json (written by
 * hw/export-measured-cvt.ts) read once per process, the form looked up for the target, and the
 * line src/present words. A file that cannot be read gives no line: the result does not depend
 * on it.
 */
import { readFileSync } from 'node:fs';
import {
  measuredCvtForm,
  measuredCvtSets,
  type MeasuredCvtForm,
  type MeasuredCvtSet,
} from '../engine/measured-cvt.ts';
import { measuredCvtText } from '../present/measured-cvt-text.ts';
import { MEASURED_ROOT } from './measured-tables.ts';

const sets = new Map<string, readonly MeasuredCvtSet[] | null>();

function setsAt(root: URL): readonly MeasuredCvtSet[] | null {
  if (!sets.has(root.href)) {
    let read: readonly MeasuredCvtSet[] | null;
    try {
      read = measuredCvtSets(JSON.parse(readFileSync(new URL('cvt.json', root), 'utf8')));
    } catch {
      read = null;
    }
    sets.set(root.href, read);
  }
  return sets.get(root.href)!;
}

export interface MeasuredCvt {
  readonly set: MeasuredCvtSet;
  readonly form: MeasuredCvtForm;
  /** The line ptxf prints. */
  readonly text: string;
}

/** What was measured of the cvt form `form` on `target`, or null. */
export function measuredCvt(
  target: string,
  form: string,
  root = MEASURED_ROOT,
): MeasuredCvt | null {
  const all = setsAt(root);
  const found = all && measuredCvtForm(all, target, form);
  return found ? { ...found, text: measuredCvtText(found.set, found.form) } : null;
}
