import { describe, expect, it } from 'vitest';
import { findForm } from '../catalog/all-forms.ts';
import type { SourceName } from '../catalog/instruction.ts';
import { startRegisters } from './registers.ts';
import { decodeUrl } from './url-codec.ts';
import { DEFAULT_STATE } from './url-state.ts';

/**
 * The store starts from DEFAULT_STATE without the catalog, so its bits are written out; here
 * they are checked against the catalog, and a page without a query string is shown to be that
 * state (url-sync.ts reads no link there).
 */
describe('DEFAULT_STATE', () => {
  it("is a catalog form's canonical text with that form's start values", () => {
    const form = findForm(DEFAULT_STATE.instr);
    expect(form?.text).toBe(DEFAULT_STATE.instr);
    const start = startRegisters(form!);
    expect(DEFAULT_STATE.registers).toEqual(
      Object.fromEntries(
        form!.registers.slice(1).map((r) => [r.name, start[r.name as SourceName]]),
      ),
    );
  });

  it('is what an empty query decodes to, with nothing ignored or stored', () => {
    expect(decodeUrl('')).toEqual({ state: DEFAULT_STATE, ignored: [], stored: [] });
    expect(decodeUrl('?')).toEqual({ state: DEFAULT_STATE, ignored: [], stored: [] });
  });
});
