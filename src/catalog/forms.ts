import { INSTRUCTIONS, type InstructionRecord, type SyntaxLine } from './instructions.ts';
import { baselineTarget } from './targets.ts';
import { maxPtx } from './ptx-versions.ts';
import { slotCombinations } from './generate.ts';
import type {
  FormatName,
  InstrType,
  Modifier,
  Opcode,
  Operand,
  OperandName,
  Requirement,
  RoundingMode,
} from './types.ts';

/** One concrete instruction form, e.g. `fma.rn.relu.bf16x2`, generated from a syntax line. */
export interface Form {
  /** Canonical PTX text of the instruction (no operands): `fma.rn.relu.bf16x2`. */
  readonly text: string;
  readonly opcode: Opcode;
  readonly type: InstrType;
  /** Modifiers in the order the spec writes them. */
  readonly modifiers: readonly Modifier[];
  readonly record: InstructionRecord;
  readonly line: SyntaxLine;
  readonly operands: readonly Operand[];
  /** Requirements that apply to this form (its type and modifiers). */
  readonly requirements: readonly Requirement[];
  /** Least baseline target and PTX ISA version at which the form is valid. */
  readonly minTarget: string;
  readonly minPtx: string;
  /** Rounding mode in effect: the explicit one, or the slot's default. */
  readonly rounding: RoundingMode | null;
  /**
   * Whether a syntax line of the spec lists the form. False for the forms only ptxas 13.0
   * assembles (SyntaxLine.origin): shown with UNDOCUMENTED_FORM_FLAG wherever the form is.
   */
  readonly documented: boolean;
}

export { slotCombinations };

export { UNDOCUMENTED_FORM_FLAG } from './instruction.ts';

export function laneFormat(type: InstrType): FormatName {
  return type.includes('bf16') ? 'bf16' : 'f16';
}

export function isPacked(type: InstrType): boolean {
  return type.endsWith('x2');
}

export function isMixed(type: InstrType): boolean {
  return type.startsWith('f32.');
}

/** Operand list and register widths, from the spec's syntax and description paragraphs. */
export function operandsOf(record: InstructionRecord, type: InstrType): Operand[] {
  const names: OperandName[] = /d, a, b, c;/.test(record.lines[0]!.text)
    ? ['d', 'a', 'b', 'c']
    : /d, a, c;/.test(record.lines[0]!.text)
      ? ['d', 'a', 'c']
      : /d, a, b;/.test(record.lines[0]!.text)
        ? ['d', 'a', 'b']
        : ['d', 'a'];
  return names.map((name): Operand => {
    if (isMixed(type)) {
      // Mixed precision: d and c are .f32; a and b hold the 16-bit .atype.
      const wide = name === 'd' || name === 'c';
      return { name, bits: wide ? 32 : 16, lanes: 1, format: wide ? 'f32' : laneFormat(type) };
    }
    const packed = isPacked(type);
    return { name, bits: packed ? 32 : 16, lanes: packed ? 2 : 1, format: laneFormat(type) };
  });
}

export function requirementsFor(
  record: InstructionRecord,
  type: InstrType,
  modifiers: readonly Modifier[],
): Requirement[] {
  return record.requirements.filter(
    (r) => (!r.types || r.types.includes(type)) && (!r.modifier || modifiers.includes(r.modifier)),
  );
}

function buildForms(): Form[] {
  const seen = new Map<string, Form>();
  for (const record of INSTRUCTIONS) {
    for (const line of record.lines) {
      for (const type of line.types) {
        for (const modifiers of slotCombinations(line.slots)) {
          const text = [record.opcode, ...modifiers, type].join('.');
          if (seen.has(text)) continue;
          const requirements = requirementsFor(record, type, modifiers);
          const sm = Math.max(...requirements.map((r) => r.sm));
          const target = baselineTarget(sm);
          const rndSlot = line.slots.find((s) => s.name === 'rnd');
          const explicit = modifiers.find((m): m is RoundingMode =>
            ['rn', 'rz', 'rm', 'rp'].includes(m),
          );
          seen.set(text, {
            text,
            opcode: record.opcode,
            type,
            modifiers,
            record,
            line,
            operands: operandsOf(record, type),
            requirements,
            minTarget: target.name,
            minPtx: maxPtx([...requirements.map((r) => r.ptx), target.minPtx]),
            rounding: explicit ?? (rndSlot?.default as RoundingMode | undefined) ?? null,
            documented: line.origin !== 'ptxas',
          });
        }
      }
    }
  }
  return [...seen.values()];
}

/**
 * Every valid form: the spec's, generated from its syntax lines, and those only ptxas
 * assembles (`documented: false`).
 */
export const FORMS: readonly Form[] = buildForms();

const formsByText = new Map(FORMS.map((f) => [f.text, f]));

export function findForm(text: string): Form | undefined {
  return formsByText.get(text);
}

export function formsOf(opcode: Opcode, type?: InstrType): Form[] {
  return FORMS.filter((f) => f.opcode === opcode && (type === undefined || f.type === type));
}

/** Records that define an opcode for a type (an opcode has a half and maybe a mixed record). */
export function recordFor(opcode: Opcode, type: InstrType): InstructionRecord | undefined {
  return INSTRUCTIONS.find(
    (r) => r.opcode === opcode && r.lines.some((l) => l.types.includes(type)),
  );
}

export function typesOf(opcode: Opcode): InstrType[] {
  const types = new Set<InstrType>();
  for (const r of INSTRUCTIONS)
    if (r.opcode === opcode) for (const l of r.lines) for (const t of l.types) types.add(t);
  return [...types];
}
