import { useSyncExternalStore } from 'react';

/**
 * A narrow screen: the width at which the operands and the result stack in one column
 * (styles.css, `.workbench`). There the page puts the result right under the instruction and
 * its operands, and an action whose effect would lie off screen brings it into view.
 */
export const NARROW_QUERY = '(max-width: 900px)';

function narrowQuery(): MediaQueryList | null {
  return typeof window === 'undefined' || !window.matchMedia
    ? null
    : window.matchMedia(NARROW_QUERY);
}

function subscribe(onChange: () => void): () => void {
  const query = narrowQuery();
  query?.addEventListener('change', onChange);
  return () => query?.removeEventListener('change', onChange);
}

/** Whether the screen is narrow now; re-renders when that changes (a phone turned, a window resized). */
export function useNarrow(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => narrowQuery()?.matches ?? false,
    () => false,
  );
}

/**
 * On a narrow screen, scroll the element `selector` names to the top of the view once the
 * current update has been painted: what a tap changed, when it lies screens away from the
 * control tapped. `block: 'nearest'` scrolls only as far as it takes to show it (what a pick
 * changed just below the picker). Instant where the person asked for reduced motion.
 * `readySelector`: what the scroll waits for, a frame at a time for up to about two seconds,
 * where the tap's answer comes with code loaded on first use (compare mode's panel and its
 * comparison): scrolling to a pending frame would leave the answer where later layout puts it.
 * A scroll still waiting when the person acts again is dropped.
 */
export function bringIntoViewOnNarrow(
  selector: string,
  block: ScrollLogicalPosition = 'start',
  readySelector?: string,
): void {
  if (!narrowQuery()?.matches) return;
  // The person's next action (a tap, a key, a scroll of their own) while the scroll waits, or
  // while a smooth scroll is under way, means they have moved on: the page does not pull the view
  // away from what they turned to (a smooth scroll stops where it is).
  let phase: 'waiting' | 'scrolling' | 'over' = 'waiting';
  const MOVES = ['pointerdown', 'keydown', 'wheel', 'touchstart'] as const;
  const stopListening = () => {
    for (const type of MOVES) window.removeEventListener(type, onMove, { capture: true });
  };
  const onMove = () => {
    if (phase === 'scrolling')
      window.scrollTo({ left: window.scrollX, top: window.scrollY, behavior: 'instant' });
    phase = 'over';
    stopListening();
  };
  for (const type of MOVES) window.addEventListener(type, onMove, { capture: true, passive: true });
  let frames = 0;
  const scroll = () => {
    if (phase === 'over') return;
    if (readySelector && !document.querySelector(readySelector) && frames++ < 120) {
      requestAnimationFrame(scroll);
      return;
    }
    const smooth = !window.matchMedia('(prefers-reduced-motion: reduce)').matches;
    document
      .querySelector(selector)
      ?.scrollIntoView({ block, behavior: smooth ? 'smooth' : 'auto' });
    phase = 'scrolling';
    // A smooth scroll is over well within a second.
    setTimeout(() => {
      phase = 'over';
      stopListening();
    }, 1000);
  };
  requestAnimationFrame(scroll);
}
