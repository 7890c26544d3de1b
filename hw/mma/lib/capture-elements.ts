/**
 * Every output element of an mma capture, one by one: the A row and B column (element bits, in
 * k order) that made it, its C and the D the GPU gave, read out of the tiles by the fragment
 * layouts of tiles.ts.
 */
import { operandSize, type MmaCapturedForm } from './capture-files.ts';
import { aIndex, bIndex, cIndex } from './tiles.ts';

export interface CapturedElement {
  /** "tile 3 (corner) product 0 d[2][5]". */
  readonly where: string;
  readonly a: number[];
  readonly b: number[];
  readonly c: number;
  readonly d: number;
}

export function capturedElements(captured: MmaCapturedForm): CapturedElement[] {
  const g = captured.geometry;
  const s = captured.entry.sections;
  const out: CapturedElement[] = [];
  for (let tile = 0; tile < captured.entry.tiles; tile++) {
    const section = tile < s.exact ? 'exact' : tile < s.exact + s.corner ? 'corner' : 'random';
    for (let p = 0; p < g.products; p++)
      for (let row = 0; row < g.m; row++)
        for (let col = 0; col < g.n; col++) {
          const a: number[] = [];
          const b: number[] = [];
          for (let kk = 0; kk < g.k; kk++) {
            a.push(captured.a[tile * operandSize(g, 'a') + aIndex(g, p, row, kk)]!);
            b.push(captured.b[tile * operandSize(g, 'b') + bIndex(g, p, kk, col)]!);
          }
          const at = tile * operandSize(g, 'c') + cIndex(g, p, row, col);
          out.push({
            where: `tile ${tile} (${section}) product ${p} d[${row}][${col}]`,
            a,
            b,
            c: captured.c[at]!,
            d: captured.d[at]!,
          });
        }
  }
  return out;
}
