/**
 * The one pipeline every instruction goes through, element by element (the form's elements are
 * the statements of its semantics, `d[i] = op(inputs)`):
 *
 *   read      each input's bits from its place in its register (padding beside it noted); a
 *             matrix form's row of A, column of B and element of C
 *   .oob      an OOB-NaN a or b makes the element +0.0, and nothing else happens
 *   .ftz      subnormal inputs (of the formats .ftz speaks of) become zeros of their sign
 *   operation the semantics of the form's operation (semantics/): the exact value, or a result
 *             a rule decides (a NaN, an infinity, an exact zero, a chosen operand, a table value,
 *             a tensor core's dot product under the target's model)
 *   round     the exact value, once, to the destination format in the form's rounding (rounding.ts)
 *   overflow  past MAX_NORM: ±inf or ±MAX_NORM by direction (ue8m0: NaN), unless .satfinite
 *   .ftz      a tiny result becomes a zero of its sign
 *   .satfinite, .sat, .relu   in that order (decision cvt-modifier-order)
 *   write     the element into its bits of d
 *
 * Each rule is one function of nvidia-rules.ts or rounding.ts; the steps record each call. The
 * operations' semantics come from the form's family (semantics/family.ts): those loaded so far
 * (family-semantics.ts), or the families a caller passes.
 */
import { findForm } from '../catalog/all-forms.ts';
import type { ElementSpec, Form, Operation, Place, SourceName } from '../catalog/instruction.ts';
import { isIntegerRounding, type AnyModifier } from '../catalog/modifiers.ts';
import { sectionRules } from '../catalog/section-rules.ts';
import type { DecisionId } from './decisions.ts';
import { EngineError } from './engine-error.ts';
import { bitLength, exactValueOfDyadic } from './exact.ts';
import { familyFrom, loadedFamilies } from './family-semantics.ts';
import {
  bitsView,
  encodeFinite,
  FORMATS,
  formatHex,
  hexOf,
  isInfBits,
  isNaNBits,
  isNegative,
  isZeroBits,
  type Format,
} from './format.ts';
import {
  cvtFactsOf,
  cvtFtzFlushes,
  cvtSatfiniteNaN,
  flushSubnormal,
  flushTinyResult,
  isOobNaN,
  isTiny,
  oobForcesZero,
  overflowResult,
  relu,
  satfinite,
  saturate,
} from './nvidia-rules.ts';
import { resolveOptions, type EngineOptions } from './options.ts';
import { dyadicMagnitude, roundToFormat, type RandomBits, type Tininess } from './rounding.ts';
import type {
  ElementContext,
  Input,
  Outcome,
  Pending,
  Semantics,
  StepBody,
} from './semantics/context.ts';
import { ieeeRule, overflowRule } from './semantics/context.ts';
import { semanticsFamilyOf, type FamilySet } from './semantics/family.ts';
import {
  innerSteps,
  type ElementRead,
  type ElementTrace,
  type EvalResult,
  type Step,
} from './steps.ts';
import type { Dyadic, RuleRef } from './value.ts';

/** The source registers of an instruction, as unsigned integers of their widths. */
export type Registers = Readonly<Partial<Record<SourceName, bigint>>>;

export { EngineError };

/** The semantics of the form's operation, from its family's (an EngineError where not loaded). */
function operationSemantics(form: Form, families: FamilySet): Semantics {
  const family = familyFrom(families, semanticsFamilyOf(form));
  const operations: Partial<Record<Operation, Semantics>> = family.operations;
  const semantics = operations[form.operation];
  if (!semantics)
    throw new EngineError(
      'form',
      `${form.text}: the ${family.family} semantics have no ${form.operation}`,
    );
  return semantics;
}

export function resolveForm(form: Form | string): Form {
  if (typeof form !== 'string') return form;
  const found = findForm(form);
  if (!found) throw new EngineError('form', `not a catalog form: ${form}`);
  return found;
}

const mask = (bits: number) => (1n << BigInt(bits)) - 1n;

/** A message when the registers do not fit the form's operands, else null. */
export function registerProblem(form: Form, registers: Registers): string | null {
  for (const r of form.registers.slice(1)) {
    const v = registers[r.name as SourceName];
    if (v === undefined) return `${form.text} needs operand ${r.name}`;
    if (typeof v !== 'bigint' || v < 0n || v > mask(r.bits))
      return `operand ${r.name} must be a ${r.bits}-bit pattern; got ${String(v)}`;
  }
  return null;
}

