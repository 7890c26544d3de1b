import {
  DEFAULT_EVAL_PTX,
  DEFAULT_EVAL_TARGET,
  findForm,
  findTarget,
  isCvtForm,
  isKnownPtxVersion,
  parseAnyInstruction,
  parseInstruction,
  type CvtForm,
  type ElementFormatName,
  type Form,
} from '../catalog/index.ts';
import { approxErrorBound, DEFAULT_ENGINE_OPTIONS } from '../engine/index.ts';
import {
  describeStored,
  hexBits,
  parseOperandText,
  quoteText,
  type OperandShape,
} from '../engine/operand-text.ts';
import { variantFor } from './variant-text.ts';
import {
  PANEL_URL_KEYS,
  readPanelSettings,
  writePanelSettings,
  type CornerFilters,
  type SweepRange,
} from './panel-url.ts';
import type { CvtRegisters } from './cvt-operands.ts';
import {
  CVT_URL_KEYS,
  cvtKeysOnArithmetic,
  readCvtRegisters,
  readFormat,
  writeCvtRegisters,
} from './cvt-url.ts';

/**
 * The playground's state as readable query parameters, e.g.
 * `?v=2&instr=fma.rn.relu.bf16x2&target=sm_90&ptx=8.6&a=0x3c003c00&b=0x40004000&c=0x0&tab=corners`.
 *
 * Operands follow the project's one rule (engine/operand-text.ts): `0x…`/`0b…` are register
 * bits, anything else (`a=1.5`, `b=2`, `c=-inf`) is a value rounded to the operand's format by
 * round-to-nearest-even, and the page says what it stored. The app itself always writes bits.
 *
 * Decoding is total: whatever the URL holds, it yields a usable state plus the list of what it
 * ignored and why, so the page can say so instead of going blank. Older schema versions are
 * upgraded by `MIGRATIONS` before decoding (the approach of Compiler Explorer's url-serialization).
 */

export const URL_SCHEMA_VERSION = 2;

export type OperandKey = 'a' | 'b' | 'c';
export const OPERAND_KEYS: readonly OperandKey[] = ['a', 'b', 'c'];

/**
 * The panel open below the editors: corner cases, the error plot, the GPU program; for cvt the
 * sweep over many inputs; for every form the format pages.
 */
export type Tab = 'corners' | 'approx' | 'repro' | 'sweep' | 'format';
export const TABS: readonly Tab[] = ['corners', 'approx', 'repro', 'sweep', 'format'];

export interface UrlState {
  readonly instr: string;
  readonly target: string;
  readonly ptx: string;
  /** Register bits, unsigned; only the operands the form uses are meaningful. */
  readonly operands: Readonly<Record<OperandKey, number>>;
  /** The open panel, or null when none is open. */
  readonly tab: Tab | null;
  /**
   * What-if: the variant B compared with the instruction, a form's canonical text or
   * `unfused` (an fma's mul-then-add sequence); null when not comparing.
   */
  readonly vs: string | null;
  /** A cvt form's source registers (cvt-url.ts); present exactly when `instr` is a cvt form. */
  readonly cvt?: CvtRegisters;
  /** The format page's format; present exactly when `tab` is 'format'. */
  readonly format?: ElementFormatName;
  /** The corner-case table's filters (panel-url.ts); only with `tab` 'corners', absent: none. */
  readonly corners?: CornerFilters;
  /** A cvt sweep's range (panel-url.ts); only with `tab` 'sweep', absent: the form's default. */
  readonly sweep?: SweepRange;
}

export interface DecodeResult {
  readonly state: UrlState;
  /** One human sentence per thing the URL held that could not be used. */
  readonly ignored: readonly string[];
  /** One sentence per operand the URL gave as a value: what was stored ("a = 1.5: stored …"). */
  readonly stored: readonly string[];
}

export const DEFAULT_STATE: UrlState = {
  instr: 'fma.rn.f16',
  // The same default as `ptxf eval` (catalog/targets.ts).
  target: DEFAULT_EVAL_TARGET,
  ptx: DEFAULT_EVAL_PTX,
  // 1.5 * 2.0 + 0.25
  operands: { a: 0x3e00, b: 0x4000, c: 0x3400 },
  tab: null,
  vs: null,
};

