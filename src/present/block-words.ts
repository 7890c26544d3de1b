/**
 * Words for the block panel (issue 26): the schemes and scale rules by name, an element's marks,
 * and the one sentence that says which scheme and rule lose least and why. The figures come
 * from the engine (engine/block-scale); only the words are made here.
 */
import type {
  BlockComparison,
  BlockErrorSummary,
  BlockScheme,
  ScaleRule,
  SchemeEntry,
} from '../engine/block-scale/index.ts';
import type { BlockScaledDot } from '../engine/semantics/block-scaled-dot.ts';
import { exactText } from './numbers.ts';

export const SCHEME_LABELS: Record<BlockScheme, string> = {
  'mxfp8-e4m3': 'MXFP8 (E4M3)',
  'mxfp8-e5m2': 'MXFP8 (E5M2)',
  'mxfp6-e3m2': 'MXFP6 (E3M2)',
  'mxfp6-e2m3': 'MXFP6 (E2M3)',
  mxfp4: 'MXFP4 (E2M1)',
  nvfp4: 'NVFP4 (E2M1, UE4M3 scale)',
};

export const RULE_LABELS: Record<ScaleRule, string> = {
  ocp: 'ocp: 2^(floor(log2 amax) − emax_elem), OCP MX v1.0',
  rp: 'rp: amax / max_elem rounded up (cvt.rp), as CUTLASS',
  rz: 'rz: amax / max_elem rounded toward zero (cvt.rz)',
  nvfp4: 'nvfp4: a UE4M3 block scale under an f32 tensor scale',
};

/** The short name of an entry of the comparison: `MXFP4 (E2M1) · rp`, `bf16`. */
export function entryLabel(key: string): string {
  const [scheme, rule] = key.split('/') as [BlockScheme, ScaleRule | undefined];
  if (rule === undefined) return key;
  return `${SCHEME_LABELS[scheme]} · ${rule}`;
}

/** An element's marks, as words: "saturated", "flushed to zero", "NaN". */
export function flagWords(flags: {
  readonly saturated: boolean;
  readonly flushedToZero: boolean;
  readonly nan: boolean;
  readonly infinite?: boolean;
}): string[] {
  const words: string[] = [];
  if (flags.saturated) words.push('saturated');
  if (flags.flushedToZero) words.push('flushed to zero');
  if (flags.nan) words.push('NaN');
  if (flags.infinite) words.push('overflowed to infinity');
  return words;
}

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** What a block lost besides rounding: "2 saturated, 1 flushed to zero", or null. */
export function lossWords(summary: BlockErrorSummary): string | null {
  const parts = [
    summary.saturated.length > 0 ? `${summary.saturated.length} saturated` : null,
    summary.flushedToZero.length > 0 ? `${summary.flushedToZero.length} flushed to zero` : null,
    summary.nan.length > 0 ? count(summary.nan.length, 'NaN', 'NaNs') : null,
  ].filter((p): p is string => p !== null);
  return parts.length > 0 ? parts.join(', ') : null;
}

function blockEntries(c: BlockComparison): SchemeEntry[] {
  return c.entries.filter((e): e is SchemeEntry => e.kind === 'block');
}

/**
 * Which scheme and rule lose least over the block, and why, in one sentence: by more element
 * bits where the winner is another scheme, or by what the other rules of its scheme clamp or
 * flush where only the rule differs.
 */
export function leastSentence(c: BlockComparison): string {
  const entries = blockEntries(c);
  const least = entries.find((e) => e.key === c.least)!;
  const sameScheme = entries.filter((e) => e.scheme === least.scheme && e.key !== least.key);
  const others = sameScheme
    .map((e) => {
      const loss = lossWords(e.summary);
      return loss ? `${e.scaleRule} ${loss}` : null;
    })
    .filter((t): t is string => t !== null);
  const rules =
    others.length > 0
      ? `; among ${SCHEME_LABELS[least.scheme]}'s rules ${least.scaleRule} keeps amax in range where ${others.join(' and ')}`
      : '';
  const own = lossWords(least.summary);
  const element = least.blocks[0]!.element;
  const [, e, m] = /^e(\d)m(\d)$/.exec(element)!;
  return `${entryLabel(least.key)} loses least (RMS error ${figure(least.summary.rms)}, ${least.bitsPerValue} bits a value): its ${element.toUpperCase()} elements, ${m} mantissa bits over ${e} exponent bits, cover this block's range with the finest steps${own ? `, though ${own}` : ''}${rules}.`;
}

