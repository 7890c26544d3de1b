import type { Page } from '@playwright/test';

/**
 * How the page fits a narrow screen: its scroll and client widths, and up to five elements that
 * reach past the right edge. Panels use paint containment, which clips instead of widening the
 * page: so this looks for any element reaching past the viewport that is not inside a scrolling
 * container.
 */
export function overflowPastRightEdge(
  page: Page,
): Promise<{ scroll: number; client: number; wide: string[] }> {
  return page.evaluate(() => {
    const doc = document.documentElement;
    const scrolls = (el: Element) => {
      for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
        if (['auto', 'scroll'].includes(getComputedStyle(p).overflowX)) return true;
      }
      return false;
    };
    const wide = [...document.querySelectorAll<HTMLElement>('body *')]
      .filter((el) => el.getBoundingClientRect().right > doc.clientWidth + 1 && !scrolls(el))
      .slice(0, 5)
      .map((el) => `${el.tagName}.${el.className} "${el.textContent?.slice(0, 30)}"`);
    return { scroll: doc.scrollWidth, client: doc.clientWidth, wide };
  });
}

/** Up to eight visible controls smaller than 24 × 24 px (WCAG 2.5.8), with their sizes. */
export function controlsUnder24px(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll('button, input, select, a[href], [tabindex="0"]')]
      .map((el) => ({ el, r: el.getBoundingClientRect() }))
      .filter(({ r }) => r.width > 0 && (r.width < 24 || r.height < 24))
      .slice(0, 8)
      .map(
        ({ el, r }) =>
          `${el.tagName} "${el.getAttribute('aria-label') ?? el.textContent?.slice(0, 30)}" ${r.width.toFixed(1)} × ${r.height.toFixed(1)}`,
      ),
  );
}
