/**
 * What the playground and ptxf say of a cvt form a GPU was measured on
 * (src/engine/measured-cvt.ts): which GPU, what of the form was measured, and whether the
 * engine gives it.
 */
import type { MeasuredCvtForm, MeasuredCvtSet } from '../engine/measured-cvt.ts';

const count = (n: number) => n.toLocaleString('en-US');

/**
 * One line: "measured on NVIDIA H200 (driver 580.159.04, CUDA 13.0): all 65,536 inputs agree"; for
 * an .f32 source "every input (2^32), as row hashes"; with the capture it comes from.
 */
export function measuredCvtText(set: MeasuredCvtSet, form: MeasuredCvtForm): string {
  const on = `measured on ${set.measuredOn}`;
  const agreement = (what: string) =>
    form.agree === form.count
      ? `${what} agree`
      : `${what}: ${count(form.agree ?? 0)} agree, ${count(form.count - (form.agree ?? 0))} differ`;
  switch (form.inputs) {
    case 'every-input':
      return `${on}: ${agreement(`all ${count(form.count)} inputs`)} (${set.capture})`;
    case 'f64-sample':
      return `${on}: ${agreement(`${count(form.count)} sampled inputs`)} (${set.capture})`;
    case 'every-input-row-hashes':
      return `${on}: every input (2^32), as row hashes; the rows compared agree (${set.capture})`;
  }
}
