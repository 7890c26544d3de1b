import { FORMS as ALL_FORMS } from '../../src/catalog/all-forms.ts';
import type { Form } from '../../src/catalog/instruction.ts';
import { registerBits } from '../../src/catalog/layout.ts';
import { isRounding } from '../../src/catalog/modifiers.ts';
import { typeParts } from '../../src/catalog/record.ts';
import { vocabularyFor } from '../../src/catalog/vocabulary.ts';

/** The arithmetic's forms, modifiers and types, and cvt's (each in the catalog's order). */
const FORMS = ALL_FORMS.filter((f) => f.family !== 'convert');
const MODIFIERS = vocabularyFor('add').modifiers;
const INSTR_TYPES = vocabularyFor('add').types;
const CVT_FORMS = ALL_FORMS.filter((f) => f.family === 'convert');
const CVT_MODIFIERS = vocabularyFor('cvt').modifiers;
const CVT_TYPES = vocabularyFor('cvt').typeTokens;

/**
 * The instructions the agreement test sends to ptxas: every catalog form; near misses made by
 * mutating them: one modifier added or replaced (in the spec's order), dropped, swapped with its
 * neighbour or moved after the type; the modifiers kept but the type changed; a case mistake
 * (.nan); half of .xorsign.abs; and the spelling probes: every order of each form's tokens
 * (`.xorsign` and `.abs` apart, `.f32` and its source type apart) and each of its modifier
 * tokens written twice. Mutations that land on a catalog form's own text are dropped.
 */

export interface AgreementCase {
  /** Instruction without operands, as the validator and ptxas see it: `fma.rn.relu.bf16`. */
  readonly head: string;
  /** The full PTX line with registers of the right width. */
  readonly line: string;
  readonly kind: 'form' | 'near-miss' | 'spelling';
  /** The arithmetic of 9.7.4/9.7.5, or the float-to-float cvt of 9.7.9.21. */
  readonly family: 'arithmetic' | 'cvt';
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
  family: 'arithmetic',
});

/**
 * An order of modifier tokens that every syntax line agrees with (the catalog's own spelling
 * of each form follows it): where a near miss inserts a modifier.
 */
const TOKEN_ORDER = [
  'rn',
  'rz',
  'rm',
  'rp',
  'approx',
  'ftz',
  'NaN',
  'oob',
  'sat',
  'relu',
  'xorsign',
  'abs',
];
const TYPE_TOKENS = ['f32', 'f16', 'f16x2', 'bf16', 'bf16x2'];

