/**
 * Where NVIDIA's assembler (`ptxas`, CUDA 13.0) and the PTX ISA text disagree, and which one the
 * catalog follows. The rule: for "does it assemble" the catalog follows ptxas, except where
 * following it would make the playground compute behaviour no document describes, or would
 * drop a syntax rule the spec states. Every entry here was observed by
 * `tests/ptxas/ptxas-agreement.test.ts`, which asserts that the validator agrees with ptxas on
 * every form, near miss, target and PTX ISA version except exactly what these notes cover.
 * The UI shows the notes that apply to the instruction and target being looked at.
 */

import { comparePtx, PTX_VERSIONS } from './ptx-versions.ts';

/** The published PTX ISA versions from `first` to `last`, inclusive. */
function ptxRange(first: string, last: string): string[] {
  return PTX_VERSIONS.filter((v) => comparePtx(v, first) >= 0 && comparePtx(v, last) <= 0);
}

/** Which instructions (and targets/versions) a note covers. */
export type NoteScope =
  /** Instruction names (no operands) whose modifiers, put in the spec's order, match. */
  | { readonly kind: 'instruction'; readonly pattern: RegExp }
  /** Names whose modifiers or type tokens are not in the spec's order. */
  | { readonly kind: 'modifier-order' }
  /** PTX ISA versions ptxas accepts that the catalog does not list. */
  | { readonly kind: 'ptx-version'; readonly versions: readonly string[] }
  /** Any instruction, on these targets, at these PTX ISA versions. */
  | {
      readonly kind: 'target';
      readonly targets: readonly string[];
      readonly ptx: readonly string[];
    };

export interface AssemblerNote {
  readonly id: string;
  /** What the note is about, as a user would write it. */
  readonly pattern: string;
  readonly specSays: string;
  readonly ptxasSays: string;
  readonly catalogFollows: 'spec' | 'ptxas';
  /** Which way ptxas differs from the spec: it accepts what the spec rules out, or the reverse. */
  readonly ptxas: 'accepts-more' | 'rejects-more';
  readonly why: string;
  readonly scope: NoteScope;
}

export const PTXAS_RELEASE = '13.0';

