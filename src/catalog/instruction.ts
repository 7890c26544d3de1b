/**
 * One instruction model. A form — a half-precision `add.f16x2`, a mixed `fma.rn.f32.bf16`, a
 * `cvt.rn.satfinite.e4m3x2.f32`, a tensor-core `mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32`
 * — is the same kind of record: its registers, the elements placed in them (format and bit
 * range), its modifiers and its rounding, the operation each element computes, and the targets
 * and PTX ISA versions where it exists. A matrix form's registers hold vectors: A's row and B's
 * column of one output element, k elements each, and its operation is the dot product. Parser, validator, pickers,
 * the engine's pipeline, docs and tests all read forms through this one shape.
 */
import type { FormatName } from './formats.ts';
import type { AnyModifier, Rounding } from './modifiers.ts';
import type { PtxVersion } from './ptx-versions.ts';

/**
 * The registers of a PTX instruction, by the spec's names; a block-scaled mma's `scale_a` and
 * `scale_b` hold the scales of A's row and B's column that its selectors pick (9.7.14.3).
 */
export type RegisterName = 'd' | 'a' | 'b' | 'c' | 'e' | 'f' | 'rbits' | 'scale_a' | 'scale_b';
export type SourceName = Exclude<RegisterName, 'd'>;

/** Bits hi…lo of a register, inclusive. */
export interface BitRange {
  readonly hi: number;
  readonly lo: number;
}

export interface Register {
  readonly name: RegisterName;
  /**
   * Register width: .b8, .b16, .b32 (.f32) or .b64 (.f64); a matrix form's row or column is k
   * elements of its container width (256 bits for 16 .f16).
   */
  readonly bits: number;
  /**
   * The type the register holds, as the syntax writes it (`f16x2`, `f32`, `e4m3x2`; rbits `b32`);
   * a matrix form's row or column is its element type and k: `f16x16`, `e2m1x32`.
   */
  readonly type: string;
}

/** Where one value sits: its register, its slot, the value's own bits within the slot, its format. */
export interface Place {
  readonly operand: RegisterName;
  /** The element's bits; those outside `value` are zero padding (e2m3 in 8 bits, tf32's tail). */
  readonly slot: BitRange;
  readonly value: BitRange;
  readonly format: FormatName;
}

/**
 * What an element computes, the operation of the spec's semantics: each has one semantics file
 * in src/engine/semantics/.
 */
export type Operation =
  | 'add'
  | 'sub'
  | 'mul'
  | 'fma'
  | 'neg'
  | 'abs'
  | 'min'
  | 'max'
  | 'tanh'
  | 'ex2'
  | 'convert'
  | 'dot-product';

/** Half precision (9.7.4), mixed precision (9.7.5), a conversion (9.7.9.21), or a matrix instruction (9.7.14, 9.7.15). */
export type Family = 'half' | 'mixed' | 'convert' | 'matrix';

/** One statement of the semantics: `d[i] = op(inputs)`. */
export interface ElementSpec {
  /**
   * The element's number in the spec's statement: lane i of an x2 form (lane 0 = bits 15…0),
   * or the line of cvt's Semantics block (0 = the upper bits of d, converted from a); a matrix
   * form computes one element, 0.
   */
  readonly index: number;
  readonly dest: Place;
  /**
   * The operation's inputs in order: add a, b; fma a, b, c; mixed add a, c; cvt its one source;
   * a dot product a_0 … a_(k−1), b_0 … b_(k−1), c.
   */
  readonly inputs: readonly Place[];
  /** .rs: the bits of rbits this element's random bits come from (decision cvt-rs-rbits). */
  readonly rbits?: BitRange;
}

/**
 * Where a feature exists: "sm_N or higher", a choice of (sm, PTX ISA) pairs (e4m3x2: sm_89 from
 * 8.1, sm_90 from 7.8), or a list of architecture- or family-specific targets.
 */
export type TargetRule =
  | { readonly kind: 'baseline'; readonly sm: number }
  | {
      readonly kind: 'either';
      readonly options: readonly { readonly sm: number; readonly ptx: PtxVersion }[];
    }
  | { readonly kind: 'only'; readonly targets: readonly string[] };

/** One row of the Target ISA Notes / PTX ISA Notes, as it applies to one form. */
export interface FormRequirement {
  /** The feature in the spec's words (`add{.rnd}.{bf16,bf16x2}`). */
  readonly feature: string;
  /** What a message says requires it: `add.bf16`, `modifier .oob`, or the feature itself. */
  readonly subject: string;
  readonly ptx: PtxVersion;
  readonly target: TargetRule;
}

/** A spec table of special inputs and what they give (tanh, ex2). */
export type CornerInput = '-inf' | '-subnormal' | '-0' | '+0' | '+subnormal' | '+inf' | 'nan';
export type CornerResult = '+0.0' | '-0.0' | '+1.0' | '-1.0' | '+inf' | 'nan' | 'input';

export interface CornerCaseTable {
  readonly title: string;
  readonly rows: readonly { readonly input: CornerInput; readonly result: CornerResult }[];
}

/** An approximation's maximum error: 2^log2, absolute or relative. */
export interface ErrorBound {
  readonly kind: 'absolute' | 'relative';
  readonly log2: number;
  readonly text: string;
}

/** The spec section an instruction comes from, as the page and the trace cite it. */
export interface SpecSection {
  readonly section: string;
  readonly title: string;
  readonly anchor: string;
  /** The semantics block, as the spec gives it. */
  readonly semantics: string;
  readonly notes: readonly string[];
}

