import { useForm, useStore } from '../state/store.ts';
import type { EvalResult } from '../engine/index.ts';
import { BitEditor } from './BitEditor.tsx';
import { ResultArea } from './ResultArea.tsx';
import { approxSource, ResultSummary } from './ResultSummary.tsx';
import { Steps } from './Steps.tsx';

/** The destination register (read-only bit fields) and the trace of how it was computed. */
export function ResultPanel() {
  const form = useForm();
  const result = useStore((s) => s.result);
  const status = useStore((s) => s.evalStatus);
  const error = useStore((s) => s.evalError);
  const d = form.operands[0]!;
  // Show the last result only while it belongs to the current form (a new one is on its way).
  const current = result && result.form === form.text ? result : null;
  return (
    <ResultArea pending={status === 'pending'} error={status === 'error' ? error : null}>
      {current && (
        <>
          {status === 'pending' && (
            // Shown only if the answer takes a while (CSS delay): a worker that is slow or stuck.
            <p className="updating muted" role="status" data-testid="result-updating">
              Computing the result of the latest edit; the one below is for the previous operands.
            </p>
          )}
          <ResultSummary result={current} />
          <BitEditor
            name="d"
            title={`Result d (.${d.format}${d.lanes === 2 ? ' ×2' : ''})${approxTitle(current)}`}
            register={current.d}
            width={d.bits}
            lanes={d.lanes}
            format={d.format}
          />
          <Steps result={current} />
        </>
      )}
    </ResultArea>
  );
}

/**
 * An approximate result is one of the values the spec allows, not the answer; and it is either
 * the value a GPU was measured to give or the model's.
 */
function approxTitle(result: EvalResult): string {
  const source = approxSource(result);
  if (source === null) return '';
  return source === 'model'
    ? ': one allowed value, the model’s'
    : `: one allowed value, measured on the ${source.device}`;
}
