/**
 * `ptxf forms [--opcode fma] [--type bf16x2] [--target sm_90] [--ptx 8.6] [--json]`
 *
 * Lists the catalog's forms with the least target and PTX ISA version each needs, and flags the
 * forms only ptxas assembles (the spec does not list them). With
 * --target and/or --ptx only the forms valid there are listed (a missing PTX ISA version is the
 * newest; a missing target, the newest that PTX ISA version knows). Exit status: 0 listed (also
 * when no form matches); 2 usage error.
 */
import { FORMS, MATRIX_FORMS } from '../catalog/all-forms.ts';
import { UNDOCUMENTED_FORM_FLAG, type Form } from '../catalog/instruction.ts';
import { NEWEST_PTX } from '../catalog/ptx-versions.ts';
import { typeParts } from '../catalog/record.ts';
import { NEWEST_TARGET } from '../catalog/targets.ts';
import { resolvePtx, resolveTarget, verdictFor } from '../catalog/verdict.ts';
import { ALL_OPCODES, vocabularyFor } from '../catalog/vocabulary.ts';
import { parseFlags } from './flags.ts';
import type { CliIO } from './io.ts';

const VOCABULARIES = [...new Set(ALL_OPCODES.map(vocabularyFor))];

/** The tensor cores' opcodes: their forms are listed when one is asked for (--opcode mma). */
const MATRIX_OPCODES = [...new Set(MATRIX_FORMS.map((f) => f.opcode))];
const OPCODE_CHOICES = [...ALL_OPCODES, ...MATRIX_OPCODES];

/** A form whose type names a destination and a source type (cvt's `.dtype.atype`). */
const isPair = (f: Form) => vocabularyFor(f.opcode).kind === 'pair';

/** The types written as one unit: `f16`, `bf16x2`, the mixed `f32.f16`. */
const INSTR_TYPES = VOCABULARIES.flatMap((v) => (v.kind === 'unit' ? v.types : []));

/** The types a `.dtype.atype` form names, in the catalog's order (`f16` … `e2m1x4`). */
const PAIR_TYPES = VOCABULARIES.flatMap((v) => (v.kind === 'pair' ? v.typeTokens : []));

export const FORMS_USAGE = [
  'usage: ptxf forms [--opcode fma] [--type bf16x2] [--target sm_90] [--ptx 8.6] [--json]',
  `  --opcode         one of ${OPCODE_CHOICES.join(', ')} (the tensor cores' forms, mma and`,
  '                   wgmma.mma_async, are listed only when their opcode is given)',
  `  --type           one of ${INSTR_TYPES.join(', ')}; for cvt a type (e4m3x2: forms to or from it)`,
  '                   or the pair .dtype.atype (e4m3x2.f32); for mma/wgmma the types D.A.B(.C) (f32.f16.f16.f32)',
  `  --target, --ptx  only forms valid there (defaults: ${NEWEST_PTX}; the newest target of the PTX ISA version, ${NEWEST_TARGET} for ${NEWEST_PTX})`,
  '  --json           print a JSON array of {form, opcode, type, modifiers, minTarget, minPtx, documented}',
  '                   (cvt rows also name dtype and atype; type is dtype.atype)',
  '  exit status: 0 listed (also when nothing matches), 2 usage error',
];

function usage(io: CliIO, message: string): number {
  io.err(`ptxf forms: ${message}`);
  for (const line of FORMS_USAGE) io.err(line);
  return 2;
}

/** Pads columns so the list reads as a table. */
function table(rows: readonly (readonly string[])[]): string[] {
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
  return rows.map((r) =>
    r
      .map((cell, c) => cell.padEnd(widths[c]!))
      .join('  ')
      .trimEnd(),
  );
}

export async function runForms(args: readonly string[], io: CliIO): Promise<number> {
  const parsed = parseFlags(args, {
    valued: ['opcode', 'type', 'target', 'ptx'],
    boolean: ['json', 'help'],
  });
  if ('usage' in parsed) return usage(io, parsed.usage);
  if (parsed.switches.has('help')) {
    for (const line of FORMS_USAGE) io.out(line);
    return 0;
  }
  if (parsed.positional.length > 0) {
    return usage(io, `forms takes only options; found '${parsed.positional[0]}'`);
  }
  const opcode = parsed.values.get('opcode');
  if (opcode !== undefined && !OPCODE_CHOICES.includes(opcode)) {
    return usage(io, `unknown opcode '${opcode}'; expected one of ${OPCODE_CHOICES.join(', ')}`);
  }
  const pool = opcode !== undefined && MATRIX_OPCODES.includes(opcode) ? MATRIX_FORMS : FORMS;
  // `.bf16x2` and `bf16x2` both name the type.
  const type = parsed.values.get('type')?.replace(/^\./, '');
  const known = (t: string) => pool.some((f) => f.type === t) || PAIR_TYPES.includes(t);
  if (type !== undefined && !known(type)) {
    return usage(
      io,
      `unknown type '${type}'; expected one of ${INSTR_TYPES.join(', ')}, a cvt type (${PAIR_TYPES.join(', ')}) or a cvt pair such as e4m3x2.f32`,
    );
  }
  const ofType = (f: Form) => {
    if (type === undefined || f.type === type) return true;
    if (!isPair(f)) return false;
    const { dtype, atype } = typeParts(f.type);
    return dtype === type || atype === type;
  };
  let forms: readonly Form[] = pool.filter(
    (f) => (opcode === undefined || f.opcode === opcode) && ofType(f),
  );
  const targetName = parsed.values.get('target');
  const ptxName = parsed.values.get('ptx');
  let where = '';
  if (targetName !== undefined || ptxName !== undefined) {
    const target = resolveTarget(targetName, ptxName);
    if ('code' in target) return usage(io, target.message);
    const ptx = resolvePtx(ptxName);
    if (typeof ptx !== 'string') return usage(io, ptx.message);
    forms = forms.filter((f) => verdictFor(f, target, ptx).valid);
    where = ` valid for ${target.name} at PTX ISA ${ptx}`;
  }

  if (parsed.switches.has('json')) {
    const rows = forms.map((f) => ({
      form: f.text,
      opcode: f.opcode,
      type: f.type,
      ...(isPair(f) ? typeParts(f.type) : {}),
      modifiers: f.modifiers,
      minTarget: f.minTarget,
      minPtx: f.minPtx,
      documented: f.documented,
    }));
    io.out(JSON.stringify(rows));
    return 0;
  }
  if (forms.length === 0) {
    io.out(`no forms${where} match`);
    return 0;
  }
  const rows = [
    ['form', 'min target', 'min PTX', ''],
    ...forms.map((f) => [
      f.text,
      f.minTarget,
      f.minPtx,
      f.documented ? '' : UNDOCUMENTED_FORM_FLAG,
    ]),
  ];
  for (const line of table(rows)) io.out(line);
  const undocumented = forms.filter((f) => !f.documented).length;
  const flagged = undocumented ? ` (${undocumented} not in the spec; ptxas assembles them)` : '';
  io.out(`${forms.length} form${forms.length === 1 ? '' : 's'}${where}${flagged}`);
  return 0;
}
