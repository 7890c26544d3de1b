/**
 * Compares a GPU capture directory with the engine (see hw/README.md).
 *
 *   node bin/run-ts.mjs hw/compare.ts <capture-dir> [--forms REGEX] [--rows all|N] [--first K]
 *                                     [--jobs N] [--ftz-tininess after-rounding|before-rounding]
 *
 * Hashed sections show their progress on stderr (rows done, rate, ETA). Approximate forms are
 * reported apart (equal to the model, within the spec's bound, outside it).
 *
 * Exit status: 0 every exact form compared agrees, 1 some result, row or block of an exact form
 * differs (or an entry is invalid), 2 bad arguments or unreadable capture. Approximate forms do
 * not change it.
 */
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { readSummary } from './lib/capture-files.ts';
import { progressPrinter } from './lib/progress.ts';
import {
  DEFAULT_COMPARE_OPTIONS,
  compareCapture,
  type CompareOptions,
} from './lib/compare-capture.ts';
import { formatForm, formatHeader, formatTotals } from './lib/compare-report.ts';

const USAGE =
  'usage: node bin/run-ts.mjs hw/compare.ts <capture-dir> [--forms REGEX] [--rows all|N] [--first K] [--jobs N] [--ftz-tininess after-rounding|before-rounding]';

export function parseCompareArgs(
  argv: readonly string[],
): { dir: string; options: CompareOptions } | string {
  let dir: string | undefined;
  let options: CompareOptions = {
    ...DEFAULT_COMPARE_OPTIONS,
    jobs: Math.min(availableParallelism(), 16),
  };
  const count = (text: string | undefined, what: string): number | string => {
    const n = Number(text);
    return Number.isInteger(n) && n >= 1
      ? n
      : `${what} needs a positive integer, got ${String(text)}`;
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const value = argv[i + 1];
    switch (arg) {
      case '--forms':
        if (value === undefined) return '--forms needs a regular expression';
        try {
          options = { ...options, forms: new RegExp(value) };
        } catch (e) {
          return `--forms: ${(e as Error).message}`;
        }
        i++;
        break;
      case '--rows': {
        const n = value === 'all' ? 'all' : count(value, '--rows');
        if (typeof n === 'string' && n !== 'all') return n;
        options = { ...options, rowSample: n };
        i++;
        break;
      }
      case '--first':
      case '--jobs': {
        const n = count(value, arg);
        if (typeof n === 'string') return n;
        options = arg === '--first' ? { ...options, firstMismatches: n } : { ...options, jobs: n };
        i++;
        break;
      }
      case '--ftz-tininess':
        if (value !== 'after-rounding' && value !== 'before-rounding')
          return '--ftz-tininess is after-rounding or before-rounding';
        options = { ...options, engineOptions: { ftzTininess: value } };
        i++;
        break;
      default:
        if (arg.startsWith('--') || dir !== undefined) return `unexpected argument ${arg}`;
        dir = arg;
    }
  }
  if (dir === undefined) return 'missing <capture-dir>';
  return { dir, options };
}

async function main(argv: readonly string[]): Promise<number> {
  const parsed = parseCompareArgs(argv);
  if (typeof parsed === 'string') {
    console.error(`compare: ${parsed}\n${USAGE}`);
    return 2;
  }
  try {
    // Print each form as soon as it is compared: a whole capture takes minutes.
    const summary = readSummary(parsed.dir);
    console.log(formatHeader(parsed.dir, summary));
    const options = { ...parsed.options, onProgress: progressPrinter(process.stderr) };
    const report = await compareCapture(parsed.dir, options, (form) =>
      console.log(formatForm(form, parsed.dir, summary).join('\n')),
    );
    console.log(formatTotals(report.forms));
    return report.agreed ? 0 : 1;
  } catch (e) {
    console.error(`compare: ${(e as Error).message}`);
    return 2;
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url))
  process.exitCode = await main(process.argv.slice(2));
