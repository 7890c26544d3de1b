import { findForm } from '../catalog/all-forms.ts';
import type { Form } from '../catalog/instruction.ts';
import { useStore } from './store.ts';

/**
 * The current form as a hook, for the components that read the catalog's description of it
 * (they load the catalog with this module; the store holds the form's canonical text only).
 * Always a catalog form: every edit that sets the instruction checks it (edits.ts, and a link
 * decodes to a catalog form, url-codec.ts).
 */
export function useForm(): Form {
  return findForm(useStore((s) => s.instr))!;
}
