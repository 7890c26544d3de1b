/**
 * Writes the engine's expectations as a capture directory, in the format hw/capture.cu writes
 * (hw/README.md), e.g. to diff two captures file by file or to try hw/compare.ts.
 *
 *   node bin/run-ts.mjs hw/export.ts <out-dir> [--forms REGEX] [--rows FIRST:COUNT]
 *                                    [--sample-rows N] [--seed S]
 *
 * --rows limits the pairs sections and the hashed cvt sections (all 65,536 rows are 2^32 engine
 * evaluations per form). The forms are the arithmetic's and the cvt forms of the capture plan.
 */
import { fileURLToPath } from 'node:url';
import { cvtCapturedForms } from './lib/cvt-plan.ts';
import { writeExpectedCapture, type ExpectedCaptureOptions } from './lib/expected.ts';
import { capturedForms, MAX_SAMPLE_ROWS, ROW_LENGTH } from './lib/plan.ts';

const USAGE =
  'usage: node bin/run-ts.mjs hw/export.ts <out-dir> [--forms REGEX] [--rows FIRST:COUNT] [--sample-rows N] [--seed S]';

export function parseExportArgs(
  argv: readonly string[],
): { dir: string; options: ExpectedCaptureOptions } | string {
  let dir: string | undefined;
  let pattern = /./;
  let options: Omit<ExpectedCaptureOptions, 'forms'> = {};
  const int = (text: string | undefined): number | null => {
    const n = Number(text);
    return text !== undefined && Number.isInteger(n) && n >= 0 && n <= 0xffffffff ? n : null;
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const value = argv[i + 1];
    if (arg === '--forms') {
      try {
        pattern = new RegExp(value ?? '');
      } catch (e) {
        return `--forms: ${(e as Error).message}`;
      }
    } else if (arg === '--rows') {
      const [first, count] = (value ?? '').split(':').map(int);
      if (first == null || count == null || count < 1 || first + count > ROW_LENGTH)
        return `--rows takes FIRST:COUNT within 0..${ROW_LENGTH}`;
      options = { ...options, pairRows: { first, count } };
    } else if (arg === '--sample-rows') {
      const n = int(value);
      if (n == null || n < 1 || n > MAX_SAMPLE_ROWS)
        return `--sample-rows takes 1..${MAX_SAMPLE_ROWS}`;
      options = { ...options, sampleRows: n };
    } else if (arg === '--seed') {
      const n = int(value);
      if (n == null) return '--seed takes a 32-bit unsigned integer';
      options = { ...options, seed: n };
    } else if (!arg.startsWith('--') && dir === undefined) {
      dir = arg;
      continue;
    } else {
      return `unexpected argument ${arg}`;
    }
    i++;
  }
  if (dir === undefined) return 'missing <out-dir>';
  const forms = [...capturedForms(), ...cvtCapturedForms()]
    .map((s) => s.form.text)
    .filter((t) => pattern.test(t));
  if (forms.length === 0) return `no form matches ${pattern.source}`;
  return { dir, options: { ...options, forms } };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const parsed = parseExportArgs(process.argv.slice(2));
  if (typeof parsed === 'string') {
    console.error(`export: ${parsed}\n${USAGE}`);
    process.exitCode = 2;
  } else {
    const summary = writeExpectedCapture(parsed.dir, parsed.options);
    console.log(`wrote ${summary.forms.length} forms to ${parsed.dir}`);
  }
}
