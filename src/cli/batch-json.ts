/**
 * The common shape of a `ptxf batch` line, read without JSON.parse: one flat object whose keys
 * are all batch fields, each once, and whose values are strings without escapes, integers of at
 * most 15 digits, true, false or null — `{"id":7,"instr":"add.rn.f16","a":"0x3c00","b":"0x4000"}`.
 * The fields of such a line are read into a BatchFields, whose every field holds what
 * JSON.parse's object holds under that key (undefined where the key is absent). Anything else —
 * an escape, a nested array, a fraction, an unknown or repeated key, whitespace other than spaces
 * and tabs, invalid JSON — gives undefined, and the line goes to JSON.parse, whose answer or
 * error message stands. JSON.parse alone took a third of the time of an untraced line.
 */

/** Every field of a batch line, in the order `ptxf batch --help` lists them. */
export const BATCH_FIELDS = [
  'id',
  'instr',
  'target',
  'ptx',
  'a',
  'b',
  'c',
  'e',
  'f',
  'rbits',
  'oob',
  'trace',
  'vs',
  'scale_a',
  'scale_b',
] as const;

export type BatchField = (typeof BATCH_FIELDS)[number];

/**
 * Operand fields: a, b, c of the arithmetic; a, b, e, f, rbits of cvt; a block-scaled mma's
 * scale_a and scale_b.
 */
export const OPERAND_FIELDS = ['a', 'b', 'c', 'e', 'f', 'rbits', 'scale_a', 'scale_b'] as const;

/**
 * The fields of a line of the common shape; one class, so that every line has one shape (set in
 * the constructor: a class field's definition costs more than an assignment, on every line).
 */
export class BatchFields implements Record<BatchField, unknown> {
  declare id: unknown;
  declare instr: unknown;
  declare target: unknown;
  declare ptx: unknown;
  declare a: unknown;
  declare b: unknown;
  declare c: unknown;
  declare e: unknown;
  declare f: unknown;
  declare rbits: unknown;
  declare oob: unknown;
  declare trace: unknown;
  declare vs: unknown;
  declare scale_a: unknown;
  declare scale_b: unknown;

