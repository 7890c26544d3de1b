import { findCvtForm, findForm, type AnyForm, type CvtForm } from '../catalog/index.ts';
import { useStore } from './store.ts';

/** The current form, arithmetic or cvt (every setter keeps `instr` a catalog form). */
export function useAnyForm(): AnyForm {
  const instr = useStore((s) => s.instr);
  return findCvtForm(instr) ?? findForm(instr)!;
}

/** The current cvt form, or null when the current form is the arithmetic's. */
export function useCvtForm(): CvtForm | null {
  return findCvtForm(useStore((s) => s.instr)) ?? null;
}
