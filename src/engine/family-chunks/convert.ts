/**
 * What family-semantics.ts imports dynamically for cvt. Nothing imports this module statically,
 * so it starts a chunk of the page's build of its own, while the family's module stays free for
 * static imports (all-families.ts, the block-scale and every-format modules).
 */
export { convertFamily as semantics } from '../semantics/convert-family.ts';
