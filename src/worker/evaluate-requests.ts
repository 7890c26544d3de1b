import type { SourceName } from '../catalog/instruction.ts';
import { evaluate } from '../engine/pipeline.ts';
import type { EngineApi, EvaluateAnswer, EvaluateRequest, HexRegisters } from './api.ts';

/**
 * The evaluation of the worker contract, errors as data: what the page runs inline, on the main
 * thread, for each edit (state/evaluate-on-edit.ts), and the worker runs when evaluations move
 * there (engine-api.ts). Kept apart from the rest of the contract (tables, sweeps) so that the
 * page's first load carries only the engine an evaluation needs.
 */

/** Registers written as `0x…` hex, as BigInts; a text that is no hex is an error. */
export function registersOfHex(hex: HexRegisters): Partial<Record<SourceName, bigint>> {
  const out: Partial<Record<SourceName, bigint>> = {};
  for (const [name, text] of Object.entries(hex)) {
    if (!/^0x[0-9a-f]+$/i.test(text ?? ''))
      throw new Error(`operand ${name}: '${text}' is not 0x… hex`);
    out[name as SourceName] = BigInt(text!);
  }
  return out;
}

export function evaluateRequest(req: EvaluateRequest): EvaluateAnswer {
  try {
    const options =
      req.approxTables || req.target
        ? {
            ...(req.approxTables ? { approxTables: req.approxTables } : {}),
            ...(req.target ? { target: req.target } : {}),
          }
        : undefined;
    return { ok: true, result: evaluate(req.form, registersOfHex(req.registers), options) };
  } catch (err) {
    return { ok: false, error: err instanceof Error ? err.message : String(err) };
  }
}

/** The evaluation alone, as the page runs it inline. */
export function createInlineEngine(): Pick<EngineApi, 'evaluate'> {
  return { evaluate: evaluateRequest };
}
