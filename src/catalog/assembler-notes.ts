/**
 * Where NVIDIA's assembler (`ptxas`, CUDA 13.0) and the PTX ISA text say different things, and
 * which one the catalog follows. The rule: "does it assemble" is ptxas's answer. A spelling
 * ptxas assembles is read as the form it names; a form ptxas assembles that the spec does not
 * list is a catalog form flagged as undocumented (instruction.ts, UNDOCUMENTED_FORM_FLAG) and
 * evaluated under the decision `ptxas-only-forms`. The one exception is the PTX ISA version
 * list: the catalog keeps to the published versions. `tests/ptxas/ptxas-agreement.test.ts`
 * asserts that the validator and ptxas agree on every form, near miss and spelling probe, for
 * every target and PTX ISA version, and that each note here covers something ptxas assembles.
 * `ptxf check` prints the notes that apply to the instruction it judges; the UI shows the
 * parser's spelling note and the flag of a form the spec does not list.
 */

import { parseInstruction } from './parse-instruction.ts';
import { comparePtx, PTX_VERSIONS } from './ptx-versions.ts';

/** The published PTX ISA versions from `first` to `last`, inclusive. */
function ptxRange(first: string, last: string): string[] {
  return PTX_VERSIONS.filter((v) => comparePtx(v, first) >= 0 && comparePtx(v, last) <= 0);
}

