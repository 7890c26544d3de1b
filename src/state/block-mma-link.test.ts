/**
 * The block panel's hand-off link opens the catalog's block-scaled mma form with the quantized
 * row, column and scales: decoded and evaluated by the page's pipeline it gives the d the panel
 * shows, for random blocks of every scheme.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { blockDotHandOff } from '../engine/block-scale/block-dot.ts';
import { quantizeBlock } from '../engine/block-scale/index.ts';
import { evaluate } from '../engine/pipeline.ts';
import { blockMmaQuery } from './block-mma-link.ts';
import { decodeUrl } from './url-codec.ts';

const f32Bits = (x: number) => new Uint32Array(new Float32Array([x]).buffer)[0]!;

const SCHEMES = ['mxfp8-e4m3', 'mxfp8-e5m2', 'mxfp6-e3m2', 'mxfp6-e2m3', 'mxfp4', 'nvfp4'] as const;

describe('the block panel’s link into the tensor-core page', () => {
  for (const scheme of SCHEMES)
    it(`${scheme}: the link loads the form, row, column and scales whose d the panel shows`, () => {
      const size = scheme === 'nvfp4' ? 16 : 32;
      // Rows and columns of other magnitudes, so that their scales differ.
      const big = fc.double({ min: -1000, max: 1000, noNaN: true }).map(f32Bits);
      const small = fc.double({ min: -1, max: 1, noNaN: true }).map(f32Bits);
      fc.assert(
        fc.property(
          fc.array(big, { minLength: size, maxLength: size }),
          fc.array(small, { minLength: size, maxLength: size }),
          (x, y) => {
            const rule = scheme === 'nvfp4' ? 'nvfp4' : 'ocp';
            const row = quantizeBlock({ scheme, scaleRule: rule, values: x });
            const column = quantizeBlock({ scheme, scaleRule: rule, values: y });
            if (!row.ok || !column.ok) throw new Error('refused');
            const h = blockDotHandOff(row, column, x, y);
            if (!h.mma.ok) throw new Error(h.mma.message);
            const { state, ignored } = decodeUrl(blockMmaQuery(h));
            expect(ignored).toEqual([]);
            expect(state.instr).toBe(h.form);
            expect(state.target).toBe('sm_120a');
            const result = evaluate(state.instr, state.registers, { target: state.target });
            expect(BigInt(result.d)).toBe(h.mma.d);
          },
        ),
        { numRuns: 8, seed: size * 7 + scheme.length },
      );
    });
});