/**
 * The form on the registers, element by element, with every step. `families`: the semantics it
 * may use, by default those loaded so far (family-semantics.ts); a form of a family not among
 * them is an EngineError (code `family`).
 */
export function evaluate(
  formOrText: Form | string,
  registers: Registers,
  options?: Partial<EngineOptions>,
  families: FamilySet = loadedFamilies(),
): EvalResult {
  const form = resolveForm(formOrText);
  const problem = registerProblem(form, registers);
  if (problem) throw new EngineError('operand', problem);
  const opts = resolveOptions(options);
  const operation = operationSemantics(form, families);
  const target = form.matrix
    ? familyFrom(families, 'tensor-core').targetProblem(opts.target)
    : null;
  if (target) throw new EngineError('target', target);
  let d = 0n;
  const elements: ElementTrace[] = form.elements.map((element) => {
    const { steps, bits } = evaluateElement(form, element, registers, opts, operation);
    d |= bits << BigInt(element.dest.value.lo);
    return { index: element.index, steps, result: formatHex(bits, FORMATS[element.dest.format]) };
  });
  const dRegister = form.registers[0]!;
  const decisions = new Set<DecisionId>(formDecisions(form));
  const named = (steps: readonly Step[]) => {
    for (const s of steps) {
      if (s.decision) decisions.add(s.decision);
      named(innerSteps(s));
    }
  };
  for (const e of elements) named(e.steps);
  return {
    form: form.text,
    d: hexOf(d, dRegister.bits),
    dBits: dRegister.bits,
    dType: dRegister.type,
    elements,
    decisions: [...decisions],
  };
}

/**
 * d alone (hex of its width, as EvalResult.d): a matrix form's dot product by the same numbers
 * without its steps (batches, sweeps, exhaustive tests); any other form through evaluate().
 * The same errors as evaluate().
 */
export function evaluateBits(
  formOrText: Form | string,
  registers: Registers,
  options?: Partial<EngineOptions>,
  families: FamilySet = loadedFamilies(),
): string {
  const form = resolveForm(formOrText);
  if (!form.matrix) return evaluate(form, registers, options, families).d;
  const problem = registerProblem(form, registers);
  if (problem) throw new EngineError('operand', problem);
  const opts = resolveOptions(options);
  const tensorCore = familyFrom(families, 'tensor-core');
  const target = tensorCore.targetProblem(opts.target);
  if (target) throw new EngineError('target', target);
  const element = form.elements[0]!;
  const inputs: Input[] = element.inputs.map((p) => ({
    name: p.operand,
    bits: field(registers[p.operand as SourceName] ?? 0n, p.value.hi, p.value.lo),
    format: FORMATS[p.format],
  }));
  const bits = tensorCore.bits(form, inputs, opts.target);
  return hexOf(bits << BigInt(element.dest.value.lo), form.registers[0]!.bits);
}

/** Decisions a form relies on whatever its operands. */
function formDecisions(form: Form): DecisionId[] {
  const decisions: DecisionId[] = [];
  if (!form.documented) decisions.push('ptxas-only-forms');
  // A conversion's rounding left out where ptxas allows it (cvt.f16.bf16) is .rn by decision.
  if (
    form.family === 'convert' &&
    form.rounding !== null &&
    !form.modifiers.includes(form.rounding)
  )
    decisions.push('cvt-default-rounding');
  return decisions;
}

function field(reg: bigint, hi: number, lo: number): bigint {
  return (reg >> BigInt(lo)) & mask(hi - lo + 1);
}

/** An input as read: its value bits and any padding bits of its slot. */
function readPlace(place: Place, registers: Registers): ElementRead {
  const reg = registers[place.operand as SourceName] ?? 0n;
  const { slot, value } = place;
  const bits = field(reg, value.hi, value.lo);
  // Padding sits above the value (6-bit values in 8-bit slots) or below it (tf32 in a .b32).
  const aboveWidth = slot.hi - value.hi;
  const belowWidth = value.lo - slot.lo;
  const paddingWidth = aboveWidth + belowWidth;
  const above = aboveWidth > 0 ? field(reg, slot.hi, value.hi + 1) : 0n;
  const below = belowWidth > 0 ? field(reg, value.lo - 1, slot.lo) : 0n;
  return {
    operand: place.operand,
    slot,
    valueBits: value,
    padding: paddingWidth > 0 ? hexOf((above << BigInt(belowWidth)) | below, paddingWidth) : null,
    ...bitsView(bits, FORMATS[place.format]),
  };
}

