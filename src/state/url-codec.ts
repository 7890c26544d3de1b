import {
  findForm,
  findTarget,
  isKnownPtxVersion,
  parseInstruction,
  type Form,
} from '../catalog/index.ts';

/**
 * The playground's state as readable query parameters, e.g.
 * `?v=1&instr=fma.rn.relu.bf16x2&target=sm_90&ptx=8.6&a=0x3c003c00&b=0x40004000&c=0x0&oob=b`.
 *
 * Decoding is total: whatever the URL holds, it yields a usable state plus the list of what it
 * ignored and why, so the page can say so instead of going blank. Older schema versions are
 * upgraded by `MIGRATIONS` before decoding (the approach of Compiler Explorer's url-serialization).
 */

export const URL_SCHEMA_VERSION = 1;

export type OperandKey = 'a' | 'b' | 'c';
export const OPERAND_KEYS: readonly OperandKey[] = ['a', 'b', 'c'];

/** Per operand, per lane: is that lane marked OOB-NaN? (Single-lane operands use lane 0.) */
export type OobState = Record<OperandKey, readonly [boolean, boolean]>;

export interface UrlState {
  readonly instr: string;
  readonly target: string;
  readonly ptx: string;
  /** Register bits, unsigned; only the operands the form uses are meaningful. */
  readonly operands: Readonly<Record<OperandKey, number>>;
  readonly oob: OobState;
}

export interface DecodeResult {
  readonly state: UrlState;
  /** One human sentence per thing the URL held that could not be used. */
  readonly ignored: readonly string[];
}

export const NO_OOB: OobState = { a: [false, false], b: [false, false], c: [false, false] };

export const DEFAULT_STATE: UrlState = {
  instr: 'fma.rn.f16',
  target: 'sm_90',
  ptx: '8.6',
  // 1.5 * 2.0 + 0.25
  operands: { a: 0x3e00, b: 0x4000, c: 0x3400 },
  oob: NO_OOB,
};

type Params = Map<string, string>;

/**
 * Schema migrations: `MIGRATIONS[n]` turns parameters of version n into version n + 1.
 * Version 0 is a URL without `v` (typed by hand): it may say `form` for `instr` and give the
 * target as a bare number (`target=90`, or `sm=90`).
 */
export const MIGRATIONS: Readonly<Record<number, (p: Params) => Params>> = {
  0: (p) => {
    const out = new Map(p);
    if (!out.has('instr') && out.has('form')) out.set('instr', out.get('form')!);
    out.delete('form');
    const sm = out.get('target') ?? out.get('sm');
    if (sm !== undefined && /^\d+[af]?$/.test(sm)) out.set('target', `sm_${sm}`);
    else if (sm !== undefined) out.set('target', sm);
    out.delete('sm');
    return out;
  },
};

/** No real parameter is near this long; longer ones are dropped before they reach a notice. */
export const MAX_PARAM_LENGTH = 200;

/** A typed or linked bit pattern in a message, shortened so a 1 MB paste stays one line. */
function clipped(text: string): string {
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}

/** Quote a name from the URL in a notice, shortened so a notice stays one readable line. */
function quoted(text: string): string {
  return `'${clipped(text)}'`;
}

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

const KNOWN_KEYS = new Set(['v', 'instr', 'target', 'ptx', 'a', 'b', 'c', 'oob']);

/** Operand register width of a form, by operand name (absent: the form has no such operand). */
function widthOf(form: Form, key: OperandKey): 16 | 32 | undefined {
  return form.operands.find((o) => o.name === key)?.bits;
}

/** Parse `0x3c00`, `3c00` or a binary `0b0011110000000000` into unsigned bits of `width`. */
export function parseBits(text: string, width: 16 | 32): number | string {
  return /^\s*0b/i.test(text) ? parseBinaryBits(text, width) : parseHexBits(text, width);
}

/** Digits of a bit pattern: lower case, without the spaces and underscores that group them. */
function digitsOf(text: string, prefix: '0x' | '0b'): string {
  const t = text.toLowerCase().replace(/[\s_]/g, '');
  return t.startsWith(prefix) ? t.slice(2) : t;
}

