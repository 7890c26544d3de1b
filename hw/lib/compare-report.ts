/** The text report of a capture comparison (compare-capture.ts), as hw/compare.ts prints it. */
import { BLOCK_ROWS, formatHash } from './hash.ts';
import { ROWS_DIR, sectionFileName, type CaptureSummary } from './capture-files.ts';
import {
  approxWithinBound,
  formAgrees,
  type ApproxOutside,
  type CaptureReport,
  type FormReport,
  type ResultMismatch,
  type SectionReport,
} from './compare-capture.ts';
import type { CvtRegisterInputs, CvtShape } from './cvt-plan.ts';
import { ROW_LENGTH, type FormShape, type RegisterInputs } from './plan.ts';

function hexBits(value: number | bigint, bits: number): string {
  return `0x${value.toString(16).padStart(bits / 4, '0')}`;
}

function registerBits(shape: FormShape, name: 'a' | 'b' | 'c'): number {
  return shape.form.registers.find((r) => r.name === name)!.bits;
}

export function describeInputs(shape: FormShape, inputs: RegisterInputs): string {
  return shape.sources
    .map((s) => `${s.name}=${hexBits(inputs[s.name], registerBits(shape, s.name))}`)
    .join(' ');
}

/** A cvt form's registers: a at its width (16, 32 or 64 bits), b where the form reads it. */
export function describeCvtInputs(shape: CvtShape, inputs: CvtRegisterInputs): string {
  const a = `a=${hexBits(inputs.a, shape.aBits)}`;
  return shape.hasB ? `${a} b=${hexBits(inputs.b, 32)}` : a;
}

function describeMismatch(f: FormReport, m: ResultMismatch): string {
  const operands = f.cvtShape
    ? describeCvtInputs(f.cvtShape, m.inputs as CvtRegisterInputs)
    : describeInputs(f.shape!, m.inputs as RegisterInputs);
  const bits = (f.cvtShape ?? f.shape)!.resultBits;
  return `${f.form} ${operands}: engine ${hexBits(m.expected, bits)}, capture ${hexBits(m.got, bits)}`;
}

function describeAllowed(allowed: ApproxOutside['allowed']): string {
  if (allowed.kind === 'corner-case')
    return `the spec's corner-case result ${hexBits(allowed.result, 16)}`;
  const { lowest, highest, count } = allowed;
  return count === 1
    ? `only ${hexBits(lowest, 16)}`
    : `${hexBits(lowest, 16)}..${hexBits(highest, 16)} (${count} values)`;
}

export function formatHeader(dir: string, summary: CaptureSummary): string {
  const d = summary.device;
  return `capture ${dir}: ${d.name} (sm_${d.sm}, kernels for sm_${d.compiledFor}), driver ${d.driverVersion}, runtime ${d.runtimeVersion}, by ${summary.producer}`;
}

function sectionCounts(s: SectionReport): string {
  switch (s.unit) {
    case 'results':
      return `${s.name} ${s.agree}/${s.checked} results agree`;
    case 'rows':
      return `${s.name} ${s.agree}/${s.checked} rows agree (${s.checked} of ${s.available} rows recomputed, ${ROW_LENGTH} results each)`;
    case 'blocks':
      return s.layout === 'full'
        ? `${s.name} ${s.agree}/${s.checked} result digests agree (every result recomputed)`
        : `${s.name} ${s.agree}/${s.checked} blocks agree (${s.checked} of ${s.available} blocks of ${BLOCK_ROWS} rows recomputed: ${s.rowsRecomputed} rows, ${ROW_LENGTH} results each)`;
  }
}

function approxCounts(s: SectionReport): string {
  const a = s.approx!;
  const none = a.noValueAllowed > 0 ? `, ${a.noValueAllowed} where the bound allows no value` : '';
  return `${s.name} ${a.equalModel}/${a.lanes} lanes equal the model, ${a.withinBound}/${a.lanes} within the bound${none}, ${a.outside} outside`;
}

/** The lines of one form: its agreement counts, then its first disagreements. */
export function formatForm(f: FormReport, dir: string, summary: CaptureSummary): string[] {
  if (f.status !== 'compared') return [`${f.form}: ${f.status} (${f.note})`];
  if (f.approximate) {
    const verdict = approxWithinBound(f) ? 'APPROX, within the bound' : 'APPROX, outside the bound';
    const lines = [`${f.form}: ${verdict}: ${f.sections.map(approxCounts).join('; ')}`];
    for (const s of f.sections)
      for (const o of s.approx?.firstOutside ?? [])
        lines.push(
          `  ${s.name}[${o.index}] lane ${o.lane} a=${hexBits(o.input, 16)}: capture ${hexBits(o.got, 16)}, model ${hexBits(o.model, 16)}; the bound allows ${describeAllowed(o.allowed)}`,
        );
    return lines;
  }
  const lines = [
    `${f.form}: ${formAgrees(f) ? 'AGREE' : 'DIFFER'}: ${f.sections.map(sectionCounts).join('; ')}`,
  ];
  for (const s of f.sections) {
    for (const m of s.mismatches) lines.push(`  ${s.name}[${m.index}] ${describeMismatch(f, m)}`);
    for (const r of s.rowMismatches) {
      lines.push(
        `  ${s.name} row ${r.row} (${hexBits(r.row, 16)}): hash engine ${formatHash(r.expected)}, capture ${formatHash(r.got)}`,
      );
      if (r.dump) {
        lines.push(`    ${r.dump.file}: ${r.dump.count} of ${ROW_LENGTH} results differ`);
        for (const m of r.dump.mismatches)
          lines.push(`    ${s.name}[${m.index}] ${describeMismatch(f, m)}`);
      } else {
        lines.push(
          `    narrow it down: hw/build/capture --row ${f.form} ${s.name} ${r.row} --seed ${summary.sampleSeed} --out ${dir}  (writes ${ROWS_DIR}/), then compare again`,
        );
      }
    }
    for (const b of s.blockMismatches) {
      lines.push(
        `  ${s.name} block ${b.block} (rows ${b.firstRow}..${b.firstRow + b.rows - 1}): digest engine ${formatHash(b.expected)}, capture ${formatHash(b.got)}`,
      );
      const file = sectionFileName(f.form, s.name, s.layout);
      lines.push(
        s.layout === 'full'
          ? `    narrow it down: compare ${file} as the GPU wrote it (listed in SHA256SUMS) with the engine`
          : `    narrow it down: compare ${file} as the GPU wrote it (listed in SHA256SUMS) to find the rows, then dump them: hw/build/capture --row ${f.form} ${s.name} ROW --seed ${summary.sampleSeed}`,
      );
    }
  }
  return lines;
}

export function formatTotals(forms: readonly FormReport[]): string {
  const count = (status: FormReport['status']): number =>
    forms.filter((f) => f.status === status).length;
  const compared = forms.filter((f) => f.status === 'compared');
  const exact = compared.filter((f) => !f.approximate);
  const approx = compared.filter((f) => f.approximate);
  return (
    `${exact.filter(formAgrees).length} of ${exact.length} compared exact forms agree; ` +
    `${approx.length} approximate forms (not part of the verdict): ${approx.filter(approxWithinBound).length} within the bound, ${approx.filter((f) => !approxWithinBound(f)).length} with results outside it; ` +
    `${count('skipped')} skipped; ${count('invalid')} invalid`
  );
}

export function formatReport(report: CaptureReport): string {
  return [
    formatHeader(report.dir, report.summary),
    ...report.forms.flatMap((f) => formatForm(f, report.dir, report.summary)),
    formatTotals(report.forms),
  ].join('\n');
}
