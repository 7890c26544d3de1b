import { findForm } from '../catalog/all-forms.ts';
import { FORMAT_NAMES, type FormatName } from '../catalog/formats.ts';
import type { Form, SourceName } from '../catalog/instruction.ts';
import { parseInstruction } from '../catalog/parse-instruction.ts';
import { isKnownPtxVersion } from '../catalog/ptx-versions.ts';
import { findTarget } from '../catalog/targets.ts';
import { sweepsOneInput } from '../engine/analysis/sweep-request.ts';
import { quoteText } from '../engine/number-text.ts';
import { migrate, type MigrationNotes, type Params } from './url-migrations.ts';
import { readRegisters, REGISTER_KEYS } from './url-registers.ts';
import { PANEL_URL_KEYS, readPanelSettings, writePanelSettings } from './panel-url.ts';
import {
  BLOCK_PARAM_MAX_LENGTH,
  BLOCK_URL_KEYS,
  readBlockSettings,
  writeBlockSettings,
} from './block-settings.ts';
import { registerHex } from './registers.ts';
import {
  isListRegister,
  linkParam,
  matrixListParam,
  MATRIX_LIST_MAX_LENGTH,
} from './url-matrix.ts';
import { variantFor } from './variant.ts';
import { DEFAULT_STATE, TABS, type Tab, type UrlState } from './url-state.ts';

/**
 * The playground's state as readable query parameters, one scheme for every instruction, e.g.
 * `?v=3&instr=fma.rn.relu.bf16x2&target=sm_90&ptx=8.6&a=0x3c003c00&b=0x40004000&c=0x0&tab=corners`
 * or `?v=3&instr=cvt.rs.satfinite.e2m1x4.f32&…&a=0x40880000&b=…&e=…&f=…&rbits=0x80ff7f01`; a
 * tensor core's row of A and column of B are lists of their k elements
 * (`?v=3&instr=mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32&…&a=0x3c00,0x4000,…&b=…&c=0x3f800000`,
 * url-matrix.ts), read alongside v3's single registers: no link of an older shape changes.
 *
 * Every source register by its spec name (`a`, `b`, `c`, `e`, `f`, `rbits`), read by the one
 * rule for operand text (engine/register-text.ts): `0x…`/`0b…` are the register's bits, anything
 * else (`a=1.5`, `b=-inf`) is a value rounded to each element's format and put in every element
 * that reads the register, and the page says what it stored. The app itself always writes bits.
 *
 * Decoding is total: whatever the URL holds, it yields a usable state plus the list of what it
 * ignored and why, so the page can say so instead of going blank. Older schema versions are
 * upgraded by the migrations of url-migrations.ts before decoding (the approach of Compiler
 * Explorer's url-serialization).
 */

export const URL_SCHEMA_VERSION = 3;

export interface DecodeResult {
  readonly state: UrlState;
  /** One human sentence per thing the URL held that could not be used. */
  readonly ignored: readonly string[];
  /** One sentence per operand the URL gave as a value: what was stored ("a = 1.5: stored …"). */
  readonly stored: readonly string[];
}

const DEFAULT_FORM = findForm(DEFAULT_STATE.instr)!;

/** No real parameter is near this long; longer ones are dropped before they reach a notice. */
export const MAX_PARAM_LENGTH = 200;

/** Quote a name from the URL in a notice, shortened so a notice stays one readable line. */
const quoted = quoteText;

/** The URL's parameters, first occurrence of each; what is dropped is said in `ignored`. */
function readParams(search: string, ignored: string[]): Params {
  const params = new URLSearchParams(search.startsWith('?') ? search.slice(1) : search);
  const map: Params = new Map();
  const repeats = new Map<string, number>();
  for (const [key, value] of params) {
    // A block of 32 values is longer than any other parameter (block-settings.ts), and a tensor
    // core's row or column, a list of up to 64 elements (url-matrix.ts).
    const limit =
      key === 'block' || key === 'column'
        ? BLOCK_PARAM_MAX_LENGTH
        : (key === 'a' || key === 'b') && value.includes(',')
          ? MATRIX_LIST_MAX_LENGTH
          : MAX_PARAM_LENGTH;
    if (key.length > MAX_PARAM_LENGTH || value.length > limit) {
      ignored.push(
        `parameter ${quoted(key)} is ${key.length + value.length} characters long (at most ${limit} are read); ignored it`,
      );
    } else if (map.has(key)) repeats.set(key, (repeats.get(key) ?? 1) + 1);
    else map.set(key, value);
  }
  for (const [key, count] of repeats)
    ignored.push(`parameter ${quoted(key)} appears ${count} times; used the first`);
  return map;
}

