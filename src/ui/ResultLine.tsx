import { useEffect, useRef, type RefObject } from 'react';
import type { BitsView } from '../engine/format.ts';
import type { EvalResult } from '../engine/steps.ts';
import { resultOfElement } from '../engine/what-if/reference-values.ts';
import { approxSteps } from '../present/approx-text.ts';
import { differenceText } from '../present/compare-text.ts';
import { valueText } from '../present/values.ts';
import { useResult, useStore } from '../state/store.ts';
import { useForm } from '../state/form.ts';
import { approxSource } from './ResultSummary.tsx';
import './compare.css';

/**
 * The result in one compact line that stays in view beside the operand editors (sticky at the
 * bottom of the viewport while they are on screen; on a narrow screen from the first screen on,
 * under the instruction, styles.css), so an edit shows its effect wherever the editor is: A's
 * register and value, and in compare mode B's and how far apart they are.
 */
export function ResultLine() {
  const ref = useRef<HTMLDivElement>(null);
  useKeepFocusClear(ref);
  const form = useForm();
  const current = useResult();
  const comparison = useStore((s) => s.comparison);
  const c = comparison && comparison.a.form.text === form.text ? comparison : null;
  const b = c ? c.b : null;
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
          <Value d={current.d} elements={current.elements.map(resultOfElement)} id="a" />
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
              <Value
                d={b.kind === 'form' ? b.result.d : b.sequence.d}
                elements={
                  b.kind === 'form' ? b.result.elements.map(resultOfElement) : b.sequence.elements
                }
                id="b"
              />{' '}
              <span className="line-diff" data-testid="result-line-diff">
                {c!.same ? '(same bits)' : `(${c!.elements.map(differenceText).join('; ')})`}
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

function Value({ d, elements, id }: { d: string; elements: readonly BitsView[]; id: 'a' | 'b' }) {
  return (
    <>
      <output className="mono" data-testid={`result-line-${id}`}>
        {d}
      </output>{' '}
      = {elements.map(valueText).join(', ')}
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