type Params = Map<string, string>;

/** Where a migration reports what it could not carry over, and what a value it read stored. */
interface MigrationNotes {
  readonly ignored: string[];
  readonly stored: string[];
}

/**
 * A URL without `v` (or with `v=0`) was typed by hand. It may say `form` for `instr` and give
 * the target as a bare number (`target=90`, or `sm=90`); its operands are read by today's rule,
 * so `b=2` is the value 2 (a bare `3c00` is told to take the 0x prefix); `oob=` marks become
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

/**
 * Schema migrations: `MIGRATIONS[n]` turns parameters of version n into version n + 1.
 *
 * v1 → v2: v1 read every operand as bits: hex with or without `0x`, or binary with `0b`, with
 * any number of leading zeros. Each operand v1 could read is written as the register's bits, so
 * an old link keeps them (`b=2` stays the pattern 0x0002); one it could not read is left for the
 * v2 rule (`a=1.5`, which v1 refused, is now the value). v1 marked lanes OOB-NaN (`oob=b`,
 * `oob=a1`), which the engine read as its OOB-NaN pattern; v2 has no marks: the pattern is put
 * in those lanes.
 */
export const MIGRATIONS: Readonly<Record<number, (p: Params, notes: MigrationNotes) => Params>> = {
  1: (p, notes) => {
    const out = new Map(p);
    const form = formOf(out.get('instr'));
    for (const key of OPERAND_KEYS) {
      const text = out.get(key);
      const shape = shapeOf(form, key);
      if (text === undefined || shape === undefined) continue;
      const bits = readV1Bits(text, shape.bits);
      if (bits !== null) out.set(key, hexBits(bits, shape.bits));
    }
    return marksToPattern(out, notes);
  },
};

/** v1's reading of an operand: `0b` binary or hex digits (optional `0x`), leading zeros free. */
function readV1Bits(text: string, width: 16 | 32): number | null {
  const t = text.toLowerCase().replace(/[\s_]/g, '');
  const binary = /^0b([01]+)$/.exec(t);
  const hex = /^(?:0x)?([0-9a-f]+)$/.exec(t);
  const digits = binary?.[1] ?? hex?.[1];
  if (digits === undefined) return null;
  const significant = digits.replace(/^0+/, '');
  if (significant.length > (binary ? width : width / 4)) return null;
  return significant === '' ? 0 : parseInt(significant, binary ? 2 : 16) >>> 0;
}

/** The OOB-NaN pattern a v1 mark stood for (the engine's, decision 'oob-nan-pattern'). */
const OOB_NAN_BITS = DEFAULT_ENGINE_OPTIONS.oobNanBits;

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
  const marked: Record<OperandKey, [boolean, boolean]> = {
    a: [false, false],
    b: [false, false],
    c: [false, false],
  };
  for (const raw of text.split(',')) {
    const item = raw.trim();
    if (item === '') continue;
    const m = /^([abc])([01])?$/.exec(item);
    const operand = form.operands.find((o) => o.name === m?.[1]);
    if (!m || !operand) {
      notes.ignored.push(
        `oob item '${item}' is not an operand of ${form.text} (expected e.g. oob=b or oob=a1)`,
      );
      continue;
    }
    const key = m[1] as OperandKey;
    if (operand.format === 'f32')
      notes.ignored.push(
        `oob item '${item}': ${key} is .f32 in ${form.text}; only 16-bit lanes can be OOB-NaN`,
      );
    else if (m[2] === undefined) marked[key] = [true, operand.lanes === 2];
    else if (operand.lanes === 2 || m[2] === '0') marked[key][Number(m[2])] = true;
    else notes.ignored.push(`oob item '${item}': ${key} has one lane in ${form.text}`);
  }
  for (const key of OPERAND_KEYS) {
    const [lane0, lane1] = marked[key];
    if (!lane0 && !lane1) continue;
    const operand = shapeOf(form, key)!;
    let bits = readOperand(form, key, out.get(key), notes);
    if (lane0)
      bits = operand.lanes === 2 ? ((bits & 0xffff0000) | OOB_NAN_BITS) >>> 0 : OOB_NAN_BITS;
    if (lane1) bits = ((bits & 0xffff) | (OOB_NAN_BITS << 16)) >>> 0;
    out.set(key, hexBits(bits, operand.bits));
  }
  return out;
}

