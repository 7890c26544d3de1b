import type { EvalResult } from '../engine/steps.ts';
import { useMeasuredCvtLine } from '../state/measured-cvt.ts';
import { useResult, useStore } from '../state/store.ts';
import { useForm } from '../state/form.ts';
import { RegisterEditor } from './RegisterEditor.tsx';
import { ResultArea } from './ResultArea.tsx';
import { approxSource, ResultSummary } from './ResultSummary.tsx';
import { Steps } from './Steps.tsx';

/** The destination register (read-only bit fields) and the trace of how it was computed. */
export function ResultPanel() {
  const form = useForm();
  const current = useResult();
  const status = useStore((s) => s.evalStatus);
  const error = useStore((s) => s.evalError);
  const target = useStore((s) => s.target);
  const measured = useMeasuredCvtLine(target, form.text, form.family === 'convert');
  const d = form.registers[0]!;
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
          {measured && (
            <p className="muted measured-cvt" data-testid="measured-cvt">
              {measured[0]!.toUpperCase() + measured.slice(1)}.
            </p>
          )}
          <RegisterEditor
            form={form}
            name="d"
            title={`Result d (.${d.type}, ${d.bits} bits)${approxTitle(current)}`}
            register={BigInt(current.d)}
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
