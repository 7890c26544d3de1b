import {
  ELEMENT_FORMAT_NAMES,
  findCvtForm,
  findForm,
  type CvtForm,
  type CvtSourceName,
  type ElementFormatName,
} from '../catalog/index.ts';
import { quoteText } from '../engine/operand-text.ts';
import { parseCvtRegisterText } from './cvt-operand-text.ts';
import {
  CVT_SOURCE_NAMES,
  defaultCvtRegisters,
  registerHex,
  ZERO_REGISTERS,
  type CvtRegisters,
} from './cvt-operands.ts';

/**
 * The cvt part of a share link: a cvt form's source registers by the spec's names (`a`, `b`,
 * `e`, `f`, `rbits`), each `0x…` of the register's full width (16 hex digits for .f64), and the
 * format page's `format`. Read by the one rule like every operand (a value is rounded to the
 * element's format and put in each element; rbits takes bits only); what cannot be used is
 * reported, never guessed. url-codec.ts calls these for cvt forms.
 */

/** The parameters a cvt link may hold beyond the arithmetic's (a and b are shared). */
export const CVT_URL_KEYS: readonly string[] = ['e', 'f', 'rbits', 'format'];

interface Notes {
  readonly ignored: string[];
  readonly stored: string[];
}

/** The form's registers from the link's parameters; absent or unusable ones take the defaults. */
export function readCvtRegisters(
  form: CvtForm,
  params: ReadonlyMap<string, string>,
  notes: Notes,
): CvtRegisters {
  const defaults = defaultCvtRegisters(form);
  const regs: Record<CvtSourceName, bigint> = { ...ZERO_REGISTERS };
  const has = (name: string) => form.operands.some((o) => o.name === name);
  for (const name of CVT_SOURCE_NAMES) {
    const text = params.get(name);
    if (!has(name)) {
      if (text !== undefined)
        notes.ignored.push(`operand ${name}: ${form.text} has no operand ${name}`);
      continue;
    }
    const width = form.operands.find((o) => o.name === name)!.bits;
    if (text === undefined) {
      regs[name] = defaults[name];
      continue;
    }
    const r = parseCvtRegisterText(text, form, name);
    if (!r.ok) {
      regs[name] = defaults[name];
      notes.ignored.push(
        `operand ${name}: ${r.message}; using ${registerHex(defaults[name], width)}`,
      );
      continue;
    }
    regs[name] = r.bits;
    if (r.stored) notes.stored.push(`${name} = ${text.trim()}: ${r.stored}`);
  }
  if (params.has('c')) notes.ignored.push(`operand c: ${form.text} has no operand c`);
  return regs;
}

/** The link's parameters for a cvt form's registers: only the operands it has, in its order. */
export function writeCvtRegisters(form: CvtForm, regs: CvtRegisters): [string, string][] {
  return form.operands
    .slice(1)
    .map((o) => [o.name, registerHex(regs[o.name as CvtSourceName], o.bits)]);
}

/** Notices for cvt-only parameters given to an arithmetic form. */
export function cvtKeysOnArithmetic(
  instr: string,
  params: ReadonlyMap<string, string>,
  notes: Notes,
): void {
  for (const name of ['e', 'f', 'rbits'])
    if (params.has(name)) notes.ignored.push(`operand ${name}: ${instr} has no operand ${name}`);
}

/**
 * The format the format page opens on for a form: a cvt form's destination element format, an
 * arithmetic form's result lane format.
 */
export function defaultFormatFor(instr: string): ElementFormatName {
  const cvt = findCvtForm(instr);
  if (cvt) return cvt.elements[0]!.dest.format;
  const form = findForm(instr);
  return form ? form.operands[0]!.format : 'e4m3';
}

/** The `format` parameter: a format name, or the form's default with a notice. */
export function readFormat(
  text: string | undefined,
  instr: string,
  notes: Notes,
): ElementFormatName {
  if (text === undefined) return defaultFormatFor(instr);
  const name = text.trim().replace(/^\./, '');
  if ((ELEMENT_FORMAT_NAMES as readonly string[]).includes(name)) return name as ElementFormatName;
  const fallback = defaultFormatFor(instr);
  notes.ignored.push(
    `format ${quoteText(text)} is not a format (expected ${ELEMENT_FORMAT_NAMES.join(', ')}); showing ${fallback}`,
  );
  return fallback;
}