/** The form an `instr` parameter names, or the default (whose notice the decoder gives). */
function formOf(instr: string | undefined): Form {
  const parsed = instr === undefined ? null : parseInstruction(instr);
  return parsed?.ok ? parsed.form : findForm(DEFAULT_STATE.instr)!;
}

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
    if (key.length > MAX_PARAM_LENGTH || value.length > MAX_PARAM_LENGTH) {
      ignored.push(
        `parameter ${quoted(key)} is ${key.length + value.length} characters long (at most ${MAX_PARAM_LENGTH} are read); ignored it`,
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
  'a',
  'b',
  'c',
  'tab',
  'vs',
  ...CVT_URL_KEYS,
  ...PANEL_URL_KEYS,
]);

/** The register an operand of the form is (absent: the form has no such operand). */
export function shapeOf(form: Form, key: OperandKey): OperandShape | undefined {
  return form.operands.find((o) => o.name === key);
}

/** `0x` and the bits, zero-padded to the register width: how the app writes bits. */
export const formatBits = hexBits;

/**
 * One operand's bits from its text by the one rule, or the form's default for it with a notice
 * when the text is neither bits nor a value; a value's stored bits are noted.
 */
function readOperand(
  form: Form,
  key: OperandKey,
  text: string | undefined,
  notes: MigrationNotes,
): number {
  const shape = shapeOf(form, key)!;
  if (text === undefined) return defaultFor(form, key);
  const r = parseOperandText(text, shape);
  if (!r.ok) {
    const bits = defaultFor(form, key);
    notes.ignored.push(`operand ${key}: ${r.message}; using ${hexBits(bits, shape.bits)}`);
    return bits;
  }
  if (r.value)
    notes.stored.push(`${key} = ${r.value.text}: ${describeStored(r.bits, shape, r.value)}`);
  return r.bits;
}

export function decodeUrl(search: string): DecodeResult {
  const ignored: string[] = [];
  const stored: string[] = [];
  const notes: MigrationNotes = { ignored, stored };
  let params = readParams(search, ignored);

  let version = 0;
  const v = params.get('v');
  if (v !== undefined) {
    if (/^\d+$/.test(v) && Number(v) <= URL_SCHEMA_VERSION) version = Number(v);
    else {
      ignored.push(
        `schema version v=${v} is unknown (this page reads up to v=${URL_SCHEMA_VERSION}); read as v=${URL_SCHEMA_VERSION}`,
      );
      version = URL_SCHEMA_VERSION;
    }
  }
  if (version === 0) {
    params = fromHandWritten(params, notes);
    version = URL_SCHEMA_VERSION;
  }
  for (; version < URL_SCHEMA_VERSION; version++) params = MIGRATIONS[version]!(params, notes);

  for (const key of params.keys()) {
    if (!KNOWN_KEYS.has(key)) ignored.push(`unknown parameter '${key}'`);
  }

  let form = findForm(DEFAULT_STATE.instr)!;
  // A cvt form (cvt-url.ts reads its operands), or null for the arithmetic's.
  let cvtForm: CvtForm | null = null;
  const instr = params.get('instr');
  if (instr !== undefined) {
    const parsed = parseAnyInstruction(instr);
    if (parsed.ok && isCvtForm(parsed.form)) cvtForm = parsed.form;
    else if (parsed.ok) form = parsed.form as Form;
    else ignored.push(`instr '${instr}': ${parsed.error.message}; showing ${form.text}`);
  }
  const instrText = cvtForm?.text ?? form.text;

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

  const operands: Record<OperandKey, number> = { ...DEFAULT_STATE.operands };
  const cvt = cvtForm ? readCvtRegisters(cvtForm, params, notes) : undefined;
  if (!cvtForm) {
    for (const key of OPERAND_KEYS) {
      const text = params.get(key);
      if (shapeOf(form, key) === undefined) {
        if (text !== undefined) ignored.push(`operand ${key}: ${form.text} has no operand ${key}`);
        continue;
      }
      operands[key] = readOperand(form, key, text, notes);
    }
    cvtKeysOnArithmetic(form.text, params, notes);
  }

  let tab: Tab | null = null;
  const tabText = params.get('tab');
  if (tabText !== undefined) {
    if (!TABS.includes(tabText as Tab))
      ignored.push(`tab ${quoted(tabText)} is not a panel (expected ${TABS.join(', ')})`);
    else if (tabText === 'approx' && (cvtForm || approxErrorBound(form) === null))
      ignored.push(`tab 'approx': ${instrText} is exact, so it has no error plot`);
    else if (tabText === 'repro' && cvtForm)
      ignored.push(`tab 'repro': the GPU program is written for the arithmetic, not cvt`);
    else if (tabText === 'sweep' && !cvtForm)
      ignored.push(`tab 'sweep': the sweep over many inputs is cvt's; ${instrText} is not a cvt`);
    else tab = tabText as Tab;
  }
  const formatText = params.get('format');
  if (formatText !== undefined && tab !== 'format')
    ignored.push(`format ${quoted(formatText)} is read with tab=format; ignored it`);
  const format = tab === 'format' ? readFormat(formatText, instrText, notes) : undefined;
  const panel = readPanelSettings(params, tab, cvtForm, notes);

  const vs = readVariant(params.get('vs'), instrText, ignored);

  return {
    state: {
      instr: instrText,
      target,
      ptx,
      operands,
      tab,
      vs,
      ...(cvt ? { cvt } : {}),
      ...(format ? { format } : {}),
      ...panel,
    },
    ignored,
    stored,
  };
}

