/**
 * What-if for cvt on the command line: `ptxf eval <cvt> <operands> --vs <cvt form>` and a cvt
 * batch line's `"vs"`. B is another cvt form, run on A's source values carried by value
 * (engine/what-if/cvt-compare.ts), and written as lines, as JSON, or as the `vs_` fields.
 */
import type { CvtForm } from '../catalog/index.ts';
import type { CvtInput } from '../engine/index.ts';
import {
  compareCvtWith,
  parseCvtVariant,
  type CvtComparison,
  type CvtSideElement,
} from '../engine/what-if/cvt-compare.ts';
import {
  cvtCarriedText,
  cvtDifferenceText,
  cvtRbitsText,
  cvtVerdictText,
  errorText,
  sideValueText,
} from '../engine/what-if/cvt-describe.ts';
import { exactText } from '../engine/what-if/describe.ts';
import type { VariantError } from './compare.ts';
import { cvtHex, type CvtFormResult } from './cvt-request.ts';

/** The cvt form a `--vs` or `"vs"` text names beside a cvt A, or why it names none. */
export function resolveCvtVariant(
  text: unknown,
): { ok: true; form: CvtForm } | { ok: false; error: VariantError } {
  if (typeof text !== 'string')
    return {
      ok: false,
      error: {
        code: 'syntax',
        message: 'vs must be a cvt form such as "cvt.rn.satfinite.e5m2x2.f32"',
      },
    };
  const parsed = parseCvtVariant(text);
  if ('error' in parsed)
    return { ok: false, error: { code: 'variant', message: `vs: ${parsed.error}` } };
  return { ok: true, form: parsed.form };
}

function sideText(s: CvtSideElement | null): string {
  if (!s) return 'no element';
  return `${s.bits} = ${sideValueText(s)} (${s.format}; error ${errorText(s)})`;
}

/** The comparison as `ptxf eval --vs` prints it after A's result. */
export function renderCvtComparison(c: CvtComparison): string[] {
  const b = c.b;
  if (b.kind === 'refused') return [`vs: no such variant: ${b.reason}`];
  const out = [`vs ${b.form.text}  →  d = ${cvtHex(BigInt(b.result.d), b.result.dBits)}`];
  for (const e of c.elements) {
    out.push(`  element ${e.index}: source ${exactText(e.source)}`);
    out.push(`    A ${sideText(e.a)}`);
    out.push(`    B ${sideText(e.b)}`);
    out.push(
      `    ${cvtDifferenceText(e)}${e.differingBits && BigInt(e.differingBits) !== 0n ? `; differing bits ${e.differingBits}` : ''}`,
    );
  }
  for (const e of b.carried.elements)
    if (e.how !== 'same' || e.repeated) out.push(`  carried ${cvtCarriedText(e)}`);
  const rbits = cvtRbitsText(b.carried);
  if (rbits) out.push(`  carried ${rbits}`);
  out.push('');
  out.push(cvtVerdictText(c));
  return out;
}

function sideJson(s: CvtSideElement | null) {
  if (!s) return null;
  return {
    format: s.format,
    bits: s.bits,
    value: s.value.decimal,
    error: s.error ? { value: s.error.value.decimal, ulps: s.error.ulps } : null,
  };
}

/** The comparison for `ptxf eval --vs … --json`. */
export function cvtComparisonJson(c: CvtComparison, trace: boolean, judged: CvtFormResult) {
  const b = c.b;
  if (b.kind === 'refused')
    return { vs: { ok: false, error: { code: 'variant', message: b.reason } } };
  return {
    vs: {
      ok: true,
      variant: b.form.text,
      d: cvtHex(BigInt(b.result.d), b.result.dBits),
      carried: b.carried.elements.map((e) => ({
        element: e.element,
        operand: e.operand,
        how: e.how,
        from: e.from.bits,
        bits: e.bits,
        ...(e.repeated ? { repeated: true } : {}),
      })),
      rbits: b.carried.rbits,
      ...(judged.ok
        ? {
            verdict: {
              valid: judged.verdict.valid,
              target: judged.verdict.target,
              ptx: judged.verdict.ptx,
              reasons: judged.verdict.reasons,
              minTarget: judged.verdict.minTarget,
              minPtx: judged.verdict.minPtx,
            },
          }
        : {}),
      ...(trace ? { result: b.result } : {}),
    },
    difference: {
      same: c.same,
      registerXor: c.registerXor,
      text: cvtVerdictText(c),
      elements: c.elements.map((e) => ({
        element: e.index,
        source: e.source.decimal,
        a: sideJson(e.a),
        b: sideJson(e.b),
        differingBits: e.differingBits,
        ulpsOfA: e.ulpsOfA,
        ulpsOfB: e.ulpsOfB,
      })),
    },
  };
}

/**
 * A cvt batch line's comparison: `,"vs_ok":true,"vs_d":"0x…"`, or `,"vs_ok":false,
 * "vs_error":{…}` (the line's own answer stands either way). B is judged for the line's target
 * and PTX ISA version as the line's own form is (`invalid` says why it is not valid, else null).
 */
export function cvtBatchVariantFields(
  form: CvtForm,
  input: CvtInput,
  text: unknown,
  lineNo: number,
  invalid: (variant: CvtForm) => VariantError | null,
): string {
  const fail = (error: VariantError) =>
    `,"vs_ok":false,"vs_error":${JSON.stringify({ code: error.code, message: `line ${lineNo}: ${error.message}` })}`;
  const resolved = resolveCvtVariant(text);
  if (!resolved.ok) return fail(resolved.error);
  const problem = invalid(resolved.form);
  if (problem) return fail({ code: problem.code, message: `vs: ${problem.message}` });
  const c = compareCvtWith(form, input, resolved.form);
  if (c.b.kind === 'refused') return fail({ code: 'variant', message: c.b.reason });
  return `,"vs_ok":true,"vs_d":"${cvtHex(BigInt(c.b.result.d), c.b.result.dBits)}"`;
}