/**
 * Which formats .ftz flushes: cvt's ".ftz flushes single-precision subnormal inputs and results"
 * (nvidia-rules cvtFtzFlushes: not the input of a conversion to .f16, decision
 * cvt-ftz-f16-source); the arithmetic's flushes every input and result of the form's type.
 */
function ftzApplies(
  form: Form,
  element: ElementSpec,
  operand: 'input' | 'result',
  f: Format,
): boolean {
  return form.family !== 'convert' || cvtFtzFlushes(operand, f.name, cvtFactsOf(form, element));
}

function inputsRule(form: Form): RuleRef {
  const rules = sectionRules(form.family);
  const { elements } = form;
  const packed =
    elements.length > 1 &&
    elements.every((e) => e.inputs[0]?.operand === elements[0]!.inputs[0]?.operand);
  const text =
    elements.length === 1
      ? rules.inputs.single
      : packed
        ? rules.inputs.packed
        : rules.inputs.several;
  return { source: 'ptx', section: form.section.section, text };
}

/** Exponent of the last significand bit of format f at x (its quantum there). */
function lsbExponent(x: Dyadic, f: Format): number {
  const e = x.exp + bitLength(x.mant) - 1;
  return Math.max(e, f.emin) - f.manBits;
}

function isIntegral(x: Dyadic): boolean {
  return x.exp >= 0 || (x.mant & mask(-x.exp)) === 0n;
}

