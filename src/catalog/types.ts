/** Vocabulary of the catalog: opcodes, instruction types, modifiers, requirements. */

export const OPCODES = [
  'add',
  'sub',
  'mul',
  'fma',
  'neg',
  'abs',
  'min',
  'max',
  'tanh',
  'ex2',
] as const;
export type Opcode = (typeof OPCODES)[number];

/** Instruction type as written after the modifiers: a half type, or a mixed `f32.<atype>` pair. */
export const INSTR_TYPES = ['f16', 'f16x2', 'bf16', 'bf16x2', 'f32.f16', 'f32.bf16'] as const;
export type InstrType = (typeof INSTR_TYPES)[number];

/** Storage formats of one lane. */
export type FormatName = 'f16' | 'bf16' | 'f32';

/** A modifier as written, without its leading dot. `xorsign.abs` is one modifier of two tokens. */
export const MODIFIERS = [
  'rn',
  'rz',
  'rm',
  'rp',
  'approx',
  'ftz',
  'sat',
  'relu',
  'oob',
  'NaN',
  'xorsign.abs',
] as const;
export type Modifier = (typeof MODIFIERS)[number];

export const ROUNDING_MODIFIERS = ['rn', 'rz', 'rm', 'rp'] as const;
export type RoundingMode = (typeof ROUNDING_MODIFIERS)[number];

/** Is the modifier one of the rounding modifiers (`.rn .rz .rm .rp`)? */
export const isRoundingModifier = (m: Modifier): m is RoundingMode =>
  (ROUNDING_MODIFIERS as readonly Modifier[]).includes(m);

export type OperandName = 'd' | 'a' | 'b' | 'c';

export interface Operand {
  readonly name: OperandName;
  /** Register width in bits: 16 (.b16/.f16), 32 (.b32 packed x2, or .f32). */
  readonly bits: 16 | 32;
  /** Lanes in the register: 2 for packed x2 forms. */
  readonly lanes: 1 | 2;
  readonly format: FormatName;
}

/** "feature X needs sm_N or higher / PTX ISA V" — one row of the spec's Target/PTX ISA Notes. */
export interface Requirement {
  /** What the spec calls the feature, e.g. `add{.rnd}.bf16` or `modifier .oob`. */
  readonly feature: string;
  /** Baseline target number: "requires sm_N or higher". */
  readonly sm: number;
  readonly ptx: string;
  /** Applies only when the form has one of these types (all types when absent). */
  readonly types?: readonly InstrType[];
  /** Applies only when the form uses this modifier (always when absent). */
  readonly modifier?: Modifier;
}
