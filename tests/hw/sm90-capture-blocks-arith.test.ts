/**
 * The H100 capture (hw/captures/sm_90/h100): the add, sub and mul forms whose pairs row hashes are
 * kept as block digests. One block of each (64 rows × 65,536 operand pairs, every result
 * recomputed) must give the committed digest.
 */
import { describe, expect, it } from 'vitest';
import { blockPairForms, oneBlockEach } from './sm90-capture-support.ts';

describe('the H100 capture, sm_90 (committed): add, sub and mul pairs kept as block digests', () => {
  it('one block of each block-digest file agrees with the engine', async () => {
    const forms = blockPairForms().filter((f) => /^(add|sub|mul)\./.test(f));
    expect(forms).toHaveLength(48);
    const { agreed, sections } = await oneBlockEach(forms);
    expect(sections).toEqual(forms.map((f) => [f, 'blocks', 1, 1, 64]));
    expect(agreed).toBe(true);
  });
});
