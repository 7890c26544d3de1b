/**
 * `ptxf`: the command-line shell over the catalog and the engine. This file only dispatches;
 * each command lives in its own module and writes through a CliIO so tests can run it in-process.
 * A command's module is imported when the command runs, so a start evaluates only what that
 * command needs (eval does not build the batch's fast path, nor check the block-scale engine).
 */
// Every family's semantics, provided before anything evaluates (engine/family-semantics.ts).
import '../engine/all-families.ts';
import type { Writable } from 'node:stream';
import type { BatchSink } from './batch.ts';
import { processIO, type CliIO } from './io.ts';

/** The overview: each command in one line; `ptxf <command> --help` gives its options. */
export const USAGE = [
  'usage: ptxf <command> [arguments]',
  '',
  'commands:',
  '  eval "<instr>" a b [c]   evaluate one instruction: its result, one-sentence summary and trace',
  '  batch                    JSON Lines on stdin → one JSON line per input line on stdout',
  '  check "<instr>"          is the instruction valid for a target / PTX ISA version?',
  '  forms                    list the instruction forms of the catalog',
  '  quantize v1 v2 …         quantize a block (MXFP8/6/4, NVFP4) step by step in PTX',
  '',
  'eval and batch run on sm_90 with PTX ISA 8.6 unless told otherwise (--target, --ptx), as the',
  'playground does; check and forms default to the newest. Operands: 0x…/0b… bits, or a value.',
  '',
  'ptxf <command> --help prints the options of one command; docs/cli.md says more.',
];

/** What a command may touch; tests inject their own. */
export interface CliEnv {
  readonly io: CliIO;
  readonly stdin: AsyncIterable<string | Uint8Array>;
  /** Where `batch` writes (with backpressure); defaults to lines through `io`. */
  readonly batchOut?: BatchSink;
}

/** The process's own streams; `batch` writes to stdout through a sink with backpressure. */
function processEnv(): CliEnv {
  return { io: processIO, stdin: process.stdin };
}

const isHelp = (arg: string | undefined) => arg === '--help' || arg === '-h' || arg === 'help';

function usageError(io: CliIO, message: string): number {
  io.err(`ptxf: ${message}`);
  for (const line of USAGE) io.err(line);
  return 2;
}

/**
 * An exception that escaped a command (each answers its errors itself; the fuzz suite finds
 * none that escapes) still ends as a structured error, never as a stack trace.
 */
function internalError(io: CliIO, command: string, args: readonly string[], e: unknown): number {
  const message = `unexpected failure: ${(e as Error)?.message ?? String(e)}`;
  if (args.includes('--json'))
    io.out(JSON.stringify({ ok: false, error: { code: 'internal', message } }));
  else io.err(`ptxf ${command}: error (internal): ${message}`);
  return 1;
}

export async function main(argv: string[], env?: CliEnv): Promise<number> {
  const { io, stdin, batchOut } = env ?? processEnv();
  const [command, ...args] = argv;
  if (command === undefined) return usageError(io, 'missing command');
  if (isHelp(command)) {
    for (const line of USAGE) io.out(line);
    return 0;
  }
  try {
    return await run(command, args, io, stdin, env ? batchOut : 'stdout');
  } catch (e) {
    return internalError(io, command, args, e);
  }
}

async function run(
  command: string,
  args: readonly string[],
  io: CliIO,
  stdin: CliEnv['stdin'],
  batchOut: BatchSink | 'stdout' | undefined,
): Promise<number> {
  switch (command) {
    case 'eval':
      return (await import('./eval.ts')).runEval(args, io);
    case 'batch': {
      const batch = await import('./batch.ts');
      if (isHelp(args[0])) {
        for (const line of batch.BATCH_USAGE) io.out(line);
        return 0;
      }
      if (args.length > 0)
        return usageError(
          io,
          `batch takes no arguments (found ${args[0]}); it reads JSON Lines on stdin`,
        );
      const sink = batchOut === 'stdout' ? batch.streamSink(process.stdout as Writable) : batchOut;
      return batch.runBatch(stdin, sink ?? io);
    }
    case 'check':
      return (await import('./check.ts')).runCheck(args, io);
    case 'forms':
      return (await import('./forms.ts')).runForms(args, io);
    case 'quantize':
      return (await import('./quantize.ts')).runQuantize(args, io);
    default:
      return usageError(io, `unknown command '${command}'`);
  }
}
