/**
 * The catalog's fragment layouts (src/catalog/matrix-fragments.ts: one set of formulas) against
 * the PTX ISA's, section by section (tests/reference/fragment-layouts-ref.ts): every slot of
 * every thread of every mma form but m8n8k4 .f16 (measured by hw/mma) and of every
 * wgmma.mma_async form (A in registers, D).
 */
import { describe, expect, it } from 'vitest';
import { MATRIX_FORMS } from '../src/catalog/all-forms.ts';
import type { Form } from '../src/catalog/instruction.ts';
import {
  fragmentCoordinate,
  slotBits,
  type FragmentOperand,
} from '../src/catalog/matrix-fragments.ts';
import {
  M16N8K16,
  M16N8K32,
  M16N8K4,
  M16N8K8,
  M8N8K4_F64,
  wgmmaA,
  wgmmaD,
  type RowCol,
} from './reference/fragment-layouts-ref.ts';

type Layout = (lane: number, i: number) => RowCol;

/** The section's layout of an mma operand, by shape and element width. */
function mmaLayout(form: Form, operand: FragmentOperand): Layout {
  const { m, k } = form.matrix!.shape;
  const bits = slotBits(form, operand);
  const key = `${m}.${k}`;
  if (operand === 'c' || operand === 'd') return key === '8.4' ? M8N8K4_F64.c : M16N8K16.c;
  const ab = operand as 'a' | 'b';
  if (key === '8.4') return M8N8K4_F64[ab];
  if (key === '16.4') return M16N8K4[ab];
  if (key === '16.8') return bits === 16 ? M16N8K8[`${ab}16`] : M16N8K8[`${ab}32`];
  if (key === '16.16')
    return bits === 16
      ? M16N8K16[`${ab}16`]
      : bits === 64
        ? M16N8K16[`${ab}64`]
        : M16N8K16[`${ab}8`];
  if (key === '16.32') return M16N8K32[`${ab}8`];
  throw new Error(`no section for ${form.text}`);
}

/** Every slot of every thread: the catalog's coordinate and the section's, side by side. */
function mismatches(form: Form, operand: FragmentOperand, reference: Layout, threads: number) {
  const out: string[] = [];
  const slots = form.matrix!.fragments[operand]!.elements;
  for (let thread = 0; thread < threads; thread++)
    for (let i = 0; i < slots; i++) {
      const got = fragmentCoordinate(form, operand, thread, i);
      const want = reference(thread, i);
      if (out.length === 5) return out; // enough to tell what is wrong
      if (got.product !== 0 || got.row !== want.row || got.col !== want.col)
        out.push(
          `${form.text} ${operand}${i} thread ${thread}: (${got.row}, ${got.col}) not (${want.row}, ${want.col})`,
        );
    }
  return out;
}

describe('fragment layouts: the catalog against the PTX ISA sections', () => {
  it('mma: every form (but m8n8k4 .f16), every operand, lane and slot', () => {
    const forms = MATRIX_FORMS.filter(
      // The block-scaled forms' A and B (m16n8k64's 4-bit layout) are not read by the program
      // writer, which refuses them for their scale operands.
      (f) => f.matrix!.instruction === 'mma' && f.matrix!.threads === 32 && !f.matrix!.blockScale,
    );
    expect(forms.length).toBeGreaterThanOrEqual(100);
    const wrong = forms.flatMap((form) =>
      (['a', 'b', 'c', 'd'] as const).flatMap((o) => mismatches(form, o, mmaLayout(form, o), 32)),
    );
    expect(wrong.slice(0, 5)).toEqual([]);
  });

  it('wgmma: A in registers and D, every thread of the warpgroup and slot', () => {
    const forms = MATRIX_FORMS.filter((f) => f.matrix!.instruction === 'wgmma');
    expect(forms.length).toBeGreaterThanOrEqual(384);
    const wrong = forms.flatMap((form) => {
      const k = form.matrix!.shape.k;
      const bits = slotBits(form, 'a');
      const a: Layout = bits === 32 ? M16N8K8.a32 : bits === 16 ? M16N8K16.a16 : M16N8K32.a8;
      expect(k).toBe(bits === 32 ? 8 : bits === 16 ? 16 : 32);
      return [
        ...mismatches(form, 'a', (t, i) => wgmmaA(t, i, a), 128),
        ...mismatches(form, 'd', wgmmaD, 128),
      ];
    });
    expect(wrong.slice(0, 5)).toEqual([]);
  });
});
