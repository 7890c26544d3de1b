/**
 * The committed H100 capture (hw/captures/sm_90/h100) as a test vector: which of its forms
 * each test file compares. Split in four so that vitest runs them side by side.
 */
import { join } from 'node:path';
import { findForm } from '../../src/catalog/all-forms.ts';
import { readSummary } from '../../hw/lib/capture-files.ts';
import { KEEP_WHOLE } from '../../hw/lib/capture-pack.ts';
import {
  DEFAULT_COMPARE_OPTIONS,
  compareCapture,
  type CompareOptions,
} from '../../hw/lib/compare-capture.ts';
import { shapeOf } from '../../hw/lib/plan.ts';

export const SM90_CAPTURE = join(import.meta.dirname, '../../hw/captures/sm_90/h100');
export const SUBCAPTURES = ['fma-rn-2p32', 'fma-rn-x2'];

/**
 * Every full section, a sample of the rows of whole row-hash files (the edge-value rows of a
 * pairs section plus one), one block of each block-digest file; in this thread.
 */
export const SAMPLE: CompareOptions = { ...DEFAULT_COMPARE_OPTIONS, rowSample: 1, jobs: 1 };

/** Binary forms whose pairs row hashes are kept as block digests. */
export function blockPairForms(): string[] {
  return readSummary(SM90_CAPTURE)
    .forms.filter((f) => f.captured && !KEEP_WHOLE.test(f.form))
    .filter((f) => shapeOf(findForm(f.form)!).family === 'binary')
    .map((f) => f.form);
}

/** A RegExp matching exactly these forms (or, with `except`, every other form). */
export function formsRegExp(forms: readonly string[], except = false): RegExp {
  const alternatives = forms.map((f) => f.replace(/\./g, '\\.')).join('|');
  return new RegExp(except ? `^(?!(${alternatives})$)` : `^(${alternatives})$`);
}

/**
 * Compares one block of each block-digest file of these binary forms (64 rows × 65,536
 * operand pairs, every result recomputed): what the two block test files assert.
 */
export async function oneBlockEach(forms: readonly string[]) {
  const report = await compareCapture(SM90_CAPTURE, { ...SAMPLE, forms: formsRegExp(forms) });
  return {
    agreed: report.agreed,
    sections: report.forms.map((f) => {
      const s = f.sections[0]!;
      return [f.form, s.unit, s.checked, s.agree, s.rowsRecomputed];
    }),
  };
}
