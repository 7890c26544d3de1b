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

/** The real terminal: stdout for results, stderr for errors and usage text. */
export const processIO: CliIO = {
  out(line: string): void {
    process.stdout.write(`${line}\n`);
  },
  err(line: string): void {
    process.stderr.write(`${line}\n`);
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
