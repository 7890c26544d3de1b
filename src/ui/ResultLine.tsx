import { useEffect, useRef, type RefObject } from 'react';
import type { FormatName } from '../catalog/index.ts';
import type { EvalResult } from '../engine/index.ts';
import { approxSteps, differenceText, lanesOf, valueText } from '../engine/what-if/describe.ts';
import { useForm, useStore } from '../state/store.ts';
import { formatBits } from '../state/url-codec.ts';
import { approxSource } from './ResultSummary.tsx';
import './compare.css';

/**
 * The result in one compact line that stays in view beside the operand editors (sticky at the
 * bottom of the viewport while they are on screen), so an edit shows its effect wherever the
 * editor is: A's register and value, and in compare mode B's and how far apart they are.
 */
export function ResultLine() {
  const ref = useRef<HTMLDivElement>(null);
  useKeepFocusClear(ref);
  const form = useForm();
  const result = useStore((s) => s.result);
  const comparison = useStore((s) => s.comparison);
  const current = result && result.form === form.text ? result : null;
  const b = comparison && comparison.a.label === form.text ? comparison.b : null;
  return (
    <div
      ref={ref}
      className="result-line"
      data-testid="result-line"
      aria-label="Result, kept in view"
    >
      <p>
        <span className="who">{b ? 'A' : 'd'}</span>{' '}
        {current ? (
          <Value d={current.d} bits={current.dBits} format={current.dFormat} id="a" />
        ) : (
          '…'
        )}
        {current && <ApproxCount result={current} />}
      </p>
      {b && (
        <p>
          <span className="who">B</span>{' '}
          {b.kind === 'refused' ? (
            <span className="muted">none: {form.text} has no such variant</span>
          ) : (
            <>
              <Value d={b.d} bits={b.dBits} format={b.dFormat} id="b" />{' '}
              <span className="line-diff" data-testid="result-line-diff">
                {comparison!.same
                  ? '(same bits)'
                  : `(${comparison!.lanes.map((l) => differenceText(comparison!, l)).join('; ')})`}
              </span>
            </>
          )}
        </p>
      )}
    </div>
  );
}

/**
 * The page keeps the bar's height free at the bottom when it scrolls a focused element into
 * view (`scroll-padding-bottom` on the root, styles.css), so Tab never leaves focus under the
 * bar: the height is measured, since the bar grows to two or three lines in compare mode or on a
 * narrow screen.
 */
function useKeepFocusClear(ref: RefObject<HTMLDivElement | null>): void {
  useEffect(() => {
    const bar = ref.current;
    if (!bar) return;
    const root = document.documentElement;
    const observer = new ResizeObserver(() =>
      root.style.setProperty('--result-line-height', `${bar.offsetHeight}px`),
    );
    observer.observe(bar);
    return () => {
      observer.disconnect();
      root.style.removeProperty('--result-line-height');
    };
  }, [ref]);
}

function Value({
  d,
  bits,
  format,
  id,
}: {
  d: number;
  bits: 16 | 32;
  format: FormatName;
  id: 'a' | 'b';
}) {
  return (
    <>
      <output className="mono" data-testid={`result-line-${id}`}>
        {formatBits(d, bits)}
      </output>{' '}
      ={' '}
      {lanesOf(d, bits, format)
        .map((lane) => valueText(lane, format))
        .join(', ')}
    </>
  );
}

/** An approximate result is one of several the spec allows, measured or the model's: said here too. */
function ApproxCount({ result }: { result: EvalResult }) {
  const counts = approxSteps(result).map((s) => s?.allowed.count ?? 1);
  const most = Math.max(...counts);
  const source = approxSource(result);
  if (most <= 1 || source === null) return null;
  const whose = source === 'model' ? 'the model’s value' : `measured on the ${source.device}`;
  return (
    <span className="muted">
      {' '}
      ({whose}; hardware may return any of {most})
    </span>
  );
}
