/**
 * A wgmma capture against the engine's model for sm_90: each case's d from the GPU's output
 * (`index d` lines, `#` comments) beside ../lib/model.ts's, counted per form and source of A.
 */
import { findForm } from '../../../src/catalog/all-forms.ts';
import { modelElement } from '../lib/model.ts';
import type { WgmmaCase } from './cases.ts';

export interface WgmmaDifference {
  readonly index: number;
  readonly case: WgmmaCase;
  readonly model: number;
  readonly measured: number;
}

export interface WgmmaGroup {
  readonly form: string;
  readonly aSource: WgmmaCase['aSource'];
  readonly cases: number;
  readonly agree: number;
  readonly differences: readonly WgmmaDifference[];
}

/** The GPU's d per case index; an error names the line it cannot read. */
export function readOutput(text: string, count: number): number[] | { error: string } {
  const d = new Array<number | undefined>(count);
  for (const [n, line] of text.split('\n').entries()) {
    if (line.trim() === '' || line.startsWith('#')) continue;
    const m = /^(\d+) 0x([0-9a-f]+)$/.exec(line.trim());
    if (!m || Number(m[1]) >= count)
      return { error: `line ${n + 1}: not a case's result: ${line}` };
    d[Number(m[1])] = Number.parseInt(m[2]!, 16);
  }
  const missing = d.findIndex((x) => x === undefined);
  return missing === -1 ? (d as number[]) : { error: `no result for case ${missing}` };
}

/** Every case's d against the model's, grouped by form and source of A, in the cases' order. */
export function compareWgmma(
  cases: readonly WgmmaCase[],
  measured: readonly number[],
  target = 'sm_90',
): WgmmaGroup[] {
  const groups = new Map<string, { group: WgmmaGroup; differences: WgmmaDifference[] }>();
  cases.forEach((c, index) => {
    const key = `${c.form} ${c.aSource}`;
    let entry = groups.get(key);
    if (!entry) {
      entry = {
        group: { form: c.form, aSource: c.aSource, cases: 0, agree: 0, differences: [] },
        differences: [],
      };
      groups.set(key, entry);
    }
    const model = modelElement(findForm(c.form)!, c.a, c.b, c.c, target);
    const agree = model === measured[index];
    entry.group = {
      ...entry.group,
      cases: entry.group.cases + 1,
      agree: entry.group.agree + (agree ? 1 : 0),
    };
    if (!agree) entry.differences.push({ index, case: c, model, measured: measured[index]! });
  });
  return [...groups.values()].map(({ group, differences }) => ({ ...group, differences }));
}
