/**
 * What-if on the command line: `ptxf eval … --vs <instr|unfused>` and a batch line's `"vs"`
 * field, for every instruction. B is any catalog form (carried A's values) or the unfused
 * sequence of an fma (engine/what-if/comparison.ts), compared element by element, every figure
 * in ulps of A's format at A's result; the words are src/present's. Written as lines, as JSON, or
 * as a batch line's `vs_` fields.
 */
import type { Form } from '../catalog/instruction.ts';
import { hexOf } from '../engine/format.ts';
import type { Registers } from '../engine/pipeline.ts';
import { carryRegisters } from '../engine/what-if/carry-values.ts';
import {
  parseVariant,
  type Comparison,
  type ElementComparison,
  type Measured,
  type SideElement,
  type Variant,
} from '../engine/what-if/comparison.ts';
import { evaluateUnfused } from '../engine/what-if/unfused-sequence.ts';
import type { Verdict } from '../catalog/verdict.ts';
import { carriedText, rbitsText } from '../present/carry-text.ts';
import {
  bErrorText,
  errorText,
  refusalText,
  verdictText,
  whyText,
} from '../present/compare-text.ts';
import { elementWord } from '../present/element-word.ts';
import { variantErrorText } from '../present/variant-words.ts';
import { summaryOf, unfusedSummary } from '../present/summary.ts';
import type { RequestError, RequestErrorCode } from './request.ts';
import {
  bitsText,
  elementLines,
  elementViews,
  referenceJson,
  referenceLines,
} from './result-lines.ts';
import { verdictFields } from './verdict-json.ts';

/**
 * Why a variant cannot be compared: unreadable text, a form not valid for the target or PTX ISA
 * version (batch), or a sequence that does not exist.
 */
export interface VariantError {
  readonly code: RequestErrorCode | 'variant';
  readonly message: string;
}

/** The variant a `--vs` or `"vs"` text names, or why it names none. */
export function resolveVariant(
  text: unknown,
): { ok: true; variant: Variant } | { ok: false; error: VariantError } {
  if (typeof text !== 'string')
    return {
      ok: false,
      error: {
        code: 'syntax',
        message: 'vs must be an instruction such as "fma.rz.bf16" or "unfused"',
      },
    };
  const variant = parseVariant(text);
  if ('error' in variant)
    return {
      ok: false,
      error: { code: 'syntax', message: `vs: ${variantErrorText(variant.error)}` },
    };
  return { ok: true, variant };
}

/** The comparison as `ptxf eval --vs` prints it after A's result. */
export function comparisonLines(c: Comparison): string[] {
  const b = c.b;
  if (b.kind === 'refused') return [`vs: no such variant: ${refusalText(b.refusal)}`];
  const a = c.a.form;
  const out: string[] = [];
  if (b.kind === 'form') {
    out.push(`vs ${b.form.text}  →  d = ${b.result.d}`);
    out.push(...elementLines(b.form, elementViews(b.result)));
    out.push(`  summary: ${summaryOf(b.result)}`);
    out.push(...referenceLines(b.form, b.reference));
    for (const input of b.carried.inputs)
      if (input.how !== 'same' || input.repeated)
        out.push(`  carried ${carriedText(input, b.form)}`);
    const rbits = rbitsText(b.carried);
    if (rbits) out.push(`  carried ${rbits}`);
  } else {
    const s = b.sequence;
    out.push(`vs unfused  →  d = ${s.d}`);
    out.push(
      ...elementLines(
        a,
        s.elements.map((view, index) => ({ index, view })),
      ),
    );
    // The sequence computes the fma's value: its reference is A's, printed above.
    out.push(`  summary: ${unfusedSummary(s)}`);
    for (const line of s.lines) out.push(`  ${line}`);
    const t = s.product.elements.map(bitsText).join(', ');
    out.push(`  t = ${t}: a × b rounded to ${s.product.format}`);
  }
  out.push('');
  out.push(verdictText(c));
  if (c.registerXor !== null && BigInt(c.registerXor) !== 0n)
    out.push(`differing bits: ${c.registerXor}`);
  const several = c.elements.length > 1;
  const errors = c.elements.map(
    (e) =>
      `${several ? `${elementWord(a)} ${e.index}: ` : ''}A ${errorText(e.a.error, e.unit)}, B ${bErrorText(c, e)}`,
  );
  out.push(`error against A's exact result: ${errors.join('; ')}`);
  if (b.kind === 'unfused') {
    const why = whyText(b.sequence);
    if (why) out.push(`why: ${why}`);
  }
  return out;
}

