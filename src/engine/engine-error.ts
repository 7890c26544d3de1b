/** The engine's one error for bad input, with a code a caller can act on. */
export class EngineError extends Error {
  constructor(
    /**
     * `target`: a matrix form on a target no tensor-core model covers (EngineOptions.target);
     * `family`: the semantics of the form's family are not loaded (family-semantics.ts).
     */
    readonly code: 'form' | 'operand' | 'target' | 'family',
    message: string,
  ) {
    super(message);
  }
}
