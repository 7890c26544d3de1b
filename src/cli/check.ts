/**
 * `ptxf check "<instr or line>" [--target sm_90] [--ptx 8.6] [--json]`
 *
 * Says whether an instruction is valid PTX for a target and PTX ISA version, with every
 * reason when it is not and the least target and version where it is. A syntax error is shown
 * with a caret under the place it starts and the list of what was expected there.
 *
 * An instruction spelled in an order ptxas accepts (`add.sat.ftz.f16`) is judged as the form
 * it names, with a note giving the spec's spelling; a form only ptxas documents is flagged as
 * such. Where NVIDIA's assembler and the spec's text differ on the instruction (an assembler
 * note covers it), the note is printed too, saying which one the catalog follows and why.
 *
 * Exit status: 0 valid; 1 invalid or a syntax error; 2 usage error (unknown option, missing
 * instruction, unknown target or PTX ISA version).
 */
import {
  assemblerNotesFor,
  PTXAS_RELEASE,
  type AssemblerNote,
} from '../catalog/assembler-notes.ts';
import { checkInstruction } from '../catalog/check-instruction.ts';
import { UNDOCUMENTED_FORM_FLAG } from '../catalog/instruction.ts';
import type { SyntaxError } from '../catalog/parse-instruction.ts';
import { NEWEST_PTX } from '../catalog/ptx-versions.ts';
import type { SpellingNote } from '../catalog/spelling-note.ts';
import { NEWEST_TARGET } from '../catalog/targets.ts';
import { resolvePtx, resolveTarget, type Verdict } from '../catalog/verdict.ts';
import { parseFlags } from './flags.ts';
import type { CliIO } from './io.ts';
import { verdictFields } from './verdict-json.ts';

export const CHECK_USAGE = [
  'usage: ptxf check "<instr or line>" [--target sm_90] [--ptx 8.6] [--json]',
  `  --target, --ptx  judge for this target / PTX ISA version (default: ${NEWEST_TARGET}, ${NEWEST_PTX};`,
  `                   --ptx alone: the newest target that version knows, e.g. --ptx 7.0 is sm_80)`,
  '  --json           print the verdict or the syntax error as one JSON object',
  '  exit status: 0 valid, 1 invalid or syntax error, 2 usage error',
];

function usage(io: CliIO, json: boolean, message: string): number {
  if (json) io.out(JSON.stringify({ ok: false, error: { code: 'usage', message } }));
  io.err(`ptxf check: ${message}`);
  for (const line of CHECK_USAGE) io.err(line);
  return 2;
}

/** Characters that would break the caret's column become visible single characters. */
function printable(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/\t/g, ' ').replace(/[\u0000-\u001f\u007f]/g, '\u00b7');
}

/** Characters shown either side of the error, and the most carets drawn. */
const CONTEXT = 60;

/** The input (a window of it when long) and a caret line under `error.position`. */
export function caretLines(input: string, error: SyntaxError): [string, string] {
  const marked = Math.min(Math.max(error.length, 1), CONTEXT);
  const from = Math.max(0, error.position - CONTEXT);
  const to = Math.min(input.length, error.position + marked + CONTEXT);
  const prefix = from > 0 ? '…' : '';
  const suffix = to < input.length ? '…' : '';
  const shown = `${prefix}${printable(input.slice(from, to))}${suffix}`;
  const column = prefix.length + (error.position - from);
  const width = Math.max(1, Math.min(marked, to - error.position));
  return [`  ${shown}`, `  ${' '.repeat(column)}${'^'.repeat(width)}`];
}

function printSyntaxError(io: CliIO, input: string, error: SyntaxError): void {
  io.out(`syntax error at column ${error.position + 1}: ${error.message}`);
  for (const line of caretLines(input, error)) io.out(line);
  if (error.expected.length > 0) io.out(`  expected: ${error.expected.join(', ')}`);
}

/** The instruction name as written (no guard, no operands), which the notes are keyed on. */
export function writtenName(input: string): string {
  const withoutGuard = input.trim().replace(/^@!?%?[A-Za-z_$][\w$]*\s+/, '');
  return /^[^\s;,]*/.exec(withoutGuard)![0];
}