export const ASSEMBLER_NOTES: readonly AssemblerNote[] = [
  {
    id: 'modifier-order',
    pattern: 'modifiers in another order, or written after the type (add.sat.rn.f16, add.f16.sat)',
    specSays:
      'Each syntax line fixes the order: opcode, rounding, .approx, .ftz, .sat/.NaN, .oob, .relu, .xorsign.abs, then the type.',
    ptxasSays: 'Accepts the modifiers of a valid form in any order, even after the type.',
    catalogFollows: 'spec',
    ptxas: 'accepts-more',
    why: 'One spelling per form keeps forms, URLs and traces unambiguous; the validator names the spec order instead of accepting a permutation silently.',
    scope: { kind: 'modifier-order' },
  },
  {
    id: 'fma-bf16-directed-rounding',
    pattern: 'fma.{rz,rm,rp}{.oob}{.relu}.{bf16,bf16x2}',
    specSays: 'Half-precision fma: .rnd = { .rn } only.',
    ptxasSays:
      'Assembles .rz, .rm and .rp on fma.bf16 and fma.bf16x2 (also with .oob and .relu) on sm_80 and newer.',
    catalogFollows: 'spec',
    ptxas: 'accepts-more',
    why: 'No document says what these roundings do on bf16 fma, so the playground cannot compute them faithfully; they stay invalid.',
    scope: { kind: 'instruction', pattern: /^fma\.r[zmp](\.oob)?(\.relu)?\.bf16(x2)?$/ },
  },
  {
    id: 'fma-oob-sat',
    pattern: 'fma.rn.oob.sat.{f16,f16x2} (.oob with .sat, in any order)',
    specSays: 'fma.rnd.oob{.relu}.type: .oob combines with .relu only.',
    ptxasSays:
      'Assembles .oob together with .sat on fma.f16 and fma.f16x2 (sm_90, PTX ISA 8.1 and newer).',
    catalogFollows: 'spec',
    ptxas: 'accepts-more',
    why: 'The spec gives no order of the OOB clamp and the saturation, so the result is undocumented; the form stays invalid.',
    scope: { kind: 'instruction', pattern: /^fma\.rn\.sat\.oob\.f16(x2)?$/ },
  },
  {
    id: 'ptx-5.1',
    pattern: '.version 5.1',
    specSays:
      'No PTX ISA 5.1 is published: the release notes go from 5.0 (CUDA 8.0) to 6.0 (CUDA 9.0).',
    ptxasSays:
      'Lists and accepts .version 5.1, which behaves like an early 6.0: it takes .target sm_70 and neg.f16, yet not abs.f16 (6.5).',
    catalogFollows: 'spec',
    ptxas: 'accepts-more',
    why: 'An unpublished version has no documented feature set to show; the catalog lists only published PTX ISA versions.',
    scope: { kind: 'ptx-version', versions: ['5.1'] },
  },
  {
    id: 'sm_101-at-ptx-9.0',
    pattern: '.target sm_101, sm_101a, sm_101f with .version 9.0',
    specSays: 'PTX ISA 9.0 renames sm_101 to sm_110.',
    ptxasSays: 'Still assembles .target sm_101* at .version 9.0 (compiling it for sm_110*).',
    catalogFollows: 'ptxas',
    ptxas: 'accepts-more',
    why: 'The validator answers "does ptxas assemble it", and it does; the rename is kept as a note on the target.',
    scope: { kind: 'target', targets: ['sm_101', 'sm_101a', 'sm_101f'], ptx: ['9.0'] },
  },
  {
    id: 'sm_88-before-ptx-9.0',
    pattern: '.target sm_88 with .version 7.3 … 8.8',
    specSays: 'The PTX ISA release notes introduce sm_88 in PTX ISA 9.0.',
    ptxasSays: 'Assembles .target sm_88 from .version 7.3 on.',
    catalogFollows: 'ptxas',
    ptxas: 'accepts-more',
    why: 'The validator answers "does ptxas assemble it"; sm_88 therefore needs PTX ISA 7.3 in the catalog.',
    scope: {
      kind: 'target',
      targets: ['sm_88'],
      ptx: ptxRange('7.3', '8.8'),
    },
  },
];

/**
 * The global order of modifier tokens in the spec's syntax lines. Every syntax line of the
 * catalog lists its modifiers in this order, so sorting by it gives the spec's spelling.
 */
const TOKEN_ORDER = [
  'rn',
  'rz',
  'rm',
  'rp',
  'approx',
  'ftz',
  'sat',
  'NaN',
  'oob',
  'relu',
  'xorsign',
  'abs',
];
const TYPE_TOKENS = ['f32', 'f16', 'f16x2', 'bf16', 'bf16x2'];

/**
 * The instruction name with its modifier tokens in the spec's order and the type last
 * (`add.f16.sat` → `add.sat.f16`). Unknown tokens keep their relative place among the modifiers.
 */
export function canonicalSpelling(name: string): string {
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

/** Does this note cover the instruction name (operands stripped) at this target and version? */
export function noteCovers(
  note: AssemblerNote,
  name: string,
  target?: string,
  ptx?: string,
): boolean {
  const scope = note.scope;
  switch (scope.kind) {
    case 'instruction':
      return scope.pattern.test(canonicalSpelling(name));
    case 'modifier-order':
      return canonicalSpelling(name) !== name;
    case 'ptx-version':
      return ptx !== undefined && scope.versions.includes(ptx);
    case 'target':
      return (
        target !== undefined &&
        ptx !== undefined &&
        scope.targets.includes(target) &&
        scope.ptx.includes(ptx)
      );
  }
}

/** Notes the UI shows beside an instruction (and, when given, a target and PTX version). */
export function assemblerNotesFor(name: string, target?: string, ptx?: string): AssemblerNote[] {
  return ASSEMBLER_NOTES.filter((n) => noteCovers(n, name, target, ptx));
}