const KNOWN_KEYS = new Set([
  'v',
  'instr',
  'target',
  'ptx',
  ...REGISTER_KEYS,
  'tab',
  'vs',
  'format',
  ...PANEL_URL_KEYS,
  ...BLOCK_URL_KEYS,
]);

/** The `tab` parameter, where the form has that panel. */
function readTab(text: string | undefined, form: Form, ignored: string[]): Tab | null {
  if (text === undefined) return null;
  if (!TABS.includes(text as Tab)) {
    ignored.push(`tab ${quoted(text)} is not a panel (expected ${TABS.join(', ')})`);
    return null;
  }
  const single = sweepsOneInput(form);
  if (text === 'sweep' && !single) {
    const inputs = form.elements[0]!.inputs.length;
    ignored.push(
      `tab 'sweep': the sweep over many inputs is cvt's, tanh's, ex2's, neg's and abs's (one input per element); ${form.text} has ${inputs}`,
    );
    return null;
  }
  return text as Tab;
}

/** The format the format page opens on for a form: its destination element format. */
export function defaultFormatFor(instr: string): FormatName {
  const form = findForm(instr);
  return form ? form.elements[0]!.dest.format : 'e4m3';
}

/** The `format` parameter: a format name, or the form's default with a notice. */
function readFormat(text: string | undefined, form: Form, ignored: string[]): FormatName {
  if (text === undefined) return defaultFormatFor(form.text);
  const name = text.trim().replace(/^\./, '');
  if ((FORMAT_NAMES as readonly string[]).includes(name)) return name as FormatName;
  const fallback = defaultFormatFor(form.text);
  ignored.push(
    `format ${quoted(text)} is not a format (expected ${FORMAT_NAMES.join(', ')}); showing ${fallback}`,
  );
  return fallback;
}

/**
 * `vs=`: the variant to compare with, as typed (`vs=fma.rz.bf16`, any spelling the parser reads)
 * or `vs=unfused`, kept as the form's canonical text (variant.ts says which B an A takes). An
 * `unfused` whose instruction is not an fma is kept: the page says why that sequence does not
 * exist.
 */
function readVariant(text: string | undefined, instr: string, ignored: string[]): string | null {
  if (text === undefined) return null;
  const variant = variantFor(instr, text);
  if ('error' in variant) {
    ignored.push(`vs ${quoted(text)}: ${variant.error}; showing no comparison`);
    return null;
  }
  return variant.vs;
}

/** The link's schema version, and a notice where it names none this page reads. */
function readVersion(text: string | undefined, ignored: string[]): number {
  if (text === undefined) return 0;
  if (/^\d+$/.test(text) && Number(text) <= URL_SCHEMA_VERSION) return Number(text);
  ignored.push(
    `schema version v=${text} is unknown (this page reads up to v=${URL_SCHEMA_VERSION}); read as v=${URL_SCHEMA_VERSION}`,
  );
  return URL_SCHEMA_VERSION;
}

/**
 * The form an `instr` parameter names, or the default with a notice. A name in another case
 * (ADD.F16) is refused, as ptxas refuses it: a link names the form as the spec spells it.
 */
function readForm(instr: string | undefined, ignored: string[]): Form {
  if (instr === undefined) return DEFAULT_FORM;
  const parsed = parseInstruction(instr);
  const message = !parsed.ok
    ? parsed.error.message
    : parsed.spelling?.caseChanged
      ? parsed.spelling.message
      : null;
  if (parsed.ok && message === null) return parsed.form;
  // The whole name, as the link gave it (a parameter is at most MAX_PARAM_LENGTH long).
  ignored.push(`instr '${instr}': ${message}; showing ${DEFAULT_FORM.text}`);
  return DEFAULT_FORM;
}

