/**
 * Older share links, upgraded step by step to the current schema before url-codec.ts decodes
 * them, so a link anyone holds keeps loading to the state it meant; what a step cannot carry
 * over is said in a notice, as the decoder says it (tests/fixtures/share-urls.json pins every
 * shape).
 *
 *   v0 (no `v`, typed by hand): `form=` for `instr=`, the target as a bare number (`target=90`,
 *       `sm=90`); operands by today's rule (`b=2` is the value 2); `oob=` marks as in v1.
 *   v1 → v2: v1 read every operand as bits: hex with or without `0x`, or binary with `0b`, with
 *       any number of leading zeros. Each operand v1 could read is written as the register's
 *       bits, so an old link keeps them (`b=2` stays the pattern 0x0002); one it could not read
 *       is left for today's rule (`a=1.5`, which v1 refused, is now the value). v1 marked lanes
 *       OOB-NaN (`oob=b`, `oob=a1`), which the engine read as its OOB-NaN pattern; v2 has no
 *       marks: the pattern is put in those lanes (decision `oob-nan-pattern`).
 *   v2 → v3: v2 had two panels for inputs swept over many values, `tab=approx` (the error plot
 *       of tanh.approx and ex2.approx) and `tab=sweep` (cvt's); v3 has one, `tab=sweep`, for
 *       every form with one input per element. `tab=approx` becomes `tab=sweep` where the form
 *       is approximate, and is dropped (with v2's notice) where it is exact; a tab v2 did not
 *       know is dropped with v2's notice.
 */
import { findForm } from '../catalog/all-forms.ts';
import type { Form, SourceName } from '../catalog/instruction.ts';
import { parseInstruction } from '../catalog/parse-instruction.ts';
import { quoteText } from '../engine/number-text.ts';
import { registerHex, startRegisters, withBitsAt } from './registers.ts';
import { OOB_NAN_BITS } from './element-view.ts';
import { readRegister, type RegisterNotes } from './url-registers.ts';

export type Params = Map<string, string>;

/** Where a migration reports what it could not carry over, and what a value it read stored. */
export type MigrationNotes = RegisterNotes;

/** The form an `instr` parameter names, or the default (whose notice the decoder gives). */
function formOf(instr: string | undefined): Form {
  const parsed = instr === undefined ? null : parseInstruction(instr);
  return parsed?.ok && !parsed.spelling?.caseChanged ? parsed.form : findForm('fma.rn.f16')!;
}

/** The places of a register, in the order of the form's elements (lane 0 first). */
function placesOf(form: Form, name: SourceName) {
  return form.elements.flatMap((e) => e.inputs.filter((p) => p.operand === name));
}

/**
 * A v0 link was typed by hand. It may say `form` for `instr` and give the target as a bare
 * number (`target=90`, or `sm=90`); its operands are read by today's rule; `oob=` marks become
 * the OOB-NaN pattern in the marked lanes, as in a v1 link.
 */
function fromHandWritten(p: Params, notes: MigrationNotes): Params {
  const out = new Map(p);
  if (!out.has('instr') && out.has('form')) out.set('instr', out.get('form')!);
  out.delete('form');
  const sm = out.get('target') ?? out.get('sm');
  if (sm !== undefined && /^\d+[af]?$/.test(sm)) out.set('target', `sm_${sm}`);
  else if (sm !== undefined) out.set('target', sm);
  out.delete('sm');
  return marksToPattern(out, notes);
}

/** v1's reading of an operand: `0b` binary or hex digits (optional `0x`), leading zeros free. */
function readV1Bits(text: string, width: number): bigint | null {
  const t = text.toLowerCase().replace(/[\s_]/g, '');
  const binary = /^0b([01]+)$/.exec(t);
  const hex = /^(?:0x)?([0-9a-f]+)$/.exec(t);
  const digits = binary?.[1] ?? hex?.[1];
  if (digits === undefined) return null;
  const significant = digits.replace(/^0+/, '');
  if (significant.length > (binary ? width : width / 4)) return null;
  return significant === '' ? 0n : BigInt(`${binary ? '0b' : '0x'}${significant}`);
}