function measuredJson(m: Measured | null) {
  return m ? { value: m.value.decimal, ulps: m.ulps } : null;
}

function sideJson(side: SideElement | null) {
  return (
    side && {
      element: side.element,
      format: side.result.format,
      bits: side.result.bits,
      error: measuredJson(side.error),
    }
  );
}

function elementJson(e: ElementComparison) {
  return {
    element: e.index,
    relation: e.relation,
    ...(e.repeated ? { repeated: true } : {}),
    exact: e.exact.decimal,
    unit: e.unit,
    difference: measuredJson(e.difference),
    differingBits: e.differingBits,
    a: sideJson(e.a),
    b: sideJson(e.b),
  };
}

/** B's side for `--json`: its register, summary and, by kind, what it carried or its sequence. */
function variantJson(c: Comparison, trace: boolean, verdict: Verdict | null) {
  const b = c.b;
  if (b.kind === 'refused')
    return { ok: false, error: { code: 'variant', message: refusalText(b.refusal) } };
  if (b.kind === 'unfused') {
    const s = b.sequence;
    return {
      ok: true,
      variant: 'unfused',
      d: s.d,
      summary: unfusedSummary(s),
      lines: s.lines,
      t: s.product.register,
      why: whyText(s),
      ...(trace && s.traces ? { traces: s.traces } : {}),
    };
  }
  return {
    ok: true,
    variant: b.form.text,
    d: b.result.d,
    summary: summaryOf(b.result),
    reference: referenceJson(b.reference),
    ...(verdict ? { verdict: verdictFields(verdict) } : {}),
    carried: b.carried.inputs.map((input) => ({
      operand: input.operand,
      element: input.element,
      how: input.how,
      from: input.from?.bits ?? null,
      bits: input.bits,
      ...(input.repeated ? { repeated: true } : {}),
    })),
    rbits: b.carried.rbits,
    ...(trace ? { result: b.result } : {}),
  };
}

/**
 * The comparison for `ptxf eval --vs … --json`: B (with its verdict for A's target and PTX ISA
 * version, where B is a form), and how the two results differ, element by element.
 */
export function comparisonJson(c: Comparison, trace: boolean, verdict: Verdict | null) {
  return {
    vs: variantJson(c, trace, verdict),
    difference:
      c.b.kind === 'refused'
        ? null
        : {
            same: c.same,
            differingBits: c.registerXor,
            text: verdictText(c),
            decisions: c.decisions,
            elements: c.elements.map(elementJson),
          },
  };
}

/** What a batch line's "vs" needs of the batch: the line's judgement, and B's fast path. */
export interface BatchVariantContext {
  /** Why the form is not valid for the line's target and PTX ISA version, else null. */
  readonly invalid: (variant: Form) => RequestError | null;
  /** B's destination register on these source registers (the fast path, on the line's target). */
  readonly fastPath: (variant: Form, registers: Registers) => bigint;
}

/**
 * A batch line's comparison: `,"vs_ok":true,"vs_d":"0x…"`, or `,"vs_ok":false,"vs_error":{…}`
 * (the line's own answer stands either way). A form variant is judged as the line's own form is
 * and runs on its fast path on A's values carried into its registers; the unfused sequence on
 * the pipeline.
 */
export function batchVariantFields(
  form: Form,
  registers: Registers,
  text: unknown,
  lineNo: number,
  batch: BatchVariantContext,
): string {
  const resolved = resolveVariant(text);
  const fail = (error: VariantError) =>
    `,"vs_ok":false,"vs_error":${JSON.stringify({ code: error.code, message: `line ${lineNo}: ${error.message}` })}`;
  if (!resolved.ok) return fail(resolved.error);
  const { variant } = resolved;
  if (variant.kind === 'form') {
    const invalid = batch.invalid(variant.form);
    if (invalid) return fail({ code: invalid.code, message: `vs: ${invalid.message}` });
    const carried = carryRegisters(form, variant.form, registers).registers;
    const d = batch.fastPath(variant.form, carried);
    return `,"vs_ok":true,"vs_d":"${hexOf(d, variant.form.registers[0]!.bits)}"`;
  }
  const sequence = evaluateUnfused(form, registers);
  if ('ok' in sequence) return fail({ code: 'variant', message: refusalText(sequence.refusal) });
  return `,"vs_ok":true,"vs_d":"${sequence.d}"`;
}
