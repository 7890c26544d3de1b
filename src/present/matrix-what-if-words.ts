/**
 * The tensor-core what-if in words: the model a target computes by and its sources, and one
 * sentence saying why another target's element differs from the page's target's, composed from
 * the engine's data (engine/what-if/matrix-targets.ts).
 */
import { TENSOR_CORE_SOURCES } from '../catalog/tensor-core-models.ts';
import type { MatrixTargetOutcome } from '../engine/what-if/matrix-targets.ts';

type Model = MatrixTargetOutcome['model'];

const MODE_WORDS: Readonly<Record<string, string>> = {
  rn: 'to nearest even',
  rz: 'toward zero',
  rm: 'toward −∞',
  rp: 'toward +∞',
};

const COUNT_WORDS = ['no', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight'];
const count = (n: number) => COUNT_WORDS[n] ?? String(n);

/** The model in a line: "Hopper model (sm_90): terms keep 25 fractional bits, one fused sum…". */
export function modelLine(model: Model): string {
  const head = `${model.name} model (${model.target})`;
  if (!model.fused)
    return `${head}: a chain of fused multiply-adds in f64, each rounded ${MODE_WORDS[model.chain!.mode] ?? model.chain!.mode}`;
  const f = model.fused;
  const sums = f.halves ? 'k split in two halves, each one fused sum' : 'one fused sum';
  return `${head}: each term lined up with the largest exponent and cut to ${f.alignmentBits} fractional bits, ${sums}, rounded once to ${f.result.format} ${MODE_WORDS[f.result.mode] ?? f.result.mode}`;
}

/** The model's sources, as tensor-cores.md cites them. */
export function sourceLines(model: Model): string[] {
  return model.sources.map((id) => {
    const c = TENSOR_CORE_SOURCES[id];
    return `${c.authors}, “${c.title}”, ${c.venue} (${c.year}; measured ${c.measured})`;
  });
}

const products = (indices: readonly number[]) => indices.map((i) => `a_${i}·b_${i}`).join(', ');

/** How far `other` is from the reference: "2 ulps above", "the same bits", "NaN against 1.5". */
function distance(other: MatrixTargetOutcome): string {
  if (other.sameBits) return 'gives the same bits';
  const u = other.ulpsFromReference;
  if (u === null || u === 0) return `gives ${other.d}`;
  const n = Math.abs(u);
  return `gives ${other.d}, ${n} ulp${n === 1 ? '' : 's'} ${u > 0 ? 'above' : 'below'}`;
}

/**
 * One sentence: why `other` gives what it gives beside `reference` (the page's target) — the
 * fractional bits the terms keep, Ampere's and Ada's halves, the final rounding, and the products
 * the cuts took to zero.
 */
export function whySentence(reference: MatrixTargetOutcome, other: MatrixTargetOutcome): string {
  const head = `On ${other.target} (${other.model.name}) the element ${distance(other)}`;
  if (other.target === reference.target) return `${head}: this is the page’s target.`;
  const reasons: string[] = [];
  const a = reference.model.fused;
  const b = other.model.fused;
  if (a && b) {
    if (a.alignmentBits !== b.alignmentBits)
      reasons.push(
        `its terms keep ${b.alignmentBits} fractional bits (${reference.target}: ${a.alignmentBits})`,
      );
    if (a.halves !== b.halves)
      reasons.push(
        b.halves
          ? 'it splits k in two halves and rounds the first half’s sum before adding the second'
          : `it adds all k products in one fused sum (${reference.target} splits k in two halves)`,
      );
    if (a.result.mode !== b.result.mode)
      reasons.push(`it rounds ${MODE_WORDS[b.result.mode] ?? b.result.mode}`);
  }
  const zeroed = other.cutToZero.filter((i) => !reference.cutToZero.includes(i));
  if (zeroed.length > 0)
    reasons.push(
      `${count(zeroed.length)} product${zeroed.length === 1 ? ' is' : 's are'} cut to zero there (${products(zeroed)})`,
    );
  const more = other.cut.filter((i) => !reference.cut.includes(i) && !zeroed.includes(i));
  if (more.length > 0)
    reasons.push(
      `${count(more.length)} more product${more.length === 1 ? ' loses' : 's lose'} bits in the cut (${products(more)})`,
    );
  if (reasons.length === 0)
    return other.sameBits
      ? `${head}: the models differ in nothing these inputs reach.`
      : `${head}: the same model steps cut these terms differently.`;
  // The models differ, but not where these inputs reach.
  if (other.sameBits)
    return `${head}, though ${reasons.join('; ')}: these inputs lose nothing more.`;
  return `${head}: ${reasons.join('; ')}.`;
}