function printNotes(io: CliIO, notes: readonly AssemblerNote[]): void {
  for (const n of notes) {
    const follows = n.catalogFollows === 'spec' ? 'the PTX ISA' : `ptxas ${PTXAS_RELEASE}`;
    io.out(`  note: the PTX ISA and ptxas ${PTXAS_RELEASE} disagree here`);
    io.out(`    PTX ISA: ${n.specSays}`);
    io.out(`    ptxas:   ${n.ptxasSays}`);
    io.out(`    the playground follows ${follows}: ${n.why}`);
  }
}

const notesJson = (notes: readonly AssemblerNote[]) =>
  notes.map((n) => ({
    id: n.id,
    specSays: n.specSays,
    ptxasSays: n.ptxasSays,
    catalogFollows: n.catalogFollows,
    why: n.why,
  }));

/** What the user should know about the form beside its verdict: its spelling, its status. */
export function formNotes(v: Verdict, spelling: SpellingNote | null): string[] {
  return [
    // A name in another case is a reason the form is not valid, said there (check-instruction.ts).
    ...(spelling && !spelling.caseChanged ? [spelling.message] : []),
    ...(v.form.documented
      ? []
      : [`${v.form.text} ${UNDOCUMENTED_FORM_FLAG} (the spec does not list it)`]),
  ];
}

function printVerdict(io: CliIO, v: Verdict, spelling: SpellingNote | null): void {
  const where = `${v.target} at PTX ISA ${v.ptx}`;
  io.out(v.valid ? `${v.form.text}: valid for ${where}` : `${v.form.text}: not valid for ${where}`);
  for (const note of formNotes(v, spelling)) io.out(`  note: ${note}`);
  for (const r of v.reasons) io.out(`  - ${r.message}`);
  io.out(`  minimal target: ${v.minTarget}, minimal PTX ISA: ${v.minPtx}`);
}

function verdictJson(
  v: Verdict,
  operands: readonly string[] | null,
  spelling: SpellingNote | null,
  notes: readonly AssemblerNote[],
) {
  return {
    ok: true,
    form: v.form.text,
    ...verdictFields(v),
    operands,
    spelling,
    documented: v.form.documented,
    flag: v.form.documented ? null : UNDOCUMENTED_FORM_FLAG,
    notes: notesJson(notes),
  };
}

export async function runCheck(args: readonly string[], io: CliIO): Promise<number> {
  const parsed = parseFlags(args, { valued: ['target', 'ptx'], boolean: ['json', 'help'] });
  const json = args.includes('--json');
  if ('usage' in parsed) return usage(io, json, parsed.usage);
  if (parsed.switches.has('help')) {
    for (const line of CHECK_USAGE) io.out(line);
    return 0;
  }
  const [input, ...extra] = parsed.positional;
  if (input === undefined)
    return usage(io, json, 'missing the instruction, e.g. ptxf check fma.rn.bf16');
  if (extra.length > 0) {
    return usage(
      io,
      json,
      `expected one instruction (quote a whole line); also found '${extra[0]}'`,
    );
  }
  // Usage errors first: a bad --target is the caller's mistake whatever the instruction says.
  const target = resolveTarget(parsed.values.get('target'), parsed.values.get('ptx'));
  if ('code' in target) return usage(io, json, target.message);
  const ptx = resolvePtx(parsed.values.get('ptx'));
  if (typeof ptx !== 'string') return usage(io, json, ptx.message);

  const notes = assemblerNotesFor(writtenName(input), target.name, ptx);
  const result = checkInstruction(input, target.name, ptx);
  if (!result.ok) {
    const error = result.error;
    // The target and version were resolved above, so this is a syntax error.
    if (!('position' in error)) return usage(io, json, error.message);
    if (json) io.out(JSON.stringify({ ok: false, error, notes: notesJson(notes) }));
    else {
      printSyntaxError(io, input, error);
      printNotes(io, notes);
    }
    return 1;
  }
  const { verdict } = result;
  if (json) io.out(JSON.stringify(verdictJson(verdict, result.operands, result.spelling, notes)));
  else {
    printVerdict(io, verdict, result.spelling);
    printNotes(io, notes);
  }
  return verdict.valid ? 0 : 1;
}