/**
 * For the scheme shown: its rule that loses least, and why in one sentence (what the other rules
 * clamp or flush, or that they round more coarsely).
 */
export function ruleSentence(c: BlockComparison, scheme: BlockScheme): string | null {
  const entries = blockEntries(c).filter((e) => e.scheme === scheme);
  if (entries.length < 2) return null;
  const best = entries.find((e) => e.scaleRule === c.leastPerScheme[scheme])!;
  const bestLoss = lossWords(best.summary);
  const reasons = entries
    .filter((e) => e !== best)
    .map((e) => {
      if (e.summary.rms === best.summary.rms)
        return `${e.scaleRule} loses as much (its scale ${scaleRelation(e, best)})`;
      const loss = lossWords(e.summary);
      if (loss && loss !== bestLoss) return `${e.scaleRule} ${loss}`;
      return `${e.scaleRule}'s scale is ${scaleRelation(e, best)}, and its elements lose more to rounding (RMS ${figure(e.summary.rms)})`;
    });
  return `Within ${SCHEME_LABELS[scheme]}, ${best.scaleRule} loses least (RMS ${figure(best.summary.rms)}): ${reasons.join('; ')}.`;
}

function scaleRelation(e: SchemeEntry, best: SchemeEntry): string {
  const ex = e.blocks[0]!.scale.exponent;
  const bx = best.blocks[0]!.scale.exponent;
  if (ex === null || bx === null) return 'another';
  return ex === bx
    ? `2^${ex}, as ${best.scaleRule}'s`
    : `2^${ex} against ${best.scaleRule}'s 2^${bx}`;
}

/** A ratio or error as people read it: 4 significant digits. */
export function figure(x: number): string {
  if (x === 0) return '0';
  const text = x.toPrecision(4);
  return /e/.test(text) ? text.replace(/e\+?/, ' × 10^') : String(Number(text));
}

/** Where the block-scaled mma assembles (ptxas 13.0; PTX ISA 9.7.14.5.14 names sm_120a). */
export const BLOCK_MMA_TARGETS =
  'ptxas 13.0 assembles it for sm_120a (PTX ISA 8.7 and later) and sm_121a, sm_120f, sm_121f; not for sm_100a, sm_120 or sm_90a.';

/** The model's steps for one block-scaled mma element, in a sentence or two. */
export function blockDotWords(dot: BlockScaledDot): string {
  if (dot.special !== null) return SPECIAL_WORDS[dot.special];
  const how =
    dot.groups.length > 0
      ? `Each group of 16 products is summed exactly and multiplied by its two scales; those ${dot.groups.length} sums and c`
      : `Each product a_i·b_i takes both scales' exponents; the ${dot.k} products and c`;
  return `${how} are cut toward zero to multiples of 2^${dot.largestExponent! - dot.n} (${dot.n} bits below the largest term, 2^${dot.largestExponent}) and added: ${exactText(dot.kept)} of the exact ${exactText(dot.exact)}; that sum is truncated to f32.`;
}

const SPECIAL_WORDS: Record<NonNullable<BlockScaledDot['special']>, string> = {
  'nan-scale': 'A scale is NaN: d is 0x7FFFFFFF.',
  'nan-c': 'c is NaN: d is 0x7FFFFFFF.',
  'nan-operand': 'An element is NaN: d is the canonical NaN.',
  invalid: 'A product is ∞ × 0, or +∞ meets −∞: d is the canonical NaN.',
  infinity: 'An infinite product decides d: that infinity.',
};
