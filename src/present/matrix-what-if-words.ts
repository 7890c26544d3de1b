/**
 * The tensor-core what-if in words: the model a target computes by and its sources, one
 * sentence saying why another target's element differs from the page's target's, and what a
 * CUDA-core loop of fma.rn in f32 and in f64 gives beside it and why, composed from the
 * engine's data (engine/what-if/matrix-targets.ts, engine/what-if/matrix-chains.ts).
 */
import type { Form } from '../catalog/instruction.ts';
import { TENSOR_CORE_SOURCES } from '../catalog/tensor-core-models.ts';
import { exactValueOfValue } from '../engine/format.ts';
import type { CudaCoreChain, MatrixChains } from '../engine/what-if/matrix-chains.ts';
import type { MatrixTargetOutcome } from '../engine/what-if/matrix-targets.ts';
import { SEQUENCE_WORDS } from './matrix-step-words.ts';
import { exactText, ulpsText } from './numbers.ts';
import { valueWithBits } from './values.ts';

type Model = MatrixTargetOutcome['model'];

const MODE_WORDS: Readonly<Record<string, string>> = {
  rn: 'to nearest even',
  rz: 'toward zero',
  rm: 'toward −∞',
  rp: 'toward +∞',
};

const COUNT_WORDS = ['no', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight'];
const count = (n: number) => COUNT_WORDS[n] ?? String(n);

/**
 * The model in a line: "Hopper model (sm_90): terms keep 25 fractional bits, one fused sum…", or
 * "Hopper, as measured on this form (sm_90): …" where the engine follows a measured sequence.
 */
export function modelLine(model: Model): string {
  if (model.sequence)
    return `${model.name}, as measured on this form (${model.target}): ${SEQUENCE_WORDS[model.sequence.kind]}`;
  const head = `${model.name} model (${model.target})`;
  if (!model.fused)
    return `${head}: a chain of fused multiply-adds in f64, each rounded ${MODE_WORDS[model.chain!.mode] ?? model.chain!.mode}`;
  const f = model.fused;
  const sums = f.halves ? 'k split in two halves, each one fused sum' : 'one fused sum';
  return `${head}: each term lined up with the largest exponent and cut to ${f.alignmentBits} fractional bits, ${sums}, rounded once to ${f.result.format} ${MODE_WORDS[f.result.mode] ?? f.result.mode}`;
}

/**
 * The model's sources, as tensor-cores.md cites them; for a measured sequence, the measurement
 * (no published model describes it).
 */
export function sourceLines(model: Model): string[] {
  if (model.sequence)
    return [
      `measured on an ${model.sequence.measuredOn}: the capture ${model.sequence.capture}, reproduced element by element (decision mma-sm90-differing-forms)`,
    ];
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
  if (other.model.sequence && !reference.model.sequence)
    reasons.push(
      `it adds in f32, rounding to nearest even after each addition, as measured on this form`,
    );
  if (reference.model.sequence && b)
    reasons.push(
      `it adds every product in one fused sum, each term cut to ${b.alignmentBits} fractional bits, rounded once ${MODE_WORDS[b.result.mode] ?? b.result.mode} (${reference.target} adds in f32, rounding after each addition)`,
    );
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

// --- The CUDA-core loops ------------------------------------------------------------------------

const CHAIN_NAMES = { f32: 'A loop of fma.rn.f32', f64: 'A loop of fma.rn.f64' } as const;

/** How the tensor core adds, in a clause: "cuts each term to 25 fractional bits …". */
function tensorCoreHow(model: Model): string {
  if (model.sequence) return 'adds in f32 in the measured order, rounding after each addition';
  if (!model.fused) return 'is itself a chain of f64 fused multiply-adds';
  const f = model.fused;
  const halves = f.halves ? ' in each of two halves' : '';
  return `cuts each term to ${f.alignmentBits} fractional bits below the largest${halves} and rounds the sum once ${MODE_WORDS[f.result.mode] ?? f.result.mode}`;
}

const ulpsWords = (u: number) => ulpsText(u).replace(/^\+/, '');

/** "1 ulp above the tensor core", "the tensor core's value". */
function againstTensorCore(chain: CudaCoreChain): string {
  if (chain.sameAsTensorCore) return 'the same value as the tensor core';
  const u = chain.ulpsFromTensorCore;
  if (u === null) return 'not the tensor core’s value';
  return `${ulpsWords(Math.abs(u))} ${u > 0 ? 'above' : 'below'} the tensor core`;
}

/**
 * One sentence: what the loop gives, how far from the tensor core's d (in ulps of d's format
 * at d), and why — how many of its k fmas rounded against how the tensor core adds, and each
 * one's distance from the exact value.
 */
export function chainSentence(x: MatrixChains, format: 'f32' | 'f64'): string {
  const chain = x[format];
  if (!chain.ok)
    return `${CHAIN_NAMES[format]}: none here, as the elements are f64 values (an f32 loop would first round them).`;
  const head = `${CHAIN_NAMES[format]} from acc = c gives ${valueWithBits(chain.result)}, ${againstTensorCore(chain)}`;
  if (chain.ulpsFromExact === null || x.tensorCore.ulpsFromExact === null)
    return `${head}: a NaN or an infinity decides both.`;
  const rounded = chain.links.filter((l) => l.rounded).length;
  const loop =
    rounded === 0
      ? `none of its ${x.k} fmas rounded, so it holds the exact value`
      : `${rounded} of its ${x.k} fmas rounded to nearest even (${ulpsText(chain.ulpsFromExact)} from the exact value in all)`;
  const tc = x.tensorCore.ulpsFromExact;
  const core = `the tensor core ${tensorCoreHow(x.tensorCore.model)} (${tc === 0 ? 'exact here' : `${ulpsText(tc)} from the exact value`})`;
  return `${head}: ${loop}; ${core}.`;
}

/**
 * The exact value, named by what it sums — c + Σ a_i·b_i, or for a block-scaled form
 * c + Σ (a_i·SF_A)·(b_i·SF_B) (SF_A, SF_B: the chunk's scales, as the PTX ISA's block scaling
 * names them) — and how far the tensor core's d is from it.
 */
export function exactLine(x: MatrixChains): string {
  const sum = x.blockScaled ? 'Σ (a_i·SF_A)·(b_i·SF_B)' : 'Σ a_i·b_i';
  const exact = exactText(exactValueOfValue(x.exact));
  const tc = x.tensorCore.ulpsFromExact;
  const off =
    tc === null ? '' : tc === 0 ? '; d is exact' : `; d is ${ulpsText(tc)} from it (ulps of d)`;
  return `Exact c + ${sum} = ${exact}${off}`;
}

/**
 * Why a block-scaled form has no other target to compare: it exists only where its kind does
 * (the catalog's least target and PTX ISA version), all under the one published block-scaling
 * model (semantics/block-scaled-dot.ts).
 */
export function blockScaledTargetsLine(form: Form): string {
  return `No other target to compare: a block-scaled form runs only where .kind::${form.matrix!.blockScale!.kind} exists (from ${form.minTarget} at PTX ISA ${form.minPtx}, and the targets of that family), each under the one block-scaling model. What the block costs shows in the loops and the exact value below.`;
}
