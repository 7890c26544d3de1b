/**
 * Every captured element against the engine's model: for tile t, product p and D's element
 * (row, col), the model evaluates A's row, B's column and C's element (tiles.ts) and the
 * result is compared bit for bit with the measured D.
 */
import { CASES_PER_PRODUCT, cIndex, aIndex, bIndex, type TileSection } from './tiles.ts';
import { operandSize, type MmaCapturedForm } from './capture-files.ts';
import { modelElement } from './model.ts';
import { CAPTURE_TARGET } from './forms.ts';

export interface ElementInputs {
  readonly a: number[];
  readonly b: number[];
  readonly c: number;
}

export interface ElementDifference {
  readonly tile: number;
  readonly section: TileSection;
  readonly product: number;
  readonly row: number;
  readonly col: number;
  /** The corner case on this element (a corner tile's diagonal), if any. */
  readonly cornerCase: string | null;
  readonly inputs: ElementInputs;
  readonly model: number;
  readonly measured: number;
}

export interface SectionCount {
  agree: number;
  differ: number;
}

export interface FormComparison {
  readonly form: string;
  readonly sections: Record<TileSection, SectionCount>;
  /** The first differences, in element order. */
  readonly differences: ElementDifference[];
}

function sectionOf(captured: MmaCapturedForm, tile: number): TileSection {
  const s = captured.entry.sections;
  return tile < s.exact ? 'exact' : tile < s.exact + s.corner ? 'corner' : 'random';
}

export function elementInputs(
  captured: MmaCapturedForm,
  tile: number,
  p: number,
  row: number,
  col: number,
): ElementInputs {
  const g = captured.geometry;
  const a0 = tile * operandSize(g, 'a');
  const b0 = tile * operandSize(g, 'b');
  const c0 = tile * operandSize(g, 'c');
  const a: number[] = [];
  const b: number[] = [];
  for (let kk = 0; kk < g.k; kk++) {
    a.push(captured.a[a0 + aIndex(g, p, row, kk)]!);
    b.push(captured.b[b0 + bIndex(g, p, kk, col)]!);
  }
  return { a, b, c: captured.c[c0 + cIndex(g, p, row, col)]! };
}

function cornerCaseAt(
  captured: MmaCapturedForm,
  tile: number,
  p: number,
  row: number,
  col: number,
): string | null {
  const s = captured.entry.sections;
  if (sectionOf(captured, tile) !== 'corner' || row !== col || row >= CASES_PER_PRODUCT)
    return null;
  const index = ((tile - s.exact) * captured.geometry.products + p) * CASES_PER_PRODUCT + row;
  return captured.entry.cornerCases[index] ?? null;
}

/** Calls `visit` for every element of D, tile by tile, in storage order. */
function forEachElement(
  captured: MmaCapturedForm,
  visit: (tile: number, p: number, row: number, col: number, index: number) => void,
): void {
  const g = captured.geometry;
  const size = operandSize(g, 'd');
  for (let tile = 0; tile < captured.entry.tiles; tile++)
    for (let p = 0; p < g.products; p++)
      for (let row = 0; row < g.m; row++)
        for (let col = 0; col < g.n; col++)
          visit(tile, p, row, col, tile * size + cIndex(g, p, row, col));
}

/** D as the model computes it, in the capture's order. */
export function modelD(captured: MmaCapturedForm): Uint32Array {
  const d = new Uint32Array(captured.d.length);
  forEachElement(captured, (tile, p, row, col, index) => {
    const x = elementInputs(captured, tile, p, row, col);
    d[index] = modelElement(captured.form, x.a, x.b, x.c);
  });
  return d;
}

/**
 * Every element of a captured form against the model of `target` (sm_90 by default; another
 * target asks whether the GPU computes as that architecture's model does).
 */
export function compareMmaForm(
  captured: MmaCapturedForm,
  firstDifferences = 5,
  target = CAPTURE_TARGET,
): FormComparison {
  const sections: Record<TileSection, SectionCount> = {
    exact: { agree: 0, differ: 0 },
    corner: { agree: 0, differ: 0 },
    random: { agree: 0, differ: 0 },
  };
  const differences: ElementDifference[] = [];
  forEachElement(captured, (tile, p, row, col, index) => {
    const inputs = elementInputs(captured, tile, p, row, col);
    const model = modelElement(captured.form, inputs.a, inputs.b, inputs.c, target);
    const measured = captured.d[index]!;
    const section = sectionOf(captured, tile);
    if (model === measured) {
      sections[section].agree++;
      return;
    }
    sections[section].differ++;
    if (differences.length < firstDifferences)
      differences.push({
        tile,
        section,
        product: p,
        row,
        col,
        cornerCase: cornerCaseAt(captured, tile, p, row, col),
        inputs,
        model,
        measured,
      });
  });
  return { form: captured.form.text, sections, differences };
}