export function decodeUrl(search: string): DecodeResult {
  const ignored: string[] = [];
  const stored: string[] = [];
  const notes: MigrationNotes = { ignored, stored };
  const read = readParams(search, ignored);
  const params = migrate(read, readVersion(read.get('v'), ignored), URL_SCHEMA_VERSION, notes);

  for (const key of params.keys()) {
    if (!KNOWN_KEYS.has(key)) ignored.push(`unknown parameter '${key}'`);
  }

  const form = readForm(params.get('instr'), ignored);

  let target = DEFAULT_STATE.target;
  const t = params.get('target');
  if (t !== undefined) {
    if (findTarget(t)) target = findTarget(t)!.name;
    else
      ignored.push(
        `target '${t}' is unknown (expected sm_50 … sm_121 with optional a/f); using ${target}`,
      );
  }

  let ptx = DEFAULT_STATE.ptx;
  const p = params.get('ptx');
  if (p !== undefined) {
    if (isKnownPtxVersion(p.trim())) ptx = p.trim();
    else ignored.push(`ptx '${p}' is not a known PTX ISA version; using ${ptx}`);
  }

  const registers = readRegisters(form, params, notes);
  const tab = readTab(params.get('tab'), form, ignored);
  const formatText = params.get('format');
  if (formatText !== undefined && tab !== 'format')
    ignored.push(`format ${quoted(formatText)} is read with tab=format; ignored it`);
  const format = tab === 'format' ? readFormat(formatText, form, ignored) : undefined;
  const panel = readPanelSettings(params, tab, form, notes);
  const vs = readVariant(params.get('vs'), form.text, ignored);
  const block = tab === 'block' ? readBlockSettings(params, notes) : undefined;
  if (tab !== 'block')
    for (const key of BLOCK_URL_KEYS)
      if (params.has(key))
        ignored.push(`${key} ${quoted(params.get(key)!)} is read with tab=block; ignored it`);

  return {
    state: {
      instr: form.text,
      target,
      ptx,
      registers,
      tab,
      vs,
      ...(format ? { format } : {}),
      ...panel,
      ...(block ? { block } : {}),
    },
    ignored,
    stored,
  };
}

/** The query string (with `?`) for a state. Only the registers the form has are written. */
export function encodeUrl(state: UrlState): string {
  const form = findForm(state.instr) ?? DEFAULT_FORM;
  const parts: [string, string][] = [
    ['v', String(URL_SCHEMA_VERSION)],
    ['instr', form.text],
    ['target', state.target],
    ['ptx', state.ptx],
  ];
  for (const r of form.registers.slice(1)) {
    const name = r.name as SourceName;
    const bits = state.registers[name] ?? 0n;
    // A tensor core's row and column: their elements, comma-separated (url-matrix.ts).
    parts.push([
      linkParam(name),
      isListRegister(form, name) ? matrixListParam(form, name, bits) : registerHex(bits, r.bits),
    ]);
  }
  if (state.tab !== null) parts.push(['tab', state.tab]);
  if (state.vs !== null) parts.push(['vs', state.vs]);
  if (state.tab === 'format' && state.format) parts.push(['format', state.format]);
  parts.push(
    ...writePanelSettings({
      corners: state.tab === 'corners' ? state.corners : undefined,
      sweep: state.tab === 'sweep' ? state.sweep : undefined,
    }),
  );
  if (state.tab === 'block' && state.block) parts.push(...writeBlockSettings(state.block));
  // Every value but a corner filter's words is made of [0-9A-Za-z._-] (and a block's or a tensor
  // core's lists of commas, which a query string may hold as they are), so the URL stays
  // readable; the words are escaped (+inf is %2Binf).
  const escape = (v: string) => encodeURIComponent(v).replaceAll('%2C', ',');
  return `?${parts.map(([k, v]) => `${k}=${escape(v)}`).join('&')}`;
}
