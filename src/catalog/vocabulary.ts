/**
 * What the parser reads, derived from the records: the opcodes, and for each way of writing
 * types (record.ts, TypeGrammar) the modifiers and types its records use, in the catalog's
 * order. The arithmetic (types written as one unit: `.f16x2`, `.f32.bf16`) shares one
 * vocabulary; cvt (a destination and a source type) has its own, and so has each matrix
 * instruction (mma, wgmma.mma_async: one type per operand, read in order).
 */
import { formsOfOpcode, sourceOf } from './all-forms.ts';
import type { Form } from './instruction.ts';
import { ALL_MODIFIERS, type AnyModifier } from './modifiers.ts';
import {
  typeParts,
  type InstructionRecord,
  type MatrixGrammar,
  type SyntaxLine,
} from './record.ts';
import { RECORDS } from './records/index.ts';

type PairGrammar = Extract<InstructionRecord['typeGrammar'], { kind: 'pair' }>;

/** A form as the parser matches it: its modifiers, and its syntax line's slots. */
export interface Candidate {
  readonly form: Form;
  readonly record: InstructionRecord;
  readonly line: SyntaxLine;
  readonly modifiers: readonly AnyModifier[];
  readonly documented: boolean;
}

/** The vocabulary of one way of writing types. */
export interface Vocabulary {
  /**
   * `unit`: one type, written as one unit; `pair`: a destination and a source type; `matrix`:
   * one type per operand (and mma's layouts), each read by its position.
   */
  readonly kind: 'unit' | 'pair' | 'matrix';
  /** The modifiers its records use, in the catalog's order (modifiers.ts). */
  readonly modifiers: readonly AnyModifier[];
  /** Its type tokens (`f16x2`, `f32`, `e4m3x2`), in the catalog's order. */
  readonly typeTokens: readonly string[];
  /** Its types as written after the modifiers (`f16x2`, `f32.bf16`, `e4m3x2.f32`), in form order. */
  readonly types: readonly string[];
  /** Modifiers of two tokens (`xorsign.abs`), by each of their tokens. */
  readonly halves: ReadonlyMap<string, AnyModifier>;
  /** The mixed types' destination token (`f32`) and their source tokens (`f16`, `bf16`). */
  readonly mixed: { readonly wide: string; readonly sources: readonly string[] } | null;
  /** For a destination and a source type: the pair grammar (record.ts), with its example. */
  readonly pair: PairGrammar | null;
  /** For a matrix instruction: its grammar (record.ts). */
  readonly matrix: MatrixGrammar | null;
}

/** An opcode's forms as the parser matches them, made with its forms (all-forms.ts) on first use. */
const byOpcode = new Map<string, readonly Candidate[]>();

/** The forms of an opcode, of one type when given, in catalog order. */
export function candidatesOf(opcode: string, type?: string): readonly Candidate[] {
  let all = byOpcode.get(opcode);
  if (!all) {
    all = formsOfOpcode(opcode).map((form) => {
      const { record, line } = sourceOf(form);
      return { form, record, line, modifiers: form.modifiers, documented: form.documented };
    });
    byOpcode.set(opcode, all);
  }
  return type === undefined ? all : all.filter((c) => c.form.type === type);
}

const unique = <T>(xs: Iterable<T>): T[] => [...new Set(xs)];

function buildVocabulary(
  kind: Vocabulary['kind'],
  records: readonly InstructionRecord[],
): Vocabulary {
  const forms = unique(records.map((r) => r.opcode))
    .flatMap((opcode) => candidatesOf(opcode))
    .filter((c) => records.includes(c.record));
  const used = new Set(forms.flatMap((c) => c.modifiers));
  const modifiers = ALL_MODIFIERS.filter((m) => used.has(m));
  const types = unique(forms.map((c) => c.form.type));
  const grammars = records.map((r) => r.typeGrammar);
  const pair = grammars.find((g): g is PairGrammar => g.kind === 'pair');
  const matrix = grammars.find((g): g is MatrixGrammar => g.kind === 'matrix');
  const mixedTypes = unique(
    records
      .filter((r) => r.typeGrammar.kind === 'mixed')
      .flatMap((r) => r.lines.flatMap((l) => l.types)),
  );
  const halves = new Map<string, AnyModifier>();
  for (const m of modifiers) if (m.includes('.')) for (const t of m.split('.')) halves.set(t, m);
  return {
    kind,
    modifiers,
    typeTokens: pair
      ? pair.tokens
      : matrix
        ? matrix.tokens
        : unique(types.flatMap((t) => t.split('.'))),
    types,
    halves,
    mixed:
      mixedTypes.length > 0
        ? {
            wide: typeParts(mixedTypes[0]!).dtype,
            sources: unique(mixedTypes.map((t) => typeParts(t).atype)),
          }
        : null,
    pair: pair ?? null,
    matrix: matrix ?? null,
  };
}

/** A vocabulary built the first time an opcode read in it asks (it generates their forms). */
function once(build: () => Vocabulary): () => Vocabulary {
  let built: Vocabulary | null = null;
  return () => (built ??= build());
}

const UNIT = once(() =>
  buildVocabulary(
    'unit',
    RECORDS.filter((r) => r.typeGrammar.kind === 'one' || r.typeGrammar.kind === 'mixed'),
  ),
);
const PAIR = once(() =>
  buildVocabulary(
    'pair',
    RECORDS.filter((r) => r.typeGrammar.kind === 'pair'),
  ),
);

/** Each matrix instruction's own vocabulary, by opcode. */
const MATRIX = new Map(
  RECORDS.filter((r) => r.typeGrammar.kind === 'matrix').map((r) => [
    r.opcode,
    once(() => buildVocabulary('matrix', [r])),
  ]),
);

/**
 * Every opcode of FORMS (the arithmetic and cvt), in the order of the records: what the page's
 * pickers offer.
 */
export const ALL_OPCODES: readonly string[] = unique(
  RECORDS.filter((r) => r.typeGrammar.kind !== 'matrix').map((r) => r.opcode),
);

/**
 * Every opcode the parser reads: ALL_OPCODES, then the matrix records' (mma, wgmma.mma_async:
 * an opcode of two tokens).
 */
export const PARSER_OPCODES: readonly string[] = unique(RECORDS.map((r) => r.opcode));

/** The vocabulary an opcode's types are read in. */
export function vocabularyFor(opcode: string): Vocabulary {
  const matrix = MATRIX.get(opcode);
  if (matrix) return matrix();
  return RECORDS.some((r) => r.opcode === opcode && r.typeGrammar.kind === 'pair')
    ? PAIR()
    : UNIT();
}

/** The types of an opcode, in catalog order. */
export function typesOf(opcode: string): string[] {
  return unique(candidatesOf(opcode).map((c) => c.form.type));
}
