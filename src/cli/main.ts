/**
 * `ptxf`: the command-line shell over the catalog and the engine. This file only dispatches;
 * each command lives in its own module and writes through a CliIO so tests can run it in-process.
 */
import type { Writable } from 'node:stream';
import { BATCH_USAGE, runBatch, streamSink, type BatchSink } from './batch.ts';
import { CHECK_USAGE, runCheck } from './check.ts';
import { EVAL_USAGE, runEval } from './eval.ts';
import { FORMS_USAGE, runForms } from './forms.ts';
import { processIO, type CliIO } from './io.ts';
import { QUANTIZE_USAGE, runQuantize } from './quantize.ts';

export const USAGE = [
  'usage: ptxf <command> [arguments]',
  '',
  'commands:',
  '  eval "<instr>" a b [c] [options]   evaluate one instruction and print its trace',
  '  batch                              JSON Lines on stdin → one JSON line per input line on stdout',
  '  check "<instr>" [options]          is the instruction valid for a target / PTX ISA version?',
  '  forms [options]                    list the instruction forms of the catalog',
  '  quantize --scheme <s> v1 v2 …      quantize a block (MXFP8/6/4, NVFP4) step by step in PTX',
  '',
  'ptxf <command> --help prints the options of one command.',
  '',
  ...EVAL_USAGE,
  '',
  ...BATCH_USAGE,
  '',
  ...CHECK_USAGE,
  '',
  ...FORMS_USAGE,
  '',
  ...QUANTIZE_USAGE,
];

/** What a command may touch; tests inject their own. */
export interface CliEnv {
  readonly io: CliIO;
  readonly stdin: AsyncIterable<string | Uint8Array>;
  /** Where `batch` writes (with backpressure); defaults to lines through `io`. */
  readonly batchOut?: BatchSink;
}

function processEnv(): CliEnv {
  return {
    io: processIO,
    stdin: process.stdin,
    batchOut: streamSink(process.stdout as Writable),
  };
}

const isHelp = (arg: string | undefined) => arg === '--help' || arg === '-h' || arg === 'help';

function usageError(io: CliIO, message: string): number {
  io.err(`ptxf: ${message}`);
  for (const line of USAGE) io.err(line);
  return 2;
}

export async function main(argv: string[], env?: CliEnv): Promise<number> {
  const { io, stdin, batchOut } = env ?? processEnv();
  const [command, ...args] = argv;
  if (command === undefined) return usageError(io, 'missing command');
  if (isHelp(command)) {
    for (const line of USAGE) io.out(line);
    return 0;
  }
  switch (command) {
    case 'eval':
      return runEval(args, io);
    case 'batch':
      if (isHelp(args[0])) {
        for (const line of BATCH_USAGE) io.out(line);
        return 0;
      }
      if (args.length > 0)
        return usageError(
          io,
          `batch takes no arguments (found ${args[0]}); it reads JSON Lines on stdin`,
        );
      return runBatch(stdin, batchOut ?? io);
    case 'check':
      return runCheck(args, io);
    case 'forms':
      return runForms(args, io);
    case 'quantize':
      return runQuantize(args, io);
    default:
      return usageError(io, `unknown command '${command}'`);
  }
}
