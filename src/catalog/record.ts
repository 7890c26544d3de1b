/**
 * The one record of an instruction as the spec gives it: its syntax lines (each with the types
 * it stands for and its modifier slots, in the vocabulary of modifiers.ts), how its types are
 * written, how its registers hold the elements, the rows of its Target / PTX ISA Notes, its
 * section text, corner cases and error bounds. generate.ts turns every record into the forms of
 * instruction.ts; the parser reads an instruction through the records of its opcode.
 *
 * Adding an instruction is adding a record (records/): its syntax lines, and, where its
 * operation is new, one semantics file in src/engine/semantics/.
 */
import type { FormatName } from './formats.ts';
import type {
  BitRange,
  CornerCaseTable,
  ErrorBound,
  Family,
  MatrixLayout,
  Operation,
  RegisterName,
  SpecSection,
  TargetRule,
} from './instruction.ts';
import type { AnyModifier, Rounding } from './modifiers.ts';
import type { PtxVersion } from './ptx-versions.ts';

/** One `{.x}` or `.x` position of a syntax line. A slot with several options is a choice. */
export interface Slot {
  readonly name: string;
  readonly options: readonly AnyModifier[];
  readonly optional: boolean;
  /** The rounding that applies when an optional rounding slot is left out (`.rn` for `{.rnd}`). */
  readonly default?: Rounding;
}

export interface SyntaxLine {
  /** The line as the spec prints it (for a ptxas line: written in the spec's style). */
  readonly text: string;
  /** The types the line stands for, each as written after the modifiers: `f16x2`, `f32.bf16`. */
  readonly types: readonly string[];
  readonly slots: readonly Slot[];
  /** The operands as the line writes them: `d, a, b`, `d, {a, b, e, f}, rbits`. */
  readonly operands: string;
  /**
   * `ptxas`: the spec has no such line, but ptxas 13.0 assembles its forms (assembler-notes.ts
   * says where). The spec documents no behaviour for them; the engine evaluates them under the
   * decision `ptxas-only-forms`. Absent: the line is the spec's.
   */
  readonly origin?: 'ptxas';
  /** A matrix line: the layouts of A and B it allows, and where they and the types stand. */
  readonly matrix?: MatrixLine;
}

/**
 * How a matrix line (mma, wgmma) writes what is not a modifier slot: `.alayout.blayout` (mma)
 * and the types, each at a position among the slots (0: before the first slot; slots.length:
 * after the last). `mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32` has its layouts and its
 * types after the shape, the third slot; the f64 forms write their rounding after the types.
 */
export interface MatrixLine {
  readonly layouts: {
    readonly a: readonly MatrixLayout[];
    readonly b: readonly MatrixLayout[];
  } | null;
  readonly layoutsAt: number;
  readonly typesAt: number;
  /** The line's other operand list, where the spec gives two (wgmma's A from registers). */
  readonly otherOperands?: string;
  /**
   * Its elements are packed without the record's containers (`.kind::mxf4`, `.kind::mxf4nvf4`:
   * "no explicit padding is necessary even though matrix elements are of type .e2m1").
   */
  readonly unpadded?: boolean;
}

/**
 * How a record's types are written after the opcode:
 *  - `one`: one type token (`.f16x2`);
 *  - `mixed`: the destination type and the source type as one unit, `.f32.atype`;
 *  - `pair`: a destination type and a source type (`.dtype.atype`), two tokens that may stand
 *    anywhere among the modifiers, the first written being the destination type. `tokens` are
 *    the types in the catalog's order; `excluded` names types of the spec's syntax the catalog
 *    leaves out, so that a message can say why.
 */
export type TypeGrammar =
  | { readonly kind: 'one' }
  | { readonly kind: 'mixed' }
  | MatrixGrammar
  | {
      readonly kind: 'pair';
      readonly tokens: readonly string[];
      /** A form whose name shows the order of the two types (`cvt.rn.f16.f32`). */
      readonly example: string;
      readonly excluded?: {
        readonly tokens: readonly string[];
        /** What they are (`integer type`) and what the catalog holds instead. */
        readonly what: string;
        readonly catalogHolds: string;
      };
    };

/**
 * How a matrix instruction's types are written: one type token per operand in `roles` (mma
 * `.dtype.atype.btype.ctype`, wgmma `.dtype.atype.btype`), read in the order written wherever
 * they stand among the modifiers, as ptxas 13.0 reads them; mma's `layouts` tokens (`.row`,
 * `.col`) likewise, A's first. `example` shows the order.
 */
export interface MatrixGrammar {
  readonly kind: 'matrix';
  readonly roles: readonly ('d' | 'a' | 'b' | 'c')[];
  readonly tokens: readonly FormatName[];
  /**
   * The scale types a block-scaled form writes after the roles' types (mma `.stype`, 9.7.14.3),
   * among `tokens`.
   */
  readonly scaleTokens?: readonly FormatName[];
  readonly layouts: readonly MatrixLayout[] | null;
  readonly example: string;
}

/**
 * When a requirement applies to a form: every fact named holds. The types are as written:
 * `type` the whole (`f16x2`, `f32.bf16`, `e4m3x2.f32`), `dtype` and `atype` its destination and
 * source parts (a type of one token is both).
 */
