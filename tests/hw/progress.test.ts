/** The progress line of hw/compare.ts: rows done, rate, time left; in place on a terminal. */
import { describe, expect, it } from 'vitest';
import { doneLine, progressLine, progressPrinter } from '../../hw/lib/progress.ts';

const p = { form: 'add.rn.f16', section: 'pairs' as const, total: 65536 };

describe('compare progress', () => {
  it('gives rows done, rate and the time left at that rate', () => {
    expect(progressLine({ ...p, done: 16384 }, 20_000)).toBe(
      'add.rn.f16 pairs: 16384/65536 rows (25.0%), 819 rows/s (53.7 M results/s), ETA 1m00s',
    );
    expect(doneLine({ ...p, done: 65536 }, 80_000)).toBe(
      'add.rn.f16 pairs: 65536 rows (4294967296 results) in 80.0 s, 819 rows/s (53.7 M results/s)',
    );
  });

  it('rewrites one line on a terminal and closes a section once', () => {
    let t = 0;
    const out: string[] = [];
    const print = progressPrinter({ isTTY: true, write: (s) => out.push(s) }, () => t);
    print({ ...p, done: 0 });
    t = 5000;
    print({ ...p, done: 32768 });
    t = 10_000;
    print({ ...p, done: 65536 });
    print({ ...p, done: 65536 }); // a late message after the end adds nothing
    expect(out.every((s) => s.startsWith('\r') || s.endsWith('\n'))).toBe(true);
    expect(out.filter((s) => s.includes('in 10.0 s'))).toHaveLength(1);
  });

  it('writes a line every 10 s to a log, and no closing line for a quick section', () => {
    let t = 0;
    const out: string[] = [];
    const print = progressPrinter({ isTTY: false, write: (s) => out.push(s) }, () => t);
    print({ ...p, done: 1 });
    t = 4000;
    print({ ...p, done: 2 });
    t = 10_500;
    print({ ...p, done: 3 });
    expect(out).toHaveLength(1);
    const quick = { ...p, section: 'sample' as const, total: 2 };
    print({ ...quick, done: 1 });
    t += 100;
    print({ ...quick, done: 2 });
    expect(out).toHaveLength(1);
  });
});
