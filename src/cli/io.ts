/**
 * Where CLI commands write their output. Commands take a `CliIO` instead of touching
 * `process.stdout` directly so tests can capture every line they print.
 */
export interface CliIO {
  /** One line of normal output (stdout); the newline is added by the implementation. */
  out(line: string): void;
  /** One line of diagnostics (stderr); the newline is added by the implementation. */
  err(line: string): void;
}

/**
 * Whether the reader of a stream went away (`ptxf eval … | head -1`: EPIPE). Listening for the
 * error is what keeps it from ending the process with a stack trace; what is left unwritten is
 * no longer wanted.
 */
const gone = new WeakMap<NodeJS.WriteStream, boolean>();

function writeLine(stream: NodeJS.WriteStream, line: string): void {
  if (!gone.has(stream)) {
    gone.set(stream, false);
    stream.on('error', () => gone.set(stream, true));
  }
  if (!gone.get(stream)) stream.write(`${line}\n`);
}

/** The real terminal: stdout for results, stderr for errors and usage text. */
export const processIO: CliIO = {
  out(line: string): void {
    writeLine(process.stdout, line);
  },
  err(line: string): void {
    writeLine(process.stderr, line);
  },
};

/** A CliIO that records lines in memory; used by the CLI tests. */
export interface CapturedIO extends CliIO {
  readonly stdout: string[];
  readonly stderr: string[];
}

export function captureIO(): CapturedIO {
  const stdout: string[] = [];
  const stderr: string[] = [];
  return {
    stdout,
    stderr,
    out: (line) => void stdout.push(line),
    err: (line) => void stderr.push(line),
  };
}
