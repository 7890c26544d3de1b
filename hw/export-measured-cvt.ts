/**
 * Writes public/measured/cvt.json from a committed cvt capture: per target set the device, and
 * per captured form what was measured (src/engine/measured-cvt.ts) and, for full sections, how
 * many results the engine gives bit for bit now (hw/lib/compare-capture.ts). ptxf eval and the
 * playground read it to say "measured on …" beside a cvt.
 *
 *   node bin/run-ts.mjs hw/export-measured-cvt.ts [<capture-dir>]
 *
 * Default: the H200 capture hw/captures/sm_90/h200, for sm_90 and sm_90a.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  MEASURED_CVT_FORMAT,
  MEASURED_CVT_FORMAT_VERSION,
  type MeasuredCvtForm,
  type MeasuredCvtIndex,
  type MeasuredCvtSet,
} from '../src/engine/measured-cvt.ts';
import { readSummary } from './lib/capture-files.ts';
import { DEFAULT_COMPARE_OPTIONS, compareCapture } from './lib/compare-capture.ts';
import { deviceFacts } from './lib/measured-export.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const MEASURED_CVT_FILE = join(ROOT, 'public/measured/cvt.json');
export const DEFAULT_CVT_CAPTURE = join(ROOT, 'hw/captures/sm_90/h200');

/** The set of a cvt capture: its device, and per captured form what it holds and agrees on. */
export async function measuredCvtSet(captureDir: string): Promise<MeasuredCvtSet> {
  const summary = readSummary(captureDir);
  const facts = deviceFacts(readFileSync(join(captureDir, 'device.txt'), 'utf8'));
  if (facts.name !== summary.device.name)
    throw new Error(`device.txt names ${facts.name}, the summary ${summary.device.name}`);
  const captured = summary.forms.filter((f) => f.captured && f.form.startsWith('cvt.'));
  // Full sections are compared result by result (seconds); row hashes are left to compare.ts.
  const full = captured.filter((f) => f.sections.every((s) => s.layout === 'full'));
  const report = await compareCapture(captureDir, {
    ...DEFAULT_COMPARE_OPTIONS,
    forms: new RegExp(`^(${full.map((f) => f.form.replace(/\./g, '\\.')).join('|')})$`),
  });
  const agreeing = new Map(report.forms.map((f) => [f.form, f.sections[0]!.agree]));
  const forms: Record<string, MeasuredCvtForm> = {};
  for (const f of captured) {
    const s = f.sections[0]!;
    forms[f.form] =
      s.layout === 'full'
        ? {
            inputs: s.name === 'f64-sample' ? 'f64-sample' : 'every-input',
            count: s.count!,
            agree: agreeing.get(f.form)!,
          }
        : { inputs: 'every-input-row-hashes', count: s.rows! * 65536, agree: null };
  }
  const sm = `sm_${summary.device.sm}`;
  return {
    targets: [sm, `${sm}a`],
    device: facts.name,
    driver: facts.driver,
    cuda: facts.cuda,
    measuredOn: `${facts.name} (driver ${facts.driver}, CUDA ${facts.cuda})`,
    capture: relative(ROOT, captureDir),
    capturedAt: summary.createdAt,
    forms,
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [captureDir = DEFAULT_CVT_CAPTURE, ...rest] = process.argv.slice(2);
  if (rest.length > 0) {
    console.error('usage: node bin/run-ts.mjs hw/export-measured-cvt.ts [<capture-dir>]');
    process.exitCode = 2;
  } else {
    const set = await measuredCvtSet(captureDir);
    const index: MeasuredCvtIndex = {
      format: MEASURED_CVT_FORMAT,
      formatVersion: MEASURED_CVT_FORMAT_VERSION,
      sets: [set],
    };
    writeFileSync(MEASURED_CVT_FILE, `${JSON.stringify(index, null, 2)}\n`);
    const n = Object.keys(set.forms).length;
    console.log(
      `wrote ${n} cvt forms for ${set.targets.join(', ')} (${set.measuredOn}) to ${relative(ROOT, MEASURED_CVT_FILE)}`,
    );
  }
}
