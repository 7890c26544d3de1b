/**
 * The H100 capture (hw/captures/sm_90/h100): the max forms whose pairs row hashes are
 * kept as block digests. One block of each (64 rows × 65,536 operand pairs, every result
 * recomputed) must give the committed digest. min and max are two files so that vitest runs
 * them side by side: the engine's min/max fast path is the slowest part of this check.
 */
import { describe, expect, it } from 'vitest';
import { blockPairForms, oneBlockEach } from './sm90-capture-support.ts';

describe('the H100 capture, sm_90 (committed): max pairs kept as block digests', () => {
  it('one block of each block-digest file agrees with the engine', async () => {
    const forms = blockPairForms().filter((f) => /^max\./.test(f));
    expect(forms).toHaveLength(24);
    const { agreed, sections } = await oneBlockEach(forms);
    expect(sections).toEqual(forms.map((f) => [f, 'blocks', 1, 1, 64]));
    expect(agreed).toBe(true);
  });
});
