/**
 * What-if on the command line: `ptxf eval … --vs <instr|unfused>` and a batch line's `"vs"`
 * field. The variant is read as the share link reads it (engine/what-if/compare.ts), compared
 * on the same operand values, and written as lines, as JSON, or as a batch line's `vs_` fields.
 */
import type { Form, Verdict } from '../catalog/index.ts';
import type { EvalInput } from '../engine/index.ts';
import { carryOperands } from '../engine/what-if/carry.ts';
import {
  compareWith,
  parseVariant,
  type Comparison,
  type Variant,
  type VariantSide,
} from '../engine/what-if/compare.ts';
import {
  carriedText,
  doubleText,
  exactText,
  lanesOf,
  ulpsText,
  verdictText,
} from '../engine/what-if/describe.ts';
import type { LaneReference } from '../engine/what-if/reference.ts';
import { formatBits } from './operands.ts';
import { bitsText } from './render-trace.ts';
import { destinationBits, type RequestErrorCode } from './request.ts';
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
    return { ok: false, error: { code: 'syntax', message: `vs: ${variant.error}` } };
  return { ok: true, variant };
}

function errorJson(e: LaneReference['error']) {
  return e ? { value: e.value.decimal, ulps: e.ulps } : null;
}

/**
 * Reference values for `--json`, per lane: the exact value, what binary32 and binary64
 * arithmetic round it to, and the result's error against it.
 */
export function referenceJson(reference: readonly LaneReference[]) {
  return reference.map((r) => ({
    lane: r.lane,
    exact: r.exact.decimal,
    ...(r.approximate ? { approximate: true } : {}),
    f32: formatBits(r.f32.bits, 32),
    f64: r.f64.hex.toLowerCase(),
    error: errorJson(r.error),
  }));
}

/**
 * Reference values as lines ("what f32 math would give"): per lane, the exact value and what
 * binary32 and binary64 arithmetic round it to. For tanh/ex2 the exact function value is the
 * trace's (`exact = 2^65504`); the reference knows it only to a double's precision, so the line
 * gives what f32 and f64 math compute.
 */
export function renderReference(reference: readonly LaneReference[]): string[] {
  return reference.map((r) => {
    const lane = reference.length === 2 ? ` lane ${r.lane}` : '';
    const exact = r.approximate ? '' : `exact ${exactText(r.exact)}; `;
    return `  reference${lane}: ${exact}f32 math gives ${exactText(r.f32.value)} (${formatBits(r.f32.bits, 32)}); f64 math gives ${doubleText(r.f64.value)} (${r.f64.hex.toLowerCase()})`;
  });
}

/** B's side for `--json`: its register, summary and, by kind, what it carried or its sequence. */
function sideJson(b: VariantSide, trace: boolean) {
  if (b.kind === 'refused') return { ok: false, error: { code: 'variant', message: b.reason } };
  const common = {
    ok: true,
    variant: b.kind === 'unfused' ? 'unfused' : b.form.text,
    d: formatBits(b.d, b.dBits),
    summary: b.summary,
    reference: referenceJson(b.reference),
  };
  if (b.kind === 'form')
    return {
      ...common,
      carried: b.carried.lanes.map((l) => ({
        operand: l.operand,
        lane: l.lane,
        how: l.how,
        from: l.from ? formatBits(l.from.bits, l.from.format === 'f32' ? 32 : 16) : null,
        bits: formatBits(l.bits, l.format === 'f32' ? 32 : 16),
      })),
      ...(trace && b.result ? { result: b.result } : {}),
    };
  return {
    ...common,
    lines: b.unfused.lines,
    t: formatBits(b.unfused.product.bits, b.unfused.product.format === 'f32' ? 32 : b.dBits),
    why: b.why,
    ...(trace && b.unfused.traces ? { traces: b.unfused.traces } : {}),
  };
}

/**
 * The comparison for `ptxf eval --vs … --json`: B (with its verdict for A's target and PTX ISA
 * version, where B is a form), and how the two results differ.
 */
export function comparisonJson(c: Comparison, trace: boolean, verdict: Verdict | null) {
  const side = sideJson(c.b, trace);
  return {
    vs: verdict
      ? {
          ...side,
          verdict: verdictFields(verdict),
        }
      : side,
    difference:
      c.b.kind === 'refused'
        ? null
        : {
            same: c.same,
            differingBits: c.differingBits === null ? null : formatBits(c.differingBits, c.a.dBits),
            text: verdictText(c),
            lanes: c.lanes.map((l) => ({
              lane: l.lane,
              ulpsOfA: l.ulpsOfA,
              ulpsOfB: l.ulpsOfB,
              bAgainstExactA: errorJson(l.bAgainstExactA),
            })),
          },
  };
}