function evaluateElement(
  form: Form,
  element: ElementSpec,
  registers: Registers,
  options: EngineOptions,
  operation: Semantics,
): { steps: Step[]; bits: bigint } {
  const steps: Step[] = [];
  const dest = FORMATS[element.dest.format];
  const rules = sectionRules(form.family);
  const has = (m: AnyModifier) => form.modifiers.includes(m);
  const sectionRule = (text: string): RuleRef => ({
    source: 'ptx',
    section: form.section.section,
    text,
  });
  const push = (step: StepBody, rule: RuleRef, decision?: DecisionId) =>
    steps.push({ ...step, rule, ...(decision ? { decision } : {}) } as Step);
  const ctx: ElementContext = {
    form,
    element,
    options,
    dest,
    rules,
    has,
    record: (step, text, decision) => push(step, sectionRule(text), decision),
    recordRule: push,
  };
  const write = (bits: bigint) => {
    const place = element.dest;
    push(
      {
        kind: 'result',
        slot: place.slot,
        valueBits: place.value,
        slotBits: hexOf(
          bits << BigInt(place.value.lo - place.slot.lo),
          place.slot.hi - place.slot.lo + 1,
        ),
        result: bitsView(bits, dest),
      },
      sectionRule(rules.write),
      dest.name === 'tf32' ? 'cvt-tf32-layout' : undefined,
    );
    return { steps, bits };
  };

  // read (a matrix form's tf32 elements are the upper 19 bits of their .b32: the rest is ignored)
  const reads = element.inputs.map((place) => readPlace(place, registers));
  const padded = reads.some((r) => r.padding !== null && BigInt(r.padding) !== 0n);
  // A subnormal .f32 input that .ftz leaves as it is (into .f16: decision cvt-ftz-f16-source).
  const keptSubnormal =
    has('ftz') &&
    reads.some((r, i) => {
      const f = FORMATS[element.inputs[i]!.format];
      const bits = BigInt(r.bits);
      return (
        f.name === 'f32' &&
        !ftzApplies(form, element, 'input', f) &&
        flushSubnormal(bits, f) !== bits
      );
    });
  const tf32 = form.family === 'matrix' && element.inputs.some((p) => p.format === 'tf32');
  push(
    { kind: 'inputs', operands: reads },
    inputsRule(form),
    tf32
      ? 'cvt-tf32-layout'
      : padded
        ? 'cvt-input-padding'
        : keptSubnormal
          ? 'cvt-ftz-f16-source'
          : undefined,
  );
  let inputs: Input[] = reads.map((r, i) => ({
    name: r.operand,
    bits: BigInt(r.bits),
    format: FORMATS[element.inputs[i]!.format],
  }));

  // .oob: an OOB-NaN multiplicand (a or b) makes the element +0.0 (measured on sm_90).
  if (has('oob')) {
    const pattern = BigInt(options.oobNanBits);
    const f = inputs[0]!.format;
    const holding = inputs.filter((i) => isOobNaN(i.bits, f, pattern)).map((i) => i.name);
    const forcesZero = oobForcesZero(inputs[0]!.bits, inputs[1]!.bits, f, pattern);
    push(
      { kind: 'oob-check', oobOperands: holding, forcesZero, pattern: formatHex(pattern, f) },
      sectionRule(rules.oob),
      'oob-nan-pattern',
    );
    if (forcesZero) return write(0n);
  }

  // .ftz on the inputs.
  if (has('ftz')) {
    inputs = inputs.map((input) => {
      if (!ftzApplies(form, element, 'input', input.format)) return input;
      const after = flushSubnormal(input.bits, input.format);
      if (after !== input.bits)
        push(
          {
            kind: 'flush-input',
            operand: input.name,
            before: bitsView(input.bits, input.format),
            after: bitsView(after, input.format),
          },
          sectionRule(rules.ftz),
        );
      return { ...input, bits: after };
    });
  }

  // The operation.
  const outcome: Outcome = operation(ctx, inputs);
  let pending: Pending;
  let tininess: Tininess | null = null;
  if (outcome.kind === 'exact') {
    ({ pending, tininess } = roundExact(ctx, outcome, element, registers, inputs, push));
  } else {
    pending = outcome.value;
  }

  // .ftz on the result: a tiny rounded result, or a subnormal decided one.
  if (has('ftz') && ftzApplies(form, element, 'result', dest) && 'bits' in pending) {
    const before = pending.bits;
    if (tininess) {
      if (tininess.before) {
        const after = flushTinyResult(before, dest, isTiny(tininess, options.ftzTininess));
        push(
          {
            kind: 'flush-result',
            before: bitsView(before, dest),
            after: bitsView(after, dest),
            tininess: options.ftzTininess,
            tinyBeforeRounding: tininess.before,
            tinyAfterRounding: tininess.after,
          },
          sectionRule(rules.ftz),
          'ftz-after-rounding',
        );
        pending = { bits: after };
      }
    } else {
      const after = flushSubnormal(before, dest);
      if (after !== before) {
        push(
          { kind: 'flush-result', before: bitsView(before, dest), after: bitsView(after, dest) },
          sectionRule(rules.ftz),
          outcome.kind === 'value' ? outcome.flushDecision : undefined,
        );
        pending = { bits: after };
      }
    }
  }

  // .satfinite
  if (has('satfinite')) {
    const nanRule = form.family === 'convert' ? cvtSatfiniteNaN(cvtFactsOf(form, element)) : 'keep';
    const out = satfinite(pending, dest, nanRule);
    // An infinity is beyond MAX_NORM (decision cvt-satfinite-infinity): the input's, whether the
    // destination has one (f16, e5m2) or not (e4m3, ue8m0).
    const infinite =
      'beyond' in pending
        ? pending.infinite === true
        : 'bits' in pending && isInfBits(pending.bits, dest);
    const decision: DecisionId | undefined =
      out.case === 'nan'
        ? nanRule === 'keep'
          ? 'canonical-nan'
          : 'cvt-nan'
        : infinite
          ? 'cvt-satfinite-infinity'
          : undefined;
    push(
      {
        kind: 'satfinite',
        case: out.case,
        before: 'bits' in pending ? bitsView(pending.bits, dest) : null,
        after: bitsView(out.bits, dest),
      },
      sectionRule(rules.satfinite),
      decision,
    );
    pending = { bits: out.bits };
  }
  if (!('bits' in pending)) throw new Error(`${form.text}: the result needs .satfinite`);
  let bits = pending.bits;

  // .sat and .relu: always recorded, also where they change nothing.
  const negativeZero = (b: bigint) => isZeroBits(b, dest) && isNegative(b, dest);
  if (has('sat')) {
    const after = saturate(bits, dest);
    push(
      { kind: 'saturate', before: bitsView(bits, dest), after: bitsView(after, dest) },
      sectionRule(rules.sat),
      negativeZero(bits) ? 'sat-negative-zero' : undefined,
    );
    bits = after;
  }
  if (has('relu')) {
    const after = relu(bits, dest);
    push(
      { kind: 'relu', before: bitsView(bits, dest), after: bitsView(after, dest) },
      sectionRule(rules.relu),
      negativeZero(bits)
        ? 'relu-negative-zero'
        : isNaNBits(bits, dest)
          ? 'canonical-nan'
          : undefined,
    );
    bits = after;
  }
  return write(bits);
}

