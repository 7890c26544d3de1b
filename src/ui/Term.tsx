import { useCallback, useId, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { glossaryEntry, type TermId } from './glossary.ts';

/** Hover this long before the explanation opens, so sweeping the pointer across opens none. */
const HOVER_OPEN_MS = 250;

/**
 * A glossary word where it is used: a button that opens a short explanation with a link to its
 * spec paragraph — on hover, on focus and on tap (a `title` never shows on a touch screen).
 * The explanation is a popover, in the top layer, so no panel clips it.
 */
export function Term({
  id,
  children,
  icon = false,
}: {
  id: TermId;
  children?: ReactNode;
  /** A small "?" beside the word (where the word itself is another control's label). */
  icon?: boolean;
}) {
  const entry = glossaryEntry(id);
  const [open, setOpen] = useState(false);
  // Opened by a tap or a click, it stays open until the next tap, Escape or a tap elsewhere.
  const pinned = useRef(false);
  const hoverTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const word = useRef<HTMLButtonElement>(null);
  const pop = useRef<HTMLSpanElement>(null);
  const popId = useId();

  const cancelHover = () => {
    if (hoverTimer.current !== null) clearTimeout(hoverTimer.current);
    hoverTimer.current = null;
  };
  const close = useCallback(() => {
    if (hoverTimer.current !== null) clearTimeout(hoverTimer.current);
    hoverTimer.current = null;
    pinned.current = false;
    setOpen(false);
  }, []);

  useLayoutEffect(() => {
    const el = pop.current;
    const anchor = word.current;
    if (!el || !anchor) return;
    if (!open) {
      if (el.matches(':popover-open')) el.hidePopover();
      return;
    }
    if (!el.matches(':popover-open')) el.showPopover();
    // Below the word, kept inside the viewport (fixed position: the top layer ignores scrolling
    // containers, so the popover closes when the page scrolls).
    const r = anchor.getBoundingClientRect();
    const width = Math.min(320, window.innerWidth - 16);
    el.style.width = `${width}px`;
    el.style.left = `${Math.max(8, Math.min(r.left, window.innerWidth - width - 8))}px`;
    const below = r.bottom;
    const height = el.offsetHeight;
    el.style.top = `${below + height > window.innerHeight && r.top > height + 8 ? r.top - height - 4 : below}px`;
    const onScroll = () => close();
    const onDown = (e: PointerEvent) => {
      const t = e.target as Node;
      if (!el.contains(t) && !anchor.contains(t)) close();
    };
    window.addEventListener('scroll', onScroll, { passive: true, capture: true });
    window.addEventListener('pointerdown', onDown);
    return () => {
      window.removeEventListener('scroll', onScroll, { capture: true });
      window.removeEventListener('pointerdown', onDown);
    };
  }, [open, close]);

  return (
    <span
      className="term"
      onMouseEnter={() => {
        cancelHover();
        hoverTimer.current = setTimeout(() => setOpen(true), HOVER_OPEN_MS);
      }}
      onMouseLeave={() => {
        cancelHover();
        if (!pinned.current && !pop.current?.matches(':focus-within')) setOpen(false);
      }}
      onKeyDown={(e) => {
        if (e.key === 'Escape' && open) {
          e.stopPropagation();
          close();
          word.current?.focus();
        }
      }}
    >
      <button
        ref={word}
        type="button"
        className={icon ? 'term-word term-icon' : 'term-word'}
        aria-label={icon ? `What is ${entry.term}?` : undefined}
        aria-expanded={open}
        aria-controls={popId}
        data-testid={`term-${id}`}
        onClick={() => {
          cancelHover();
          pinned.current = !open || !pinned.current;
          setOpen(pinned.current);
        }}
        onFocus={(e) => {
          // Keyboard focus opens it; a tap's focus is followed by its click, which decides.
          if (e.currentTarget.matches(':focus-visible')) setOpen(true);
        }}
        onBlur={(e) => {
          const next = e.relatedTarget as Node | null;
          if (!pinned.current && !(next && pop.current?.contains(next))) setOpen(false);
        }}
      >
        {icon ? '?' : (children ?? entry.term)}
      </button>
      <span
        ref={pop}
        id={popId}
        className="term-pop"
        popover="manual"
        role="note"
        data-testid={`term-pop-${id}`}
        onBlur={(e) => {
          const next = e.relatedTarget as Node | null;
          if (!pinned.current && !(next && (pop.current?.contains(next) || word.current === next)))
            setOpen(false);
        }}
      >
        {/* Only while open: closed, it is not part of the page's text. */}
        {open && (
          <>
            <strong>{entry.term}</strong>: {entry.text}{' '}
            <a href={entry.spec.href} target="_blank" rel="noreferrer">
              PTX ISA §{entry.spec.section}
            </a>
          </>
        )}
      </span>
    </span>
  );
}
