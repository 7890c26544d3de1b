/**
 * What family-semantics.ts imports dynamically for the tensor cores. Nothing imports this module
 * statically, so it starts a chunk of the page's build of its own, while the family's module
 * stays free for static imports (all-families.ts, the tensor-core what-ifs).
 */
export { tensorCoreFamily as semantics } from '../semantics/tensor-core.ts';
