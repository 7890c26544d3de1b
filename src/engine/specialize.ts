/**
 * NVIDIA's rules under the names the modules on the numeric formats of formats.ts import them by
 * (ops/, traced-rules.ts, what-if/, block-scale/): nvidia-rules.ts, and
 * its view on numbers (fast/numeric-rules.ts, checked against it on every pattern). Those modules
 * pass f16, bf16 and f32, whose facts are the same in both format types.
 */
export {
  canonicalNaN,
  flushSubnormal,
  flushTinyResult,
  isOobNaN,
  oobForcesZero,
  relu,
  saturate,
} from './fast/numeric-rules.ts';
export { exactZeroIsNegative, isTiny, type TininessReading } from './nvidia-rules.ts';
export type { Tininess } from './rounding.ts';
