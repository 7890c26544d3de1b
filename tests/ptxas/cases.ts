import { canonicalSpelling } from '../../src/catalog/assembler-notes.ts';
import { FORMS, INSTR_TYPES, MODIFIERS, type Form } from '../../src/catalog/index.ts';

/**
 * The instructions the agreement test sends to ptxas: every catalog form, and near misses made
 * by mutating them: one modifier added or replaced (in the spec's order), dropped, swapped with
 * its neighbour or moved after the type; the modifiers kept but the type changed; a case
 * mistake (.nan); half of .xorsign.abs. Mutations that land on a catalog form are dropped.
 */

export interface AgreementCase {
  /** Instruction without operands, as the validator and ptxas see it: `fma.rn.relu.bf16`. */
  readonly head: string;
  /** The full PTX line with registers of the right width. */
  readonly line: string;
  readonly kind: 'form' | 'near-miss';
}

const OPERAND_COUNT: Record<string, number> = {
  add: 3,
  sub: 3,
  mul: 3,
  min: 3,
  max: 3,
  fma: 4,
  neg: 2,
  abs: 2,
  tanh: 2,
  ex2: 2,
};

/** Registers for a head: `.b16 h` for 16-bit values, `.b32 r` for x2, `.f32 f` for mixed d and c. */
export function operandsFor(head: string): string {
  const tokens = head.split('.');
  const count = OPERAND_COUNT[tokens[0]!] ?? 3;
  const f32At = tokens.indexOf('f32');
  const mixed = f32At > 0 && ['f16', 'bf16'].includes(tokens[f32At + 1] ?? '');
  const packed = tokens.slice(1).some((t) => t.endsWith('x2'));
  const names =
    count === 4 ? ['d', 'a', 'b', 'c'] : count === 3 ? ['d', 'a', mixed ? 'c' : 'b'] : ['d', 'a'];
  return names
    .map((name, i) => {
      if (mixed) return name === 'd' || name === 'c' ? `f${i}` : `h${i}`;
      return packed ? `r${i}` : `h${i}`;
    })
    .join(', ');
}

const caseOf = (head: string, kind: AgreementCase['kind']): AgreementCase => ({
  head,
  line: `${head} ${operandsFor(head)};`,
  kind,
});

/** Extra tokens that users write by mistake: halves of xorsign.abs, and .nan for .NaN. */
const MISTAKE_TOKENS = ['xorsign', 'abs', 'nan'];
const INSERTABLE: readonly string[] = [...MODIFIERS, ...MISTAKE_TOKENS];

function mutations(form: Form): string[] {
  const mods: string[] = [...form.modifiers];
  const type = form.type;
  const join = (ms: readonly string[], t: string = type) => [form.opcode, ...ms, t].join('.');
  const out: string[] = [];
  // Added or replaced modifiers go where the spec's order puts them: these probe "is the
  // combination allowed"; the swaps and moves below probe the order on its own.
  for (const extra of INSERTABLE) {
    if (!mods.includes(extra)) out.push(canonicalSpelling(join([...mods, extra])));
  }
  for (let i = 0; i < mods.length; i++) {
    out.push(join([...mods.slice(0, i), ...mods.slice(i + 1)]));
    for (const other of INSERTABLE) {
      if (!mods.includes(other)) {
        out.push(canonicalSpelling(join(mods.map((m, j) => (j === i ? other : m)))));
      }
    }
    if (i + 1 < mods.length) {
      const swapped = [...mods];
      [swapped[i], swapped[i + 1]] = [swapped[i + 1]!, swapped[i]!];
      out.push(join(swapped));
    }
    // The modifier written after the type: `add.f32.f16.sat`.
    out.push(`${join(mods.filter((_, j) => j !== i))}.${mods[i]}`);
  }
  for (const other of INSTR_TYPES) if (other !== type) out.push(join(mods, other));
  return out;
}

/** Every catalog form, then each distinct near miss that is not itself a catalog form. */
export function agreementCases(): AgreementCase[] {
  const formHeads = new Set(FORMS.map((f) => f.text));
  const cases = FORMS.map((f) => caseOf(f.text, 'form'));
  const seen = new Set(formHeads);
  for (const form of FORMS) {
    for (const head of mutations(form)) {
      if (seen.has(head)) continue;
      seen.add(head);
      cases.push(caseOf(head, 'near-miss'));
    }
  }
  return cases;
}
