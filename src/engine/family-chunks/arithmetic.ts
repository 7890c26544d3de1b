/**
 * What family-semantics.ts imports dynamically for the arithmetic family. Nothing imports this
 * module statically, so it starts a chunk of the page's build of its own, while the family's
 * module stays free for static imports (all-families.ts).
 */
export { arithmeticFamily as semantics } from '../semantics/arithmetic-family.ts';
