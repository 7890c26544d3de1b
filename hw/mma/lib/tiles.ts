/**
 * The inputs of every tile of the mma capture (one tile = one warp's instruction), defined
 * once here and mirrored by hw/mma/mma-capture.cu (`fill_tile`); the harness's self-test writes
 * what its copy generates and tests/hw/mma-harness.test.ts compares the two.
 *
 * A form's tiles, in order:
 *  - `exact`: one tile of small integers (|a|, |b| ≤ 2, |c| ≤ 3): every sum is exact, so every
 *    model gives the same d, and a wrong fragment layout shows as a difference here;
 *  - `corner`: the corner cases (corner-cases.ts), case s of the form at product
 *    ⌊s/8⌋ mod P of tile ⌊s/(8P)⌋, on the diagonal d[j][j], j = s mod 8 (A's row j, B's column
 *    j, C[j][j]); every other element as in the exact tile;
 *  - `random`: seeded random finite elements (element-patterns.ts randomElement), the tile's
 *    mode r mod 4 choosing exponent windows: 0: A, B in [−2, 2], C in [−4, 4]; 1: [−8, 8] and
 *    [−16, 16]; 2: each format's whole finite range; 3: as 0, and in the first half of k each
 *    odd element repeats the even one before it with B's sign flipped (terms that cancel).
 *
 * Storage, per tile and product p: A row-major (p, row, k), B column by column (p, col, k) so a
 * column is contiguous, C and D row-major (p, row, col).
 */
import type { MmaForm } from './forms.ts';
import { mix32 } from '../../lib/sample.ts';
import { cornerCasesOf, type CornerCase } from './corner-cases.ts';
import {
  PATTERN_FORMATS,
  exponentRange,
  negate,
  randomElement,
  smallInteger,
  type PatternFormat,
} from './element-patterns.ts';
import { MMA_CAPTURE_FORMS, productsOf } from './forms.ts';

export const DEFAULT_MMA_SEED = 0x5eed00aa;
export const DEFAULT_RANDOM_TILES = 32;
/** Corner cases per product of a tile: the diagonal of an m×8 D. */
export const CASES_PER_PRODUCT = 8;

export interface TileInputs {
  readonly a: Uint32Array;
  readonly b: Uint32Array;
  readonly c: Uint32Array;
}

export interface TileGeometry {
  readonly products: number;
  readonly m: number;
  readonly n: number;
  readonly k: number;
}

export function geometryOf(form: MmaForm): TileGeometry {
  return { products: productsOf(form), ...form.matrix!.shape };
}

export const aIndex = (g: TileGeometry, p: number, row: number, kk: number) =>
  (p * g.m + row) * g.k + kk;
export const bIndex = (g: TileGeometry, p: number, kk: number, col: number) =>
  (p * g.n + col) * g.k + kk;
export const cIndex = (g: TileGeometry, p: number, row: number, col: number) =>
  (p * g.m + row) * g.n + col;

export interface TilePlan {
  readonly exact: number;
  readonly corner: number;
  readonly random: number;
  readonly total: number;
}

export function tilePlanOf(form: MmaForm, randomTiles = DEFAULT_RANDOM_TILES): TilePlan {
  const perTile = CASES_PER_PRODUCT * productsOf(form);
  const corner = Math.ceil(cornerCasesOf(form).length / perTile);
  return { exact: 1, corner, random: randomTiles, total: 1 + corner + randomTiles };
}

function formatsOf(form: MmaForm): { a: PatternFormat; b: PatternFormat; c: PatternFormat } {
  return {
    a: PATTERN_FORMATS[form.matrix!.types.a as 'f16'],
    b: PATTERN_FORMATS[form.matrix!.types.b as 'f16'],
    c: PATTERN_FORMATS[form.matrix!.types.c as 'f16'],
  };
}

function fillExact(form: MmaForm, t: TileInputs): void {
  const g = geometryOf(form);
  const f = formatsOf(form);
  for (let p = 0; p < g.products; p++) {
    for (let row = 0; row < g.m; row++)
      for (let kk = 0; kk < g.k; kk++)
        t.a[aIndex(g, p, row, kk)] = smallInteger(f.a, ((row * 7 + kk * 3 + p) % 5) - 2);
    for (let col = 0; col < g.n; col++)
      for (let kk = 0; kk < g.k; kk++)
        t.b[bIndex(g, p, kk, col)] = smallInteger(f.b, ((kk * 5 + col * 3 + 2 * p + 1) % 5) - 2);
    for (let row = 0; row < g.m; row++)
      for (let col = 0; col < g.n; col++)
        t.c[cIndex(g, p, row, col)] = smallInteger(f.c, ((row * 3 + col * 5 + p) % 7) - 3);
  }
}