/**
 * The exact value rounded once to the destination: the round step, what an overflow gives
 * (unless .satfinite settles it), ue8m0's missing zero, and whether the value was tiny. A
 * conversion without a rounding (widening, or the same type) is exact; so is one to .f64, and
 * an integer rounding of an integral value.
 */
function roundExact(
  ctx: ElementContext,
  outcome: Extract<Outcome, { kind: 'exact' }>,
  element: ElementSpec,
  registers: Registers,
  inputs: readonly Input[],
  push: (step: StepBody, rule: RuleRef, decision?: DecisionId) => void,
): { pending: Pending; tininess: Tininess } {
  const { form, dest, rules } = ctx;
  const x = outcome.x;
  const representable = encodeFinite(x, dest) !== null;
  ctx.record(
    { kind: 'exact', expression: outcome.expression, value: exactValueOfDyadic(x), representable },
    outcome.rule,
  );
  const mode = form.family === 'convert' ? form.rounding : (form.rounding ?? 'rn');
  const rounds =
    mode !== null &&
    (isIntegerRounding(mode) ? !isIntegral(x) : dest.name !== 'f64' || !representable);
  if (!rounds) {
    const e = x.exp + bitLength(x.mant) - 1;
    const tiny = e < dest.emin;
    return { pending: { bits: encodeFinite(x, dest)! }, tininess: { before: tiny, after: tiny } };
  }
  const random: RandomBits | undefined = element.rbits && {
    value: field(registers.rbits ?? 0n, element.rbits.hi, element.rbits.lo),
    count: element.rbits.hi - element.rbits.lo + 1,
    sourceLsb: lsbExponent(x, inputs[0]!.format),
  };
  const r = roundToFormat(dyadicMagnitude(x), dest, mode, random);
  const rsDecision: DecisionId | undefined =
    mode === 'rs'
      ? r.step.subnormal || r.tininess.before
        ? 'cvt-rs-subnormal'
        : 'cvt-rs-rbits'
      : undefined;
  push(
    r.step,
    { source: 'ptx', section: form.section.section, text: rules.rounding[mode] },
    rsDecision,
  );
  const tininess = isIntegerRounding(mode) ? { before: false, after: false } : r.tininess;
  if (r.overflow) {
    if (ctx.has('satfinite')) return { pending: { beyond: true, negative: x.negative }, tininess };
    const { bits, to } = overflowResult(dest, x.negative, r.awayFromZero);
    push(
      { kind: 'overflow', mode, to, result: bitsView(bits, dest) },
      overflowRule,
      to === 'nan' ? 'cvt-ue8m0' : undefined,
    );
    return { pending: { bits }, tininess };
  }
  if (r.belowLeast) {
    push(
      { kind: 'unsigned', what: 'least-value', result: bitsView(0n, dest) },
      {
        source: 'ptx',
        section: form.section.section,
        text: 'ue8m0: an 8-bit unsigned format, 2^(e-127), no zero; NaN 0xff',
      },
      'cvt-ue8m0',
    );
    return { pending: { bits: 0n }, tininess };
  }
  if (tininess.before) {
    push(
      {
        kind: 'tininess',
        result: bitsView(r.bits!, dest),
        tinyBeforeRounding: tininess.before,
        tinyAfterRounding: tininess.after,
        inexact: r.inexact,
      },
      ieeeRule(
        '7.5',
        'a nonzero result below 2^emin in magnitude is tiny, judged before or after rounding; tiny and inexact is underflow. By default PTX keeps subnormal results (gradual underflow).',
      ),
    );
  }
  return { pending: { bits: r.bits! }, tininess };
}