  constructor() {
    this.id = undefined;
    this.instr = undefined;
    this.target = undefined;
    this.ptx = undefined;
    this.a = undefined;
    this.b = undefined;
    this.c = undefined;
    this.e = undefined;
    this.f = undefined;
    this.rbits = undefined;
    this.oob = undefined;
    this.trace = undefined;
    this.vs = undefined;
    this.scale_a = undefined;
    this.scale_b = undefined;
  }
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const COMMA = 0x2c;
const OPEN = 0x7b;
const CLOSE = 0x7d;
const MINUS = 0x2d;
const ZERO = 0x30;
const NINE = 0x39;
const SPACE = 0x20;
const TAB = 0x09;

/** The longest integer read here: 15 digits are exact in a double, as JSON.parse reads them. */
const MAX_DIGITS = 15;
/** The longest key read here (the longest fields, "scale_a" and "scale_b", have 7 characters). */
const MAX_KEY = 7;

/** A key of at most MAX_KEY ASCII characters as a number (base 128: one number per key). */
function keyCode(key: string): number {
  let h = 0;
  for (let i = 0; i < key.length; i++) h = h * 128 + key.charCodeAt(i);
  return h;
}

const FIELD_CODES = Float64Array.from(BATCH_FIELDS, keyCode);

function fieldOfCode(h: number): number {
  for (let k = 0; k < FIELD_CODES.length; k++) if (FIELD_CODES[k] === h) return k;
  return -1;
}

/** The first index from `at` on that holds no space or tab. */
function skipSpaces(line: string, at: number): number {
  let c = line.charCodeAt(at);
  if (c !== SPACE && c !== TAB) return at;
  let i = at;
  for (; c === SPACE || c === TAB; c = line.charCodeAt(++i));
  return i;
}

function store(fields: BatchFields, k: number, value: unknown): void {
  switch (k) {
    case 0:
      fields.id = value;
      break;
    case 1:
      fields.instr = value;
      break;
    case 2:
      fields.target = value;
      break;
    case 3:
      fields.ptx = value;
      break;
    case 4:
      fields.a = value;
      break;
    case 5:
      fields.b = value;
      break;
    case 6:
      fields.c = value;
      break;
    case 7:
      fields.e = value;
      break;
    case 8:
      fields.f = value;
      break;
    case 9:
      fields.rbits = value;
      break;
    case 10:
      fields.oob = value;
      break;
    case 11:
      fields.trace = value;
      break;
    case 12:
      fields.vs = value;
      break;
    case 13:
      fields.scale_a = value;
      break;
    default:
      fields.scale_b = value;
  }
}

/**
 * The fields of `line` where it has the common shape, or undefined (then JSON.parse decides).
 * One pass over the characters: keys are recognised by their code (keyCode) without a slice;
 * an escape or a control character in a string ends the pass (past the end of the line,
 * charCodeAt gives NaN, which no comparison below accepts).
 */
export function readBatchFields(line: string): BatchFields | undefined {
  const n = line.length;
  let i = skipSpaces(line, 0);
  if (line.charCodeAt(i) !== OPEN) return undefined;
  const fields = new BatchFields();
  let seen = 0;
  i = skipSpaces(line, i + 1);
  let c = line.charCodeAt(i);
  if (c === CLOSE) return skipSpaces(line, i + 1) === n ? fields : undefined;
  for (;;) {
    if (c !== QUOTE) return undefined;
    let h = 0;
    let j = i + 1;
    for (c = line.charCodeAt(j); c !== QUOTE; c = line.charCodeAt(++j)) {
      if (!(c >= SPACE && c < 128) || c === BACKSLASH || j - i > MAX_KEY) return undefined;
      h = h * 128 + c;
    }
    const k = fieldOfCode(h);
    if (k < 0 || (seen & (1 << k)) !== 0) return undefined;
    seen |= 1 << k;
    i = skipSpaces(line, j + 1);
    if (line.charCodeAt(i) !== COLON) return undefined;
    i = skipSpaces(line, i + 1);
    c = line.charCodeAt(i);
    let value: unknown;
    if (c === QUOTE) {
      let end = i + 1;
      for (c = line.charCodeAt(end); c !== QUOTE; c = line.charCodeAt(++end))
        if (!(c >= SPACE) || c === BACKSLASH) return undefined;
      value = line.slice(i + 1, end);
      i = end + 1;
    } else if (c === MINUS || (c >= ZERO && c <= NINE)) {
      const negative = c === MINUS;
      if (negative) i++;
      const start = i;
      let v = 0;
      for (let d = line.charCodeAt(i); d >= ZERO && d <= NINE; d = line.charCodeAt(++i))
        v = v * 10 + (d - ZERO);
      // JSON allows no leading zero: "0" alone, or a nonzero first digit.
      const digits = i - start;
      if (digits === 0 || digits > MAX_DIGITS) return undefined;
      if (digits > 1 && line.charCodeAt(start) === ZERO) return undefined;
      value = negative ? -v : v;
    } else if (line.startsWith('true', i)) {
      value = true;
      i += 4;
    } else if (line.startsWith('false', i)) {
      value = false;
      i += 5;
    } else if (line.startsWith('null', i)) {
      value = null;
      i += 4;
    } else {
      return undefined;
    }
    store(fields, k, value);
    i = skipSpaces(line, i);
    c = line.charCodeAt(i);
    if (c === CLOSE) return skipSpaces(line, i + 1) === n ? fields : undefined;
    if (c !== COMMA) return undefined;
    i = skipSpaces(line, i + 1);
    c = line.charCodeAt(i);
  }
}