/** Which instructions (and targets/versions) a note covers. */
export type NoteScope =
  /** Names read as a form whose modifiers or type are written in another order than its own. */
  | { readonly kind: 'reordered' }
  /** Names read as a form with a modifier written more than once. */
  | { readonly kind: 'repeated' }
  /** Names read as a catalog form whose spelling matches. */
  | { readonly kind: 'form'; readonly pattern: RegExp }
  /**
   * Names the text allows that ptxas refuses, as written (modifiers in the syntax line's
   * order); the catalog has no such form, so the parser refuses them too.
   */
  | { readonly kind: 'refused'; readonly pattern: RegExp }
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
    pattern:
      'modifiers in another order, or written after the type (add.sat.ftz.f16, add.f16.sat, min.abs.xorsign.f16)',
    specSays:
      'Each syntax line fixes the order: opcode, rounding, .approx, .ftz, .sat/.NaN, .oob, .relu, .xorsign.abs, then the type (cvt: its modifiers, then .dtype.atype).',
    ptxasSays:
      "Assembles the modifiers of a form in any order, before or after the type, with .xorsign and .abs apart; the type stays one unit (.f32 directly followed by .f16 or .bf16). cvt's two types may stand apart, modifiers between them; the first written is the destination type.",
    catalogFollows: 'ptxas',
    ptxas: 'accepts-more',
    why: 'What ptxas assembles is valid PTX: the playground reads the spelling as the form it names and shows the spec spelling beside it.',
    scope: { kind: 'reordered' },
  },
  {
    id: 'repeated-modifier',
    pattern:
      '.approx, .sat, .relu or .NaN written twice (fma.rz.sat.f32.f16.sat); on cvt .sat, .relu or .satfinite',
    specSays:
      'Each modifier has one place in a syntax line; the mixed-precision examples write fma.rz.sat.f32.f16.sat all the same.',
    ptxasSays:
      'Assembles .approx, .sat, .relu and .NaN (on cvt: .sat, .relu and .satfinite) written more than once, as if written once; a second rounding modifier, .ftz, .oob, .xorsign or .abs is an error.',
    catalogFollows: 'ptxas',
    ptxas: 'accepts-more',
    why: 'What ptxas assembles is valid PTX: the playground reads the repeated modifier once and names the repetition.',
    scope: { kind: 'repeated' },
  },
  {
    id: 'fma-bf16-directed-rounding',
    pattern: 'fma.{rz,rm,rp}{.oob}{.relu}.{bf16,bf16x2}',
    specSays: 'Half-precision fma: .rnd = { .rn } only.',
    ptxasSays:
      'Assembles .rz, .rm and .rp on fma.bf16 and fma.bf16x2, also with .oob and .relu, wherever it assembles fma.rn with the same modifiers (sm_80 and PTX ISA 7.0; with .oob sm_90 and 8.1).',
    catalogFollows: 'ptxas',
    ptxas: 'accepts-more',
    why: 'They assemble, so they are catalog forms, flagged as undocumented and not yet measured; the rounding applies to the one rounding of the exact a×b+c (decision ptxas-only-forms).',
    scope: { kind: 'form', pattern: /^fma\.r[zmp](\.oob)?(\.relu)?\.bf16(x2)?$/ },
  },
  {
    id: 'fma-oob-sat',
    pattern: 'fma.rn.oob.sat.{f16,f16x2} (.oob with .sat, in any order)',
    specSays: 'fma.rnd.oob{.relu}.type: .oob combines with .relu only.',
    ptxasSays:
      'Assembles .oob together with .sat on fma.f16 and fma.f16x2 (sm_90, PTX ISA 8.1 and newer).',
    catalogFollows: 'ptxas',
    ptxas: 'accepts-more',
    why: 'They assemble, so they are catalog forms, flagged as undocumented and not yet measured; the OOB zero and the clamp commute, so their order does not matter (decision ptxas-only-forms).',
    scope: { kind: 'form', pattern: /^fma\.rn\.oob\.sat\.f16(x2)?$/ },
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
  {
    id: 'cvt-e2m1x2-from-f16x2',
    pattern: 'cvt.rn.satfinite{.relu}.e2m1x2.f16x2',
    specSays:
      'e2m1x2 is converted to only from two .f32 inputs (cvt.rn.satfinite{.relu}.f4x2type.f32 d, a, b); the e4m3x2/e5m2x2 lines also convert from .f16x2.',
    ptxasSays:
      'Assembles cvt.rn.satfinite.e2m1x2.f16x2 and cvt.rn.satfinite.relu.e2m1x2.f16x2 (d a .b8, a a .b32) wherever it assembles the .f32 forms (sm_100a, sm_101a, sm_120a, their families from PTX ISA 8.8; PTX ISA 8.6).',
    catalogFollows: 'ptxas',
    ptxas: 'accepts-more',
    why: 'They assemble, so they are catalog forms, flagged as undocumented and not yet measured; each .f16 element converts as an .f32 input does, the upper half of a to the upper 4 bits of d (decision ptxas-only-forms).',
    scope: { kind: 'form', pattern: /^cvt\.rn\.satfinite(\.relu)?\.e2m1x2\.f16x2$/ },
  },
  {
    id: 'cvt-rounding-f16-bf16',
    pattern: 'cvt.f16.bf16 and cvt.bf16.f16 without a rounding modifier',
    specSays:
      '"Floating-point rounding is required for float-to-float conversions that result in loss of precision": bf16 → f16 loses range and f16 → bf16 precision.',
    ptxasSays:
      'Assembles cvt.f16.bf16 and cvt.bf16.f16 with or without .rn/.rz/.rm/.rp (sm_90, PTX ISA 7.8), as the general syntax line cvt{.frnd}… allows.',
    catalogFollows: 'ptxas',
    ptxas: 'accepts-more',
    why: 'What ptxas assembles is valid PTX; without a modifier the conversion rounds to nearest even (decision cvt-default-rounding).',
    scope: { kind: 'form', pattern: /^cvt\.(f16\.bf16|bf16\.f16)$/ },
  },
  {
    id: 'cvt-rounding-widening-bf16',
    pattern: 'cvt.{rn,rz,rm,rp}{.ftz}.{f32,f64}.bf16',
    specSays:
      '"Floating-point rounding is illegal in all other instances" than a loss of precision; yet the example writes cvt.f64.bf16.rp.',
    ptxasSays:
      'Assembles a rounding modifier on cvt.f32.bf16 and cvt.f64.bf16 (not on the other widenings, cvt.f32.f16, cvt.f64.f16, cvt.f64.f32).',
    catalogFollows: 'ptxas',
    ptxas: 'accepts-more',
    why: 'They assemble, so they are catalog forms; every bf16 value is exact in f32 and f64, so the modifier changes nothing.',
    scope: { kind: 'form', pattern: /^cvt\.r[nzmp](\.ftz)?\.(f32|f64)\.bf16$/ },
  },
  {
    id: 'cvt-integer-rounding-same-type',
    pattern: 'cvt.{rni,rzi,rmi,rpi}.f16.bf16, cvt.{rni,…}.bf16.f16',
    specSays:
      '"Integer rounding is required … for same-size float-to-float conversions where the value is rounded to an integer".',
    ptxasSays:
      'Assembles integer rounding on float-to-float cvt only when both types are the same (cvt.rni.f16.f16, not cvt.rni.f16.bf16).',
    catalogFollows: 'ptxas',
    ptxas: 'rejects-more',
    why: 'The validator answers "does ptxas assemble it"; the same-size pair of different types has no integer-rounding form in the catalog.',
    scope: { kind: 'refused', pattern: /^cvt\.r[nzmp]i(\.\w+)*\.(f16\.bf16|bf16\.f16)$/ },
  },
  {
    id: 'cvt-satfinite-sm_70',
    pattern: 'cvt.{rn,rz}.satfinite.f16.f32 on sm_50 … sm_62',
    specSays:
      'cvt.satfinite.{f16, bf16, f16x2, bf16x2, tf32}.f32 is "introduced in PTX ISA version 8.1"; the Target ISA Notes name no target for it.',
    ptxasSays:
      'Refuses .satfinite before sm_70: "Feature \'.satfinite\' requires .target sm_70 or higher".',
    catalogFollows: 'ptxas',
    ptxas: 'rejects-more',
    why: 'The validator answers "does ptxas assemble it": cvt.satfinite needs sm_70 in the catalog (the other types need sm_80 anyway).',
    scope: { kind: 'form', pattern: /^cvt\.r[nz]\.satfinite\.f16\.f32$/ },
  },
  {
    id: 'cvt-ue8m0-relu',
    pattern: 'cvt.{rz,rp}{.satfinite}.relu.ue8m0x2.bf16x2',
    specSays:
      'The PTX ISA Notes introduce cvt.{rp/rz}{.satfinite}{.relu}.ue8m0x2.bf16x2 in 8.6; the syntax line cvt.frnd3{.satfinite}.ue8m0x2.bf16x2 has no .relu.',
    ptxasSays: 'Refuses .relu on every .ue8m0x2 conversion.',
    catalogFollows: 'ptxas',
    ptxas: 'rejects-more',
    why: 'The syntax line and ptxas agree; ue8m0 is unsigned, so .relu would have nothing to clamp.',
    scope: { kind: 'refused', pattern: /^cvt\.r[zp](\.satfinite)?\.relu\.ue8m0x2\.(bf16x2|f32)$/ },
  },
  {
    id: 'cvt-ue8m0-f32-without-satfinite',
    pattern: 'cvt.{rz,rp}.ue8m0x2.f32 (no .satfinite)',
    specSays:
      'The PTX ISA Notes introduce cvt.{rz/rp}.satfinite.ue8m0x2.f32; the syntax line writes cvt.frnd3{.satfinite}.ue8m0x2.f32, .satfinite optional.',
    ptxasSays:
      "Assembles cvt.rz.ue8m0x2.f32 and cvt.rp.ue8m0x2.f32 (NVIDIA's own cuda_fp8.hpp emits them).",
    catalogFollows: 'ptxas',
    ptxas: 'accepts-more',
    why: 'The syntax line and ptxas agree: without .satfinite a value beyond 2^127 becomes the NaN 0xFF.',
    scope: { kind: 'form', pattern: /^cvt\.r[zp]\.ue8m0x2\.f32$/ },
  },
];

/** Does this note cover the instruction name (operands stripped) at this target and version? */
export function noteCovers(
  note: AssemblerNote,
  name: string,
  target?: string,
  ptx?: string,
): boolean {
  const scope = note.scope;
  switch (scope.kind) {
    case 'refused':
      return scope.pattern.test(name.trim().split(/\s/)[0]!);
    case 'reordered':
    case 'repeated':
    case 'form': {
      const parsed = parseInstruction(name);
      // A name in another case is one ptxas refuses: what it accepts does not apply.
      if (!parsed.ok || parsed.spelling?.caseChanged) return false;
      if (scope.kind === 'form') return scope.pattern.test(parsed.form.text);
      const spelling = parsed.spelling;
      return scope.kind === 'reordered'
        ? spelling?.reordered === true
        : (spelling?.repeated.length ?? 0) > 0;
    }
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
