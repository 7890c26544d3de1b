import { lazy, Suspense } from 'react';
import { useStore } from '../state/store.ts';
import { useForm } from '../state/form.ts';
import { CompareFrame } from './CompareFrame.tsx';
import { LoadFailed } from './LoadFailed.tsx';

// Loaded with the first comparison: the default page compares nothing.
const ComparePanel = lazy(() => import('./ComparePanel.tsx'));

/**
 * Where compare mode's panel goes: nothing until B is chosen, then the panel, whose frame says
 * "Computing…" while its code is on its way, as it does while the comparison is.
 */
export function ComparePanelSlot() {
  const form = useForm();
  const vs = useStore((s) => s.vs);
  if (vs === null) return null;
  return (
    <LoadFailed what="The comparison">
      <Suspense fallback={<CompareFrame aText={form.text}>{null}</CompareFrame>}>
        <ComparePanel />
      </Suspense>
    </LoadFailed>
  );
}
