import type { BlockScheme, ScaleRule } from '../engine/block-scale/schemes.ts';

/**
 * The block panel's settings as the store holds them, and their default (the sample block
 * under mxfp4). What they mean, how they are edited and how a share link carries them is
 * block-settings.ts.
 */

export interface BlockSettings {
  readonly scheme: BlockScheme;
  readonly rule: ScaleRule;
  /** The block: binary32 bit patterns, 32 for MX, 16 for NVFP4. */
  readonly values: readonly number[];
  /** The column block for the dot product, the same length; null: the block itself. */
  readonly column: readonly number[] | null;
  /** NVFP4's tensorAmax (binary32 bits); null: the block's amax. */
  readonly tensorAmax: number | null;
  /** cvt.rs's random bits (one word per cvt, or one for all); null: cvt.rn. */
  readonly rbits: readonly number[] | null;
}

const f32Bits = (x: number): number => {
  const view = new DataView(new ArrayBuffer(4));
  view.setFloat32(0, x);
  return view.getUint32(0);
};

/**
 * 32 activations as a layer might give them: mostly small, of both signs, one outlier (12.5)
 * that sets the scale, and one value (0.0078125) that small scales flush.
 */
export const SAMPLE_BLOCK: readonly number[] = [
  0.1, -0.25, 0.8, 1.5, -2.75, 0.03, 3.2, -0.6, 12.5, 0.0078125, -1.1, 0.45, 2.2, -3.9, 0.9, -0.05,
  0.33, 1.8, -0.72, 4.4, 0.2, -1.6, 0.015, 2.9, -0.4, 0.66, -5.1, 1.25, 0.07, -0.9, 3.5, -0.125,
].map(f32Bits);

export const DEFAULT_BLOCK_SETTINGS: BlockSettings = {
  scheme: 'mxfp4',
  rule: 'ocp',
  values: SAMPLE_BLOCK,
  column: null,
  tensorAmax: null,
  rbits: null,
};