/**
 * `vs=`: the variant to compare with, as typed (`vs=fma.rz.bf16`, any spelling the parser reads)
 * or `vs=unfused`, kept as the form's canonical text. An `unfused` whose instruction is not an
 * fma is kept too: the page says why that sequence does not exist. A cvt instruction compares
 * with a cvt form, an arithmetic one with an arithmetic form: the other kind is ignored. Added in
 * v2 without a new schema version: links without it load as before.
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

/** Default bits for an operand: the default state's 16-bit pattern, or f32 values for mixed forms. */
function defaultFor(form: Form, key: OperandKey): number {
  const operand = form.operands.find((o) => o.name === key);
  if (!operand) return DEFAULT_STATE.operands[key];
  if (operand.format === 'f32') return key === 'c' ? 0x3e800000 : 0x3fc00000; // 0.25, 1.5
  // The same values (1.5, 2, 0.25) in bf16 as in f16, in every lane.
  const lane =
    operand.format === 'bf16'
      ? { a: 0x3fc0, b: 0x4000, c: 0x3e80 }[key]
      : DEFAULT_STATE.operands[key];
  return operand.lanes === 2 ? ((lane << 16) | lane) >>> 0 : lane;
}

export { defaultFor as defaultOperandBits };

/** The query string (with `?`) for a state. Only parameters the form uses are written. */
export function encodeUrl(state: UrlState): string {
  const form = findForm(state.instr);
  const parts: [string, string][] = [
    ['v', String(URL_SCHEMA_VERSION)],
    ['instr', state.instr],
    ['target', state.target],
    ['ptx', state.ptx],
  ];
  if (form) {
    for (const key of OPERAND_KEYS) {
      const shape = shapeOf(form, key);
      if (shape !== undefined) parts.push([key, hexBits(state.operands[key], shape.bits)]);
    }
  }
  const cvtForm = form ? undefined : parseAnyInstruction(state.instr);
  if (cvtForm?.ok && isCvtForm(cvtForm.form) && state.cvt)
    parts.push(...writeCvtRegisters(cvtForm.form, state.cvt));
  if (state.tab !== null) parts.push(['tab', state.tab]);
  if (state.vs !== null) parts.push(['vs', state.vs]);
  if (state.tab === 'format' && state.format) parts.push(['format', state.format]);
  parts.push(
    ...writePanelSettings({
      corners: state.tab === 'corners' ? state.corners : undefined,
      sweep: state.tab === 'sweep' ? state.sweep : undefined,
    }),
  );
  // Every value but a corner filter's words is made of [0-9A-Za-z._-], so the URL stays
  // readable; the words are escaped (+inf is %2Binf).
  return `?${parts.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&')}`;
}