export interface Condition {
  readonly types?: readonly string[];
  readonly dtypes?: readonly string[];
  readonly atypes?: readonly string[];
  /** One of these modifiers is written. */
  readonly withAny?: readonly AnyModifier[];
  /** Every one of these modifiers is written. */
  readonly withAll?: readonly AnyModifier[];
  /** None of these modifiers is written. */
  readonly without?: readonly AnyModifier[];
}

/** One row of the Target ISA Notes / PTX ISA Notes. */
export interface RecordRequirement {
  /** The feature in the spec's words (`add{.rnd}.{bf16,bf16x2}`). */
  readonly feature: string;
  /**
   * What a message says requires it: the feature itself, the form's opcode and type
   * (`add.bf16`: "add requires sm_90" would wrongly speak for add.f16), or a modifier.
   */
  readonly subject: 'feature' | 'instruction' | { readonly modifier: AnyModifier };
  readonly ptx: PtxVersion;
  readonly target: TargetRule;
  /** The forms it applies to: those meeting any of these conditions; every form when absent. */
  readonly when?: readonly Condition[];
}

/** What each register holds: the destination type, the source type, or random bits (.b32). */
export type RegisterContent = 'dtype' | 'atype' | 'b32';

/**
 * How the registers hold the elements:
 *  - `order`: `low-first` numbers the elements from the low bits (lane 0 = bits 15…0 of an x2
 *    register, 9.7.4), `high-first` from the high bits (cvt's Semantics block: the value from a
 *    goes to the upper bits of d);
 *  - `registers`: what a register holds where it is not the rule (d the destination type,
 *    rbits random bits, every other source the source type): the mixed forms' c is .f32;
 *  - `randomBits`: under .rs, the bits of rbits each element's random bits come from, per
 *    destination type (decision cvt-rs-rbits).
 */
export interface RegisterLayout {
  readonly order: 'low-first' | 'high-first';
  readonly registers?: Readonly<Partial<Record<RegisterName, RegisterContent>>>;
  readonly randomBits?: Readonly<Record<string, readonly BitRange[]>>;
  /**
   * A matrix form's row and column: element i of a in slot i from the low bits, each slot the
   * container of its type — the format's own slot, or where the record says otherwise (mma's
   * 8-bit containers of FP6 and FP4, the value at `value` within them).
   */
  readonly containers?: Readonly<
    Partial<Record<FormatName, { readonly bits: number; readonly value: BitRange }>>
  >;
}

/** A corner-case table or an error bound, and the types it is stated for. */
export type ForTypes<T> = T & { readonly types: readonly string[] };

/** What a matrix record (mma, wgmma) says beyond its one output element: how the GPU holds it. */
export interface MatrixRecord {
  readonly instruction: 'mma' | 'wgmma';
  /**
   * Threads that hold one product's fragments (a warp, a warpgroup), and the forms where fewer
   * do (m8n8k4 with .f16: a warp computes four products, 9.7.14.5.1).
   */
  readonly threads: number;
  readonly fewerThreads?: { readonly when: Condition; readonly threads: number };
  /** The fragments a thread holds in registers: mma's A, B, C and D; wgmma's A (when in registers) and D. */
  readonly fragments: readonly ('a' | 'b' | 'c' | 'd')[];
  /** wgmma: where A may come from; B is always a shared-memory descriptor. */
  readonly aSources: readonly ('descriptor' | 'registers')[] | null;
  /** The A/B types whose forms take imm-trans-a and imm-trans-b (wgmma .f16, .bf16). */
  readonly transposeTypes: readonly FormatName[];
}

export interface InstructionRecord {
  readonly opcode: string;
  /** What each element computes: one semantics file in src/engine/semantics/ per operation. */
  readonly operation: Operation;
  readonly family: Family;
  readonly section: SpecSection;
  readonly typeGrammar: TypeGrammar;
  readonly lines: readonly SyntaxLine[];
  readonly layout: RegisterLayout;
  /** Modifiers ptxas 13.0 takes written more than once (measured by tests/ptxas). */
  readonly repeatable: readonly AnyModifier[];
  readonly requirements: readonly RecordRequirement[];
  readonly cornerCases?: readonly ForTypes<CornerCaseTable>[];
  readonly errorBounds?: readonly ForTypes<ErrorBound>[];
  /** A matrix instruction's facts beyond its element (matrix records only). */
  readonly matrix?: MatrixRecord;
}

/** The destination and source parts of a type as written: `f32.bf16` → f32, bf16; `f16` → f16, f16. */
export function typeParts(type: string): { readonly dtype: string; readonly atype: string } {
  const [dtype = type, atype = dtype] = type.split('.');
  return { dtype, atype };
}

/** Whether a condition holds for a form of this type and these modifiers. */
export function conditionHolds(
  c: Condition,
  type: string,
  modifiers: readonly AnyModifier[],
): boolean {
  const { dtype, atype } = typeParts(type);
  return (
    (!c.types || c.types.includes(type)) &&
    (!c.dtypes || c.dtypes.includes(dtype)) &&
    (!c.atypes || c.atypes.includes(atype)) &&
    (!c.withAny || c.withAny.some((m) => modifiers.includes(m))) &&
    (!c.withAll || c.withAll.every((m) => modifiers.includes(m))) &&
    (!c.without || !c.without.some((m) => modifiers.includes(m)))
  );
}

/** The requirements of a record that apply to a form of this type and these modifiers. */
export function requirementApplies(
  r: RecordRequirement,
  type: string,
  modifiers: readonly AnyModifier[],
): boolean {
  return !r.when || r.when.some((c) => conditionHolds(c, type, modifiers));
}