/** The hex field: `0x3c00` or `3c00`. */
export function parseHexBits(text: string, width: 16 | 32): number | string {
  const digits = digitsOf(text, '0x');
  if (!/^[0-9a-f]+$/.test(digits)) return `${clipped(text)} is not a hexadecimal bit pattern`;
  if (digits.replace(/^0+/, '').length > width / 4)
    return `${clipped(text)} does not fit in ${width} bits`;
  return parseInt(digits, 16) >>> 0;
}

/** The binary field: `0b0011110000000000` or the digits alone (`0011 1100 0000 0000`). */
export function parseBinaryBits(text: string, width: 16 | 32): number | string {
  const digits = digitsOf(text, '0b');
  if (!/^[01]+$/.test(digits))
    return `${clipped(text)} is not a binary bit pattern (digits 0 and 1)`;
  if (digits.replace(/^0+/, '').length > width)
    return `${clipped(text)} has more than ${width} bits`;
  return parseInt(digits, 2) >>> 0;
}

export function formatBits(bits: number, width: 16 | 32): string {
  return `0x${(bits >>> 0).toString(16).padStart(width / 4, '0')}`;
}

function decodeOob(text: string, form: Form, ignored: string[]): OobState {
  const marks: Record<OperandKey, [boolean, boolean]> = {
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
      ignored.push(
        `oob item '${item}' is not an operand of ${form.text} (expected e.g. oob=b or oob=a1)`,
      );
      continue;
    }
    const key = m[1] as OperandKey;
    // The engine marks only 16-bit lanes: a .f32 register cannot hold a tensor's OOB-NaN.
    if (operand.format === 'f32')
      ignored.push(
        `oob item '${item}': ${key} is .f32 in ${form.text}; only 16-bit lanes can be OOB-NaN`,
      );
    else if (m[2] === undefined) marks[key] = [true, operand.lanes === 2];
    else if (operand.lanes === 2 || m[2] === '0') marks[key][Number(m[2])] = true;
    else ignored.push(`oob item '${item}': ${key} has one lane in ${form.text}`);
  }
  return marks;
}

export function decodeUrl(search: string): DecodeResult {
  const ignored: string[] = [];
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
  for (; version < URL_SCHEMA_VERSION; version++) params = MIGRATIONS[version]!(params);

  for (const key of params.keys()) {
    if (!KNOWN_KEYS.has(key)) ignored.push(`unknown parameter '${key}'`);
  }

  let form = findForm(DEFAULT_STATE.instr)!;
  const instr = params.get('instr');
  if (instr !== undefined) {
    const parsed = parseInstruction(instr);
    if (parsed.ok) form = parsed.form;
    else ignored.push(`instr '${instr}': ${parsed.error.message}; showing ${form.text}`);
  }

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
  for (const key of OPERAND_KEYS) {
    const width = widthOf(form, key);
    const text = params.get(key);
    if (width === undefined) {
      if (text !== undefined) ignored.push(`operand ${key}: ${form.text} has no operand ${key}`);
      continue;
    }
    if (text === undefined) {
      operands[key] = defaultFor(form, key);
      continue;
    }
    const bits = parseBits(text, width);
    if (typeof bits === 'number') operands[key] = bits;
    else {
      operands[key] = defaultFor(form, key);
      ignored.push(`operand ${key}: ${bits}; using ${formatBits(operands[key], width)}`);
    }
  }

  const oobText = params.get('oob');
  const oob = oobText === undefined ? NO_OOB : decodeOob(oobText, form, ignored);

  return { state: { instr: form.text, target, ptx, operands, oob }, ignored };
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

function encodeOob(oob: OobState, form: Form): string {
  const items: string[] = [];
  for (const operand of form.operands) {
    if (operand.name === 'd' || operand.format === 'f32') continue;
    const [l0, l1] = oob[operand.name];
    if (operand.lanes === 2) {
      if (l0 && l1) items.push(operand.name);
      else if (l0) items.push(`${operand.name}0`);
      else if (l1) items.push(`${operand.name}1`);
    } else if (l0) items.push(operand.name);
  }
  return items.join(',');
}

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
      const width = widthOf(form, key);
      if (width !== undefined) parts.push([key, formatBits(state.operands[key], width)]);
    }
    const oob = encodeOob(state.oob, form);
    if (oob) parts.push(['oob', oob]);
  }
  // Every value is made of [0-9A-Za-z._,], so no escaping is needed and the URL stays readable.
  return `?${parts.map(([k, v]) => `${k}=${encodeURIComponent(v).replace(/%2C/g, ',')}`).join('&')}`;
}