function placeCases(
  form: MmaForm,
  cases: readonly CornerCase[],
  tile: number,
  t: TileInputs,
): void {
  const g = geometryOf(form);
  const perTile = CASES_PER_PRODUCT * g.products;
  for (let slot = 0; slot < perTile; slot++) {
    const s = tile * perTile + slot;
    if (s >= cases.length) break;
    const p = Math.floor(slot / CASES_PER_PRODUCT);
    const j = slot % CASES_PER_PRODUCT;
    const cc = cases[s]!;
    for (let kk = 0; kk < g.k; kk++) {
      t.a[aIndex(g, p, j, kk)] = cc.a[kk]!;
      t.b[bIndex(g, p, kk, j)] = cc.b[kk]!;
    }
    t.c[cIndex(g, p, j, j)] = cc.c;
  }
}

const GOLDEN = 0x9e3779b9;

/** The key of a tile's random words. */
export function tileKey(seed: number, formIndex: number, tile: number): number {
  const k1 = mix32((mix32(seed >>> 0) ^ formIndex) >>> 0);
  return mix32((k1 + Math.imul(tile, GOLDEN)) >>> 0);
}

/** Random word `index` of `stream` (0/1: A's two words, 2/3: B's, 4/5: C's). */
export function tileWord(key: number, stream: number, index: number): number {
  return mix32((key ^ mix32(((stream << 20) | index) >>> 0)) >>> 0);
}

function fillRandom(form: MmaForm, key: number, mode: number, t: TileInputs): void {
  const g = geometryOf(form);
  const f = formatsOf(form);
  const window = (fmt: PatternFormat, narrow: number) =>
    mode === 2 ? exponentRange(fmt) : { lo: -narrow, hi: narrow };
  const wa = window(f.a, mode === 1 ? 8 : 2);
  const wb = window(f.b, mode === 1 ? 8 : 2);
  const wc = window(f.c, mode === 1 ? 16 : 4);
  for (let i = 0; i < t.a.length; i++)
    t.a[i] = randomElement(f.a, tileWord(key, 0, i), tileWord(key, 1, i), wa.lo, wa.hi);
  for (let i = 0; i < t.b.length; i++)
    t.b[i] = randomElement(f.b, tileWord(key, 2, i), tileWord(key, 3, i), wb.lo, wb.hi);
  for (let i = 0; i < t.c.length; i++)
    t.c[i] = randomElement(f.c, tileWord(key, 4, i), tileWord(key, 5, i), wc.lo, wc.hi);
  if (mode !== 3) return;
  for (let p = 0; p < g.products; p++)
    for (let kk = 1; kk < g.k / 2; kk += 2) {
      for (let row = 0; row < g.m; row++)
        t.a[aIndex(g, p, row, kk)] = t.a[aIndex(g, p, row, kk - 1)]!;
      for (let col = 0; col < g.n; col++)
        t.b[bIndex(g, p, kk, col)] = negate(f.b, t.b[bIndex(g, p, kk - 1, col)]!);
    }
}

export type TileSection = 'exact' | 'corner' | 'random';

export function sectionOfTile(plan: TilePlan, tile: number): TileSection {
  return tile < plan.exact ? 'exact' : tile < plan.exact + plan.corner ? 'corner' : 'random';
}

/** The inputs of tile `tile` of the form at `formIndex` of MMA_CAPTURE_FORMS. */
export function tileInputs(
  formIndex: number,
  tile: number,
  seed = DEFAULT_MMA_SEED,
  randomTiles = DEFAULT_RANDOM_TILES,
): TileInputs {
  const form = MMA_CAPTURE_FORMS[formIndex]!;
  const g = geometryOf(form);
  const t: TileInputs = {
    a: new Uint32Array(g.products * g.m * g.k),
    b: new Uint32Array(g.products * g.n * g.k),
    c: new Uint32Array(g.products * g.m * g.n),
  };
  const plan = tilePlanOf(form, randomTiles);
  const section = sectionOfTile(plan, tile);
  if (section === 'random') {
    fillRandom(form, tileKey(seed, formIndex, tile), (tile - plan.exact - plan.corner) % 4, t);
    return t;
  }
  fillExact(form, t);
  if (section === 'corner') placeCases(form, cornerCasesOf(form), tile - plan.exact, t);
  return t;
}