/** The name with its modifier tokens in TOKEN_ORDER and the type last (`add.f16.sat` → `add.sat.f16`). */
export function specOrder(name: string): string {
  const [opcode = '', ...tokens] = name.split('.');
  const rank = (t: string) => {
    const i = TOKEN_ORDER.indexOf(t);
    return i < 0 ? TOKEN_ORDER.length : i;
  };
  const modifiers = tokens.filter((t) => !TYPE_TOKENS.includes(t));
  const types = tokens.filter((t) => TYPE_TOKENS.includes(t));
  const sorted = modifiers
    .map((t, i) => ({ t, i }))
    .sort((x, y) => rank(x.t) - rank(y.t) || x.i - y.i)
    .map((x) => x.t);
  // Mixed precision writes .f32 before the source type.
  types.sort((x, y) => (x === 'f32' ? -1 : y === 'f32' ? 1 : 0));
  return [opcode, ...sorted, ...types].join('.');
}

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
    if (!mods.includes(extra)) out.push(specOrder(join([...mods, extra])));
  }
  for (let i = 0; i < mods.length; i++) {
    out.push(join([...mods.slice(0, i), ...mods.slice(i + 1)]));
    for (const other of INSERTABLE) {
      if (!mods.includes(other)) {
        out.push(specOrder(join(mods.map((m, j) => (j === i ? other : m)))));
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

function* permutations<T>(items: readonly T[]): Generator<T[]> {
  if (items.length <= 1) {
    yield [...items];
    return;
  }
  for (let i = 0; i < items.length; i++) {
    const rest = [...items.slice(0, i), ...items.slice(i + 1)];
    for (const tail of permutations(rest)) yield [items[i]!, ...tail];
  }
}

/**
 * What ptxas might read as the form: every order of its tokens (type tokens included, so the
 * probes also hold `.f16` before `.f32` and a modifier between them), and each modifier token
 * written a second time, beside the first and after the type.
 */
function spellingProbes(form: Form): string[] {
  const [opcode, ...tokens] = form.text.split('.') as [string, ...string[]];
  const out: string[] = [];
  for (const order of permutations(tokens)) out.push([opcode, ...order].join('.'));
  tokens.forEach((token, i) => {
    if (TYPE_TOKENS.includes(token)) return;
    out.push([opcode, ...tokens.slice(0, i + 1), token, ...tokens.slice(i + 1)].join('.'));
    out.push([opcode, ...tokens, token].join('.'));
  });
  return out;
}

/** Every catalog form, then each distinct near miss and spelling probe that is not a form's text. */
export function agreementCases(): AgreementCase[] {
  return [...arithmeticCases(), ...cvtCases()];
}

function arithmeticCases(): AgreementCase[] {
  const formHeads = new Set(FORMS.map((f) => f.text));
  const cases = FORMS.map((f) => caseOf(f.text, 'form'));
  const seen = new Set(formHeads);
  const add = (head: string, kind: AgreementCase['kind']) => {
    if (seen.has(head)) return;
    seen.add(head);
    cases.push(caseOf(head, kind));
  };
  for (const form of FORMS) for (const head of mutations(form)) add(head, 'near-miss');
  for (const form of FORMS) for (const head of spellingProbes(form)) add(head, 'spelling');
  return cases;
}

// ---------------------------------------------------------------------------------------------
// cvt between floating-point types (9.7.9.21)

const CVT_TYPE_SET = new Set<string>(CVT_TYPES);

/** A register of the width a cvt type needs: `.b8 q`, `.b16 h`, `.b32 r`, `.f32 f`, `.f64 fd`. */
function cvtRegister(type: string, index: number): string {
  if (type === 'f32') return `f${index}`;
  if (type === 'f64') return `fd${index}`;
  return { 8: 'q', 16: 'h', 32: 'r', 64: 'fd' }[registerBits(type)] + String(index);
}

/**
 * Operands for a cvt head, by the types written (the first is the destination type) and the
 * shape of the line those types have: `d, a, b` for an x2 destination from .f32, `d, a, b, rbits`
 * with .rs, `d, {a, b, e, f}, rbits` for an x4 destination, `d, a` otherwise.
 */
export function cvtOperandsFor(head: string): string {
  const tokens = head.split('.').slice(1);
  const [dtype = 'f16', atype = 'f32'] = tokens.filter((t) => CVT_TYPE_SET.has(t));
  const d = cvtRegister(dtype, 0);
  if (dtype.endsWith('x4')) return `${d}, {f0, f1, f2, f3}, r1`;
  const rbits = tokens.includes('rs') ? ', r3' : '';
  if (/x2$/.test(dtype) && atype === 'f32') return `${d}, f1, f2${rbits}`;
  return `${d}, ${cvtRegister(atype, 1)}${rbits}`;
}

const cvtCaseOf = (head: string, kind: AgreementCase['kind']): AgreementCase => ({
  head,
  line: `${head} ${cvtOperandsFor(head)};`,
  kind,
  family: 'cvt',
});

/**
 * Near misses of a cvt form: a modifier added (or a case mistake, .nan), dropped or replaced by
 * another of its kind;
 * the two types swapped; and, for the first form of each type pair (the one with the fewest
 * modifiers), each type replaced by every other cvt type: other modifiers would only repeat the
 * verdict on the type pair.
 */
function firstOfPair(form: Form): boolean {
  return CVT_FORMS.find((f) => f.type === form.type) === form;
}

function cvtMutations(form: Form): string[] {
  const mods: string[] = [...form.modifiers];
  const { dtype, atype } = typeParts(form.type);
  const join = (ms: readonly string[], d: string = dtype, a: string = atype) =>
    ['cvt', ...ms, d, a].join('.');
  const out: string[] = [];
  for (const extra of [...CVT_MODIFIERS, 'nan'])
    if (!mods.includes(extra)) out.push(join([...mods, extra]));
  mods.forEach((m, i) => {
    out.push(join(mods.filter((__, k) => k !== i)));
    // Replaced by another of its kind: a rounding by each other rounding, .ftz/.sat/.relu/
    // .satfinite by each other (any other replacement is an add and a drop, probed above).
    for (const other of CVT_MODIFIERS)
      if (!mods.includes(other) && isRounding(other) === isRounding(m))
        out.push(join(mods.map((x, k) => (k === i ? other : x))));
  });
  out.push(join(mods, atype, dtype));
  if (firstOfPair(form)) {
    for (const t of CVT_TYPES) {
      if (t !== dtype) out.push(join(mods, t, atype));
      if (t !== atype) out.push(join(mods, dtype, t));
    }
  }
  return out;
}

/**
 * How ptxas reads a cvt name: every order of the modifiers before the types; the types first;
 * the modifiers between the two types; the modifiers after the types; and each modifier written
 * twice, beside itself and after the types. (Every order of all the tokens, for all forms, would
 * be 6,900 names on each of the 952 cells; these cover the same rules.)
 */
function cvtSpellingProbes(form: Form): string[] {
  const mods: string[] = [...form.modifiers];
  const { dtype, atype } = typeParts(form.type);
  const out: string[] = [];
  for (const order of permutations(mods)) out.push(['cvt', ...order, dtype, atype].join('.'));
  out.push(['cvt', dtype, atype, ...mods].join('.'));
  out.push(['cvt', dtype, ...mods, atype].join('.'));
  out.push(['cvt', dtype, atype, ...[...mods].reverse()].join('.'));
  mods.forEach((m, i) => {
    out.push(['cvt', ...mods.slice(0, i + 1), m, ...mods.slice(i + 1), dtype, atype].join('.'));
    out.push(['cvt', ...mods, dtype, atype, m].join('.'));
  });
  return out;
}

function cvtCases(): AgreementCase[] {
  const cases = CVT_FORMS.map((f) => cvtCaseOf(f.text, 'form'));
  const seen = new Set(CVT_FORMS.map((f) => f.text));
  const add = (head: string, kind: AgreementCase['kind']) => {
    if (seen.has(head)) return;
    seen.add(head);
    cases.push(cvtCaseOf(head, kind));
  };
  for (const form of CVT_FORMS) for (const head of cvtMutations(form)) add(head, 'near-miss');
  for (const form of CVT_FORMS) for (const head of cvtSpellingProbes(form)) add(head, 'spelling');
  return cases;
}
