/**
 * One answer of `ptxf batch`: a line of JSON text and whether it reports success. Every kind of
 * line (an evaluation, its quick answer, a block to quantize) answers an error the same way:
 * `{"id": …, "ok": false, "error": {"code", "message": "line N: …"}}`.
 */

/** One output line (JSON text, no newline) and whether it reports success. */
export interface BatchAnswer {
  readonly ok: boolean;
  readonly json: string;
}

export function errorLine(id: unknown, code: string, lineNo: number, message: string): BatchAnswer {
  const error = JSON.stringify({ code, message: `line ${lineNo}: ${message}` });
  return { ok: false, json: `{"id":${JSON.stringify(id ?? null)},"ok":false,"error":${error}}` };
}

/** What a field holds, as an error message names it: "null", "an array", "a number". */
export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}
