import type { CvtSourceName } from '../catalog/index.ts';
import { evaluate } from '../engine/evaluate.ts';
import { evaluateCvt, type CvtInput } from '../engine/ops/cvt.ts';
import type {
  CvtEvaluateAnswer,
  CvtEvaluateRequest,
  EngineApi,
  EvaluateAnswer,
  EvaluateRequest,
} from './api.ts';

/**
 * The two evaluations of the worker contract, errors as data: what the page runs inline, on the
 * main thread, for each edit (state/edit-evaluation-loop.ts), and the worker runs when
 * evaluations move there (engine-api.ts). Kept apart from the rest of the contract (tables,
 * sweeps) so that the page's first load carries only the engine these need.
 */

export function evaluateRequest(req: EvaluateRequest): EvaluateAnswer {
  try {
    const input = { a: req.a, b: req.b, c: req.c, oob: req.oob };
    const options = req.approxTables ? { approxTables: req.approxTables } : undefined;
    return { ok: true, result: evaluate(req.form, input, options) };
  } catch (err) {
    return { ok: false, error: err instanceof Error ? err.message : String(err) };
  }
}

export function evaluateCvtRequest(req: CvtEvaluateRequest): CvtEvaluateAnswer {
  try {
    const input: Partial<Record<CvtSourceName, bigint>> = {};
    for (const [name, hex] of Object.entries(req.registers)) {
      if (!/^0x[0-9a-f]+$/i.test(hex ?? ''))
        throw new Error(`operand ${name}: '${hex}' is not 0x… hex`);
      input[name as CvtSourceName] = BigInt(hex!);
    }
    return { ok: true, result: evaluateCvt(req.form, input as CvtInput) };
  } catch (err) {
    return { ok: false, error: err instanceof Error ? err.message : String(err) };
  }
}

/** The evaluations alone, as the page runs them inline. */
export function createInlineEngine(): Pick<EngineApi, 'evaluate' | 'evaluateCvt'> {
  return { evaluate: evaluateRequest, evaluateCvt: evaluateCvtRequest };
}
