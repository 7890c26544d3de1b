import { describe, expect, it, vi } from 'vitest';
import { generateForms } from './generate.ts';
import { RECORDS } from './records/index.ts';

// Each test imports the catalog afresh: what one test generated must not hide what another asks.
async function freshCatalog() {
  vi.resetModules();
  const generate = await import('./generate.ts');
  const spy = vi.spyOn(generate, 'generateForms');
  const catalog = await import('./all-forms.ts');
  return { catalog, generatedOpcodes: () => spy.mock.calls.map(([records]) => records[0]!.opcode) };
}

describe('all-forms: every opcode generated on first use', () => {
  it('finding an arithmetic form generates its opcode alone, not the conversions or tensor cores', async () => {
    const { catalog, generatedOpcodes } = await freshCatalog();
    expect(generatedOpcodes()).toEqual([]);
    expect(catalog.findForm('add.rn.f16')?.text).toBe('add.rn.f16');
    expect(generatedOpcodes()).toEqual(['add']);
    expect(catalog.findForm('cvt.rn.satfinite.e4m3x2.f32')?.family).toBe('convert');
    expect(catalog.findForm('wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16')?.opcode).toBe(
      'wgmma.mma_async',
    );
    expect(generatedOpcodes()).toEqual(['add', 'cvt', 'wgmma.mma_async']);
    expect(catalog.findForm('frobnicate.f16')).toBeUndefined();
  });

  it('lists every form in the order one generation over every record gives', async () => {
    const { catalog } = await freshCatalog();
    const once = generateForms(RECORDS).map((g) => g.form.text);
    expect(catalog.ALL_FORMS.map((f) => f.text)).toEqual(once);
    expect(catalog.FORMS.every((f) => f.family !== 'matrix')).toBe(true);
    expect(catalog.MATRIX_FORMS.every((f) => f.family === 'matrix')).toBe(true);
    expect(catalog.FORMS.length + catalog.MATRIX_FORMS.length).toBe(once.length);
  });
});
