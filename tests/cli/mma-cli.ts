/**
 * `ptxf` in process for the mma CLI tests (tests/cli/mma.test.ts and
 * tests/cli/block-scaled-mma.test.ts): an eval's status and lines, a batch's answers, and the
 * check every refused `eval --json` shares.
 */
import { Readable } from 'node:stream';
import { expect } from 'vitest';
import { captureIO } from '../../src/cli/io.ts';
import { main } from '../../src/cli/main.ts';

/** `ptxf …argv` with no input: the exit status and the lines written to stdout and stderr. */
export async function run(...argv: string[]) {
  const io = captureIO();
  const status = await main(argv, { io, stdin: Readable.from([]) });
  return { status, out: io.stdout, err: io.stderr };
}

/** `ptxf batch` on these lines (one JSON object each): the status and each answer parsed. */
export async function batch(...lines: object[]) {
  const io = captureIO();
  const input = Readable.from([lines.map((l) => JSON.stringify(l)).join('\n') + '\n']);
  const status = await main(['batch'], { io, stdin: input });
  return { status, answers: io.stdout.map((l) => JSON.parse(l) as Record<string, unknown>) };
}

/**
 * `ptxf eval …argv --json` is refused with a structured error: status 1, `ok: false`, the error's
 * code, and a message that contains `message`.
 */
export async function expectEvalRefused(argv: readonly string[], code: string, message: string) {
  const r = await run('eval', ...argv, '--json');
  expect(r.status).toBe(1);
  const answer = JSON.parse(r.out[0]!) as {
    ok: boolean;
    error: { code: string; message: string };
  };
  expect(answer.ok).toBe(false);
  expect(answer.error.code).toBe(code);
  expect(answer.error.message).toContain(message);
}