/**
 * A v1 `oob=` list (`b`, `a1`, `b0,c`): each marked lane of a 16-bit-lane operand gets the
 * OOB-NaN pattern, the operand is written as bits, and `oob` is dropped.
 */
function marksToPattern(p: Params, notes: MigrationNotes): Params {
  const text = p.get('oob');
  if (text === undefined) return p;
  const out = new Map(p);
  out.delete('oob');
  const form = formOf(out.get('instr'));
  const marked = new Map<SourceName, Set<number>>();
  for (const raw of text.split(',')) {
    const item = raw.trim();
    if (item === '') continue;
    const m = /^([abc])([01])?$/.exec(item);
    const name = m?.[1] as SourceName | undefined;
    const places = name ? placesOf(form, name) : [];
    if (!m || places.length === 0) {
      notes.ignored.push(
        `oob item '${item}' is not an operand of ${form.text} (expected e.g. oob=b or oob=a1)`,
      );
      continue;
    }
    const key = name!;
    const lanes = marked.get(key) ?? new Set<number>();
    if (places[0]!.format === 'f32')
      notes.ignored.push(
        `oob item '${item}': ${key} is .f32 in ${form.text}; only 16-bit lanes can be OOB-NaN`,
      );
    else if (m[2] === undefined) places.forEach((_, i) => lanes.add(i));
    else if (Number(m[2]) < places.length) lanes.add(Number(m[2]));
    else notes.ignored.push(`oob item '${item}': ${key} has one lane in ${form.text}`);
    marked.set(key, lanes);
  }
  const start = startRegisters(form);
  for (const key of ['a', 'b', 'c'] as const) {
    const lanes = marked.get(key);
    if (!lanes || lanes.size === 0) continue;
    const width = form.registers.find((r) => r.name === key)!.bits;
    let bits = readRegister(form, key, out.get(key), start[key], notes);
    const places = placesOf(form, key);
    for (const lane of lanes) bits = withBitsAt(bits, places[lane]!.value, OOB_NAN_BITS);
    out.set(key, registerHex(bits, width));
  }
  return out;
}

/** Schema migrations: `MIGRATIONS[n]` turns parameters of version n into version n + 1. */
const MIGRATIONS: Readonly<Record<number, (p: Params, notes: MigrationNotes) => Params>> = {
  1: (p, notes) => {
    const out = new Map(p);
    const form = formOf(out.get('instr'));
    for (const r of form.registers.slice(1)) {
      const text = out.get(r.name);
      if (text === undefined) continue;
      const bits = readV1Bits(text, r.bits);
      if (bits !== null) out.set(r.name, registerHex(bits, r.bits));
    }
    return marksToPattern(out, notes);
  },
  2: (p, notes) => {
    const tab = p.get('tab');
    if (tab === undefined) return p;
    const out = new Map(p);
    const form = formOf(out.get('instr'));
    const v2Tabs = ['corners', 'approx', 'repro', 'sweep', 'format'];
    if (!v2Tabs.includes(tab)) {
      notes.ignored.push(`tab ${quoteText(tab)} is not a panel (expected ${v2Tabs.join(', ')})`);
      out.delete('tab');
    } else if (tab === 'approx' && form.errorBound === undefined) {
      notes.ignored.push(`tab 'approx': ${form.text} is exact, so it has no error plot`);
      out.delete('tab');
    } else if (tab === 'approx') out.set('tab', 'sweep');
    return out;
  },
};

/**
 * The parameters of a link of schema `version` (0: typed by hand) upgraded to `current`. A
 * hand-written link is read by today's rule, but its `tab` the way v2 named panels.
 */
export function migrate(
  params: Params,
  version: number,
  current: number,
  notes: MigrationNotes,
): Params {
  let p = params;
  let v = version;
  if (v === 0) {
    p = fromHandWritten(p, notes);
    v = 2;
  }
  for (; v < current; v++) p = MIGRATIONS[v]!(p, notes);
  return p;
}