/** The comparison as `ptxf eval --vs` prints it after A's result. */
export function renderComparison(c: Comparison): string[] {
  const b = c.b;
  if (b.kind === 'refused') return [`vs: no such variant: ${b.reason}`];
  const out: string[] = [];
  const label = b.kind === 'unfused' ? 'unfused' : b.form.text;
  out.push(`vs ${label}  →  d = ${formatBits(b.d, b.dBits)}`);
  const lanes = lanesOf(b.d, b.dBits, b.dFormat);
  lanes.forEach((lane, i) =>
    out.push(`  ${lanes.length === 2 ? `lane ${i}: ` : ''}${bitsText(lane, b.dFormat)}`),
  );
  out.push(`  summary: ${b.summary}`);
  // The unfused sequence computes the fma's value: its reference is A's, printed above.
  if (b.kind === 'form') out.push(...renderReference(b.reference));
  if (b.kind === 'unfused') {
    for (const line of b.unfused.lines) out.push(`  ${line}`);
    const t = b.unfused.product;
    const tLanes = lanesOf(t.bits, t.format === 'f32' ? 32 : b.dBits, t.format);
    out.push(
      `  t = ${tLanes.map((x) => bitsText(x, t.format)).join(', ')}: a × b rounded to ${t.format}`,
    );
  } else {
    const changed = b.carried.lanes.filter((l) => l.how !== 'same');
    const lanesOfOperand = (name: string) =>
      b.form.operands.find((o) => o.name === name)?.lanes ?? 1;
    for (const l of changed) out.push(`  carried ${carriedText(l, lanesOfOperand(l.operand))}`);
  }
  out.push('');
  out.push(verdictText(c));
  if (c.differingBits !== null && c.differingBits !== 0)
    out.push(`differing bits: ${formatBits(c.differingBits, c.a.dBits)}`);
  const errors = c.lanes.map((l, i) => {
    const a = c.a.reference[i]?.error ?? null;
    const lane = c.lanes.length === 2 ? `lane ${i}: ` : '';
    return `${lane}A ${errorText(a)}, B ${errorText(l.bAgainstExactA)}`;
  });
  if (b.kind === 'unfused' || b.form.opcode === c.a.form.opcode)
    out.push(`error against A's exact result: ${errors.join('; ')}`);
  if (b.kind === 'unfused' && b.why) out.push(`why: ${b.why}`);
  return out;
}

function errorText(e: LaneReference['error']): string {
  return e ? ulpsText(e.ulps) : 'none (not finite)';
}

/**
 * A batch line's comparison: `,"vs_ok":true,"vs_d":"0x…"`, or `,"vs_ok":false,"vs_error":{…}`
 * (the line's own answer stands either way). A form variant is judged as the line's own form is
 * (`invalid` says why it is not valid for the line's target and PTX ISA version, else null) and
 * runs on its compiled fast path.
 */
export function batchVariantFields(
  form: Form,
  input: EvalInput,
  text: unknown,
  lineNo: number,
  batch: {
    readonly invalid: (variant: Form) => VariantError | null;
    readonly fastPath: (form: Form) => (a: number, b: number, c: number) => number;
  },
): string {
  const resolved = resolveVariant(text);
  const fail = (error: VariantError) =>
    `,"vs_ok":false,"vs_error":${JSON.stringify({ code: error.code, message: `line ${lineNo}: ${error.message}` })}`;
  if (!resolved.ok) return fail(resolved.error);
  const { variant } = resolved;
  if (variant.kind === 'form') {
    const invalid = batch.invalid(variant.form);
    if (invalid) return fail({ code: invalid.code, message: `vs: ${invalid.message}` });
  }
  if (variant.kind === 'form' && !input.oob) {
    const carried = carryOperands(form, variant.form, input).input;
    const d = batch.fastPath(variant.form)(carried.a, carried.b ?? 0, carried.c ?? 0);
    return `,"vs_ok":true,"vs_d":"${formatBits(d, destinationBits(variant.form))}"`;
  }
  // The unfused sequence, or lanes marked OOB-NaN (carried as the pattern they stand for).
  const c = compareWith(form, input, variant);
  if (c.b.kind === 'refused') return fail({ code: 'variant', message: c.b.reason });
  return `,"vs_ok":true,"vs_d":"${formatBits(c.b.d, c.b.dBits)}"`;
}
