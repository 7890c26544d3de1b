import { lazy, memo, Suspense, useEffect, type ComponentType, type ReactNode } from 'react';
import { LoadFailed } from './LoadFailed.tsx';
import { partCommitted, type LivePart } from './page-live.ts';

/** Reports its slot to page-live.ts once the slot's content is on the page. */
function Committed({ part }: { part: LivePart }) {
  useEffect(() => partCommitted(part), [part]);
  return null;
}

/**
 * A part of the page whose code comes in a chunk of its own, fetched right after the page's entry
 * (`load`): the view `pick` names from that chunk, in a Suspense boundary showing `fallback` until
 * the chunk has come, and `what` in a message if it cannot be fetched. Where the browser hydrates
 * the prerendered page, the served HTML of the slot stays in place until its code is there; React
 * then hydrates the slot on its own. The slot is memoized without props, so a render of the page
 * around it does not reach a slot still waiting for its code (which would replace the served HTML
 * by the fallback).
 */
export function hydratedSlot<Views>(
  load: () => Promise<Views>,
  part: LivePart,
  what: string,
  pick: (views: Views) => ComponentType,
  fallback: ReactNode,
) {
  const View = lazy(() => load().then((views) => ({ default: pick(views) })));
  return memo(function HydratedSlot() {
    return (
      <LoadFailed what={what}>
        <Suspense fallback={fallback}>
          <View />
          <Committed part={part} />
        </Suspense>
      </LoadFailed>
    );
  });
}
