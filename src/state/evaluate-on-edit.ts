import { findForm } from '../catalog/index.ts';
import type { EvaluateRequest } from '../worker/api.ts';
import {
  startEditEvaluation,
  type EditEvaluation,
  type EditEvaluationOptions,
  type Prepared,
} from './edit-evaluation-loop.ts';
import { loadMeasured, measuredOptionsNow } from './measured-tables.ts';
import type { PlaygroundState } from './store.ts';

/**
 * Evaluates the current instruction on the current operands after every edit, in the loop of
 * edit-evaluation-loop.ts: inline while evaluations fit a small budget, in the worker once they
 * keep exceeding it.
 */

function requestFor(s: PlaygroundState): EvaluateRequest | null {
  const form = findForm(s.instr);
  if (!form) return null;
  const has = (k: 'b' | 'c') => form.operands.some((o) => o.name === k);
  return {
    form: form.text,
    a: s.operands.a,
    ...(has('b') ? { b: s.operands.b } : {}),
    ...(has('c') ? { c: s.operands.c } : {}),
  };
}

export type EvaluationOptions = EditEvaluationOptions<'evaluate'>;

export type Evaluation = EditEvaluation;

/**
 * Re-evaluate whenever the instruction, operands or target change (the target decides whether
 * measured tables apply); the newest request wins.
 */
export function startEvaluation(options: Partial<EvaluationOptions> = {}): Evaluation {
  return startEditEvaluation(
    {
      changed: (s, prev) =>
        s.instr !== prev.instr || s.operands !== prev.operands || s.target !== prev.target,
      prepare: (state): Prepared<EvaluateRequest> => {
        const base = requestFor(state);
        if (!base) return null;
        // On a measured target an approximate form waits for the GPU's tables (fetched once).
        const measured = measuredOptionsNow(state.target, findForm(base.form)!);
        if (measured === 'loading') return { waitFor: loadMeasured(state.target) };
        return { request: measured ? { ...base, ...measured } : base };
      },
      evaluateInline: (api, request) => api.evaluate(request),
      evaluateInWorker: (client, request) =>
        client.request('evaluate', (api) => api.evaluate(request)),
      show: (state, update) => state.setEvaluation(update),
    },
    options,
  );
}
