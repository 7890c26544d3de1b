/**
 * What the trace checker expects, and the pieces every instruction's model shares: a step is
 * every field the trace should have, its rule an expectation (the source it cites, the section,
 * words its text must contain), and a field the model can bound but not write is a predicate.
 * The shapes follow docs/trace.md: bits are lower-case hex strings, a value is a view (format,
 * bits, class, exact value), an input is a view with the place it was read from.
 */
import type { ExpectedView } from './trace-views.ts';
import { hexOf } from './trace-views.ts';

export interface RuleExpectation {
  readonly source: 'ptx' | 'ieee-754' | 'tensor-core-model';
  readonly section: string;
  /** Words (patterns) the rule's text must contain; at least one, so an empty text is caught. */
  readonly mentions: readonly RegExp[];
}

/** A step as the checker expects it: every field but `rule`, which is an expectation. */
export interface ExpectedStep {
  readonly kind: string;
  readonly rule: RuleExpectation;
  readonly [field: string]: unknown;
}

/** A field checked by a predicate instead of equality (a value the model can bound, not write). */
export interface FieldCheck {
  readonly check: (actual: unknown) => string | null;
}

export interface ExpectedElement {
  readonly index: number;
  readonly steps: readonly ExpectedStep[];
  /** The element's result: hex of its format's width. */
  readonly result: string;
}

export interface ExpectedResult {
  readonly form: string;
  readonly d: string;
  readonly dBits: number;
  readonly dType: string;
  readonly elements: readonly ExpectedElement[];
  readonly decisions: readonly string[];
}

/** The source registers of an instruction, as unsigned integers of their widths. */
export type ModelRegisters = Readonly<
  Partial<Record<'a' | 'b' | 'c' | 'e' | 'f' | 'rbits', bigint>>
>;

export interface BitRange {
  readonly hi: number;
  readonly lo: number;
}

export function ptx(section: string, ...mentions: RegExp[]): RuleExpectation {
  if (mentions.length === 0) throw new Error('a rule expectation needs a word to look for');
  return { source: 'ptx', section, mentions };
}

export function ieee(section: string, ...mentions: RegExp[]): RuleExpectation {
  if (mentions.length === 0) throw new Error('a rule expectation needs a word to look for');
  return { source: 'ieee-754', section, mentions };
}

/** Bits hi…lo of a register. */
export function bitsAt(register: bigint, range: BitRange): bigint {
  return (register >> BigInt(range.lo)) & ((1n << BigInt(range.hi - range.lo + 1)) - 1n);
}

/**
 * One input as read: the view of its value bits, the register, the slot and the value's bits in
 * it, and the slot's other bits (padding) as hex when it has any.
 */
export function elementRead(
  operand: string,
  register: bigint,
  slot: BitRange,
  valueBits: BitRange,
  view: (bits: bigint) => ExpectedView,
): Record<string, unknown> {
  const above = slot.hi - valueBits.hi;
  const below = valueBits.lo - slot.lo;
  let padding: string | null = null;
  if (above + below > 0) {
    const high = above > 0 ? bitsAt(register, { hi: slot.hi, lo: valueBits.hi + 1 }) : 0n;
    const low = below > 0 ? bitsAt(register, { hi: valueBits.lo - 1, lo: slot.lo }) : 0n;
    padding = hexOf((high << BigInt(below)) | low, above + below);
  }
  return {
    operand,
    slot,
    valueBits,
    padding,
    ...view(bitsAt(register, valueBits)),
  };
}

/** The result step: the element's bits written into its slot of d, padding zero. */
export function resultStep(
  section: string,
  slot: BitRange,
  valueBits: BitRange,
  view: ExpectedView,
  mentions: RegExp,
  decision?: string,
): ExpectedStep {
  const bits = BigInt(view.bits);
  return {
    kind: 'result',
    slot,
    valueBits,
    slotBits: hexOf(bits << BigInt(valueBits.lo - slot.lo), slot.hi - slot.lo + 1),
    result: view,
    ...(decision ? { decision } : {}),
    rule: ptx(section, mentions),
  };
}

/**
 * The decisions of a result: the form's own first, then each step's in order of first use (a
 * step before the steps it holds: a tensor core's fused steps and fma links).
 */
export function decisionsOf(
  formDecisions: readonly string[],
  elements: readonly ExpectedElement[],
): string[] {
  const out = [...formDecisions];
  const visit = (steps: readonly ExpectedStep[]) => {
    for (const step of steps) {
      if (typeof step.decision === 'string' && !out.includes(step.decision))
        out.push(step.decision);
      if (Array.isArray(step.steps)) visit(step.steps as ExpectedStep[]);
    }
  };
  for (const element of elements) visit(element.steps);
  return out;
}

/** One input to the checker: a form, its registers, and the engine options it runs under. */
export interface TraceVector {
  readonly form: string;
  /** What the vector was made to show (a corner group, "every input", a boundary class). */
  readonly group: string;
  readonly registers: ModelRegisters;
  readonly options?: Partial<{
    readonly ftzTininess: 'after-rounding' | 'before-rounding';
    readonly oobNanBits: number;
    /** A matrix form's target (EngineOptions.target); absent: the engine's default. */
    readonly target: string;
  }>;
}
