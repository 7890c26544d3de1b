/**
 * The progress line of hw/compare.ts while it recomputes the rows of a hashed section: rows
 * done, rate and time left, on stderr. On a terminal the line is rewritten in place; otherwise
 * (a log file) a line is written every LOG_INTERVAL_MS. When a section that took a while is
 * done, a last line gives its rows, time and rate.
 */
import type { RowProgress } from './compare-capture.ts';
import { ROW_LENGTH } from './plan.ts';

const LOG_INTERVAL_MS = 10_000;
/** Sections done faster than this get no closing line. */
const QUIET_BELOW_MS = 1_000;

export interface ProgressStream {
  readonly isTTY?: boolean;
  write(text: string): unknown;
}

function duration(ms: number): string {
  const s = Math.round(ms / 1000);
  return s < 60 ? `${s}s` : `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
}

/** One progress line: what is done, how fast, and how long the rest takes at that rate. */
export function progressLine(p: RowProgress, elapsedMs: number): string {
  const rate = elapsedMs > 0 ? (p.done * 1000) / elapsedMs : 0;
  const percent = ((100 * p.done) / Math.max(1, p.total)).toFixed(1);
  const results = ((rate * ROW_LENGTH) / 1e6).toFixed(1);
  const eta = rate > 0 ? duration(((p.total - p.done) / rate) * 1000) : '?';
  return `${p.form} ${p.section}: ${p.done}/${p.total} rows (${percent}%), ${rate.toFixed(0)} rows/s (${results} M results/s), ETA ${eta}`;
}

/** The closing line of a section: rows, wall time and rate. */
export function doneLine(p: RowProgress, elapsedMs: number): string {
  const rate = (p.done * 1000) / Math.max(1, elapsedMs);
  return `${p.form} ${p.section}: ${p.done} rows (${p.done * ROW_LENGTH} results) in ${(elapsedMs / 1000).toFixed(1)} s, ${rate.toFixed(0)} rows/s (${((rate * ROW_LENGTH) / 1e6).toFixed(1)} M results/s)`;
}

/** A RowProgress callback that draws the progress of each section on `stream`. */
export function progressPrinter(
  stream: ProgressStream,
  now: () => number = () => performance.now(),
): (p: RowProgress) => void {
  let key = '';
  let start = 0;
  let lastLog = 0;
  let closed = false;
  return (p) => {
    const t = now();
    const k = `${p.form} ${p.section}`;
    if (k !== key) {
      key = k;
      start = t;
      lastLog = t;
      closed = false;
    }
    if (closed) return;
    const elapsed = t - start;
    const finished = p.done >= p.total;
    if (stream.isTTY) {
      stream.write(`\r\x1b[K${progressLine(p, elapsed)}`);
      if (finished) stream.write('\r\x1b[K');
    } else if (!finished && t - lastLog >= LOG_INTERVAL_MS) {
      lastLog = t;
      stream.write(`${progressLine(p, elapsed)}\n`);
    }
    if (!finished) return;
    closed = true;
    if (elapsed >= QUIET_BELOW_MS) stream.write(`${doneLine(p, elapsed)}\n`);
  };
}
