import { findCvtForm } from '../catalog/index.ts';
import { cvtRequestOf } from './cvt-operands.ts';
import {
  startEditEvaluation,
  type EditEvaluation,
  type EditEvaluationOptions,
} from './edit-evaluation-loop.ts';

/**
 * Evaluates the current cvt form on its registers after every edit, in the loop the arithmetic
 * uses (edit-evaluation-loop.ts): inline while evaluations fit the same small budget, in the
 * worker once they keep exceeding it.
 */

export type CvtEvaluationOptions = EditEvaluationOptions<'evaluateCvt'>;

export type CvtEvaluation = EditEvaluation;

export function startCvtEvaluation(options: Partial<CvtEvaluationOptions> = {}): CvtEvaluation {
  return startEditEvaluation(
    {
      changed: (s, prev) => s.instr !== prev.instr || s.cvtRegisters !== prev.cvtRegisters,
      prepare: (s) => {
        const form = findCvtForm(s.instr);
        return form ? { request: cvtRequestOf(form, s.cvtRegisters) } : null;
      },
      evaluateInline: (api, request) => api.evaluateCvt(request),
      evaluateInWorker: (client, request) =>
        client.request('evaluate-cvt', (api) => api.evaluateCvt(request)),
      show: (s, update) => s.setCvtEvaluation(update),
    },
    options,
  );
}