export interface Form {
  /** Canonical PTX text of the instruction (no operands): `cvt.rn.satfinite.e4m3x2.f32`. */
  readonly text: string;
  readonly opcode: string;
  readonly operation: Operation;
  readonly family: Family;
  /**
   * The types as written after the modifiers: `f16x2`, `f32.bf16`, `e4m3x2.f32`; a matrix form's
   * D, A, B (and C) types, `f32.f16.f16.f32` (wgmma `f32.e4m3.e4m3`).
   */
  readonly type: string;
  /** Modifiers in the order the syntax line writes them (a matrix form's layouts are in `matrix`). */
  readonly modifiers: readonly AnyModifier[];
  /**
   * The rounding in effect: the written one or the line's default; null where nothing rounds,
   * or where the rounding is not the form's (a tensor core's sum rounds by its model).
   */
  readonly rounding: Rounding | null;
  readonly section: SpecSection;
  /** The syntax line the form comes from, as the spec prints it. */
  readonly syntax: string;
  /** `d` first, then the sources in the order the syntax line names them. */
  readonly registers: readonly Register[];
  readonly elements: readonly ElementSpec[];
  readonly requirements: readonly FormRequirement[];
  /** Least target and PTX ISA version at which the form is valid. */
  readonly minTarget: string;
  readonly minPtx: PtxVersion;
  /**
   * Whether a syntax line of the spec lists the form. False for the forms only ptxas 13.0
   * assembles: shown with UNDOCUMENTED_FORM_FLAG wherever the form is.
   */
  readonly documented: boolean;
  /** The spec's table of special inputs for this form's type, where it has one. */
  readonly cornerCases?: readonly CornerCaseTable[];
  readonly errorBound?: ErrorBound;
  /** A matrix form's shape, layouts, kind, element types and fragments. */
  readonly matrix?: MatrixFacts;
}

export type MatrixLayout = 'row' | 'col';

/**
 * The registers of one fragment in each thread (9.7.14.5, 9.7.15.5.1): `count` registers of
 * `type` (a .b32 holds two .f16/.bf16, four 8-bit containers, or one .tf32), `elements` matrix
 * elements in all.
 */
export interface FragmentRegisters {
  readonly count: number;
  readonly type: 'b32' | 'f32' | 'f64';
  readonly elements: number;
}

export type BlockScaledKind = 'mxf8f6f4' | 'mxf4' | 'mxf4nvf4';
export type ScaleVectorSize = '1X' | '2X' | '4X';

/**
 * A block-scaled form's scales: `.stype`, and `.scale_vec_size` — how many chunks A's row and
 * B's column are divided into, each multiplied by its own scale (Table 35: scale_A is M × 1, 2
 * or 4). The one element reads `chunks` scales of each from `scale_a` and `scale_b`, those the
 * selectors {byte-id, thread-id} pick for its row and column.
 */
export interface BlockScaleFacts {
  readonly kind: BlockScaledKind;
  /** As written, or the kind's default where `.scale_vec_size` is left out (1X, 2X). */
  readonly scaleVec: ScaleVectorSize;
  readonly stype: 'ue8m0' | 'ue4m3';
  readonly chunks: 1 | 2 | 4;
}

/** What a matrix form is beyond its one output element: the instruction as the GPU runs it. */
export interface MatrixFacts {
  readonly instruction: 'mma' | 'wgmma';
  readonly shape: { readonly m: number; readonly n: number; readonly k: number };
  /** mma's .alayout and .blayout; null for wgmma, whose A and B layouts are its descriptors'. */
  readonly layouts: { readonly a: MatrixLayout; readonly b: MatrixLayout } | null;
  /** `.kind::f8f6f4` or a block-scaled kind, or null. */
  readonly kind: 'f8f6f4' | BlockScaledKind | null;
  /** `.block_scale` (9.7.14.3): the scales of the one element; null without. */
  readonly blockScale: BlockScaleFacts | null;
  /** The element types of D, A, B and C (wgmma's C is D). */
  readonly types: {
    readonly d: FormatName;
    readonly a: FormatName;
    readonly b: FormatName;
    readonly c: FormatName;
  };
  /** Threads that hold one product's fragments: 32 (a warp), 8 (m8n8k4 .f16), 128 (a warpgroup). */
  readonly threads: number;
  /** Each thread's registers of A, B, C and D (wgmma: A in registers, and D, which is also C). */
  readonly fragments: {
    readonly a: FragmentRegisters;
    readonly b: FragmentRegisters | null;
    readonly c: FragmentRegisters | null;
    readonly d: FragmentRegisters;
  };
  /** wgmma: where A may come from (a shared-memory descriptor or registers); B is a descriptor. */
  readonly aSources: readonly ('descriptor' | 'registers')[] | null;
  /** wgmma: the imm-trans-a / imm-trans-b operands exist (.f16/.bf16 only). */
  readonly transpose: boolean;
}

/** How a form the spec does not list, but ptxas assembles, is flagged to the user. */
export const UNDOCUMENTED_FORM_FLAG = 'assembles; behaviour not documented, not yet measured';

export function hasModifier(form: Form, modifier: AnyModifier): boolean {
  return form.modifiers.includes(modifier);
}

export function registerOf(form: Form, name: RegisterName): Register | undefined {
  return form.registers.find((r) => r.name === name);
}

/** The destination element formats, one per element (the same for every element today). */
export function destFormat(form: Form): FormatName {
  return form.elements[0]!.dest.format;
}
