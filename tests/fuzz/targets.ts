/**
 * The fuzz targets: each pairs a generator of hostile inputs (mutated valid seeds) with the
 * checks every answer must pass — a result of the documented shape or a structured error.
 */
// Every family's semantics, provided before anything evaluates (engine/family-semantics.ts).
import '../../src/engine/all-families.ts';
import { findForm as findAnyForm, FORMS as ONE_FORMS } from '../../src/catalog/all-forms.ts';
import type { Form as AnyCatalogForm, SourceName } from '../../src/catalog/instruction.ts';
import { isKnownPtxVersion, PTX_VERSIONS } from '../../src/catalog/ptx-versions.ts';
import { findTarget, TARGETS } from '../../src/catalog/targets.ts';
import { checkInstruction } from '../../src/catalog/check-instruction.ts';
import { parseInstruction } from '../../src/catalog/parse-instruction.ts';
import { BatchCaches, processBatchLine } from '../../src/cli/batch-line.ts';
import { runBatchSummary, type BatchSink } from '../../src/cli/batch.ts';
import { runEval } from '../../src/cli/eval.ts';
import { resolveOperands } from '../../src/cli/request.ts';
import { classify, FORMATS, hexOf, type Format } from '../../src/engine/format.ts';
import { readRegisterText } from '../../src/engine/register-text.ts';
import { readValueText, shortestDecimal } from '../../src/engine/stored-value.ts';
import { decodeUrl, encodeUrl } from '../../src/state/url-codec.ts';
import { TABS, type UrlState } from '../../src/state/url-state.ts';
import { inputAt, previewInput, runTarget, type FuzzReport, type FuzzTarget } from './harness.ts';
import { HUGE_NUMBERS, megabyte, mutateSeed, noise } from './mutate.ts';
import type { Rng } from './random.ts';

const isInt = (x: unknown, below: number) =>
  typeof x === 'number' && Number.isInteger(x) && x >= 0 && x < below;

/** Problems with a { code, message, position? } error, or null. */
function badError(error: unknown, codes: readonly string[], textLength?: number): string | null {
  if (typeof error !== 'object' || error === null) return `error is ${JSON.stringify(error)}`;
  const e = error as { code?: unknown; message?: unknown; position?: unknown };
  if (!codes.includes(e.code as string)) return `unexpected error code ${JSON.stringify(e.code)}`;
  if (typeof e.message !== 'string' || e.message.length === 0) return 'error without a message';
  if (
    textLength !== undefined &&
    'position' in e &&
    !(isInt(e.position, textLength + 1) || e.position === 0)
  ) {
    return `error position ${String(e.position)} outside the input (length ${textLength})`;
  }
  return null;
}

// ---------------------------------------------------------------- PTX parser and validator

const INSTRUCTION_SEEDS: readonly string[] = [
  ...ONE_FORMS.map((f) => f.text),
  'cvt.rs.satfinite.e2m1x4.f32 %rs1, {%f1, %f2, %f3, %f4}, %r9;',
  'cvt.f16.satfinite.f32.rn',
  'cvt.rni.s32.f32',
  'fma.rn.f16 d, a, b, c;',
  '@%p1 add.f16 %h1, %h2, %h3; // sum',
  '  max.NaN.xorsign.abs.bf16x2  %r1 ,%r2,%r3 ;',
  'add.rz.f32.bf16.sat',
  'fma.rz.sat.f32.f16.sat',
  'FMA.RN.F16',
  'tanh.approx.f32',
  'ex2.approx.bf16',
];
const TARGET_SEEDS = [...TARGETS.map((t) => t.name), 'sm_9', 'sm_90x', 'SM_90', '90'];
const PTX_SEEDS = [...PTX_VERSIONS, '8', '8.', '08.6', '10.0', '9.9'];

interface InstructionInput {
  readonly text: string;
  readonly target?: string;
  readonly ptx?: string;
}

/** The one parser: the same checks, a form of all-forms.ts. */
function checkOneParse(text: string): string | null {
  const parsed = parseInstruction(text);
  if (parsed.ok) {
    if (findAnyForm(parsed.form.text) !== parsed.form)
      return `parsed to a form outside the catalog: ${parsed.form.text}`;
    const again = parseInstruction(parsed.form.text);
    if (!again.ok || again.form !== parsed.form || again.spelling !== null)
      return `canonical text ${parsed.form.text} does not parse back to itself`;
    if (parsed.operands !== null && !parsed.operands.every((o) => typeof o === 'string'))
      return 'operands are not strings';
    return null;
  }
  const bad = badError(parsed.error, ['syntax'], text.length);
  if (bad) return bad;
  if (!Array.isArray(parsed.error.expected)) return 'syntax error without an expected list';
  return null;
}

/** A verdict whose validity agrees with its reasons, each of a known code and with a message. */
function badVerdict(
  v: {
    readonly valid: boolean;
    readonly target: string;
    readonly ptx: string;
    readonly reasons: readonly { readonly code: string; readonly message: string }[];
  },
  codes: readonly string[],
): string | null {
  if (typeof v.valid !== 'boolean' || v.valid !== (v.reasons.length === 0))
    return 'verdict.valid disagrees with its reasons';
  for (const r of v.reasons) {
    if (!codes.includes(r.code)) return `reason code ${r.code}`;
    if (typeof r.message !== 'string' || r.message === '') return 'reason without a message';
  }
  if (!findTarget(v.target) || !isKnownPtxVersion(v.ptx))
    return `verdict names ${v.target} / ${v.ptx}`;
  return null;
}

export const ptxParserTarget: FuzzTarget<InstructionInput> = {
  name: 'ptx-parser',
  covers: 'the one parser (parseInstruction) and checkInstruction, over every form',
  generate(rng: Rng) {
    const text = rng.chance(0.05) ? noise(rng) : mutateSeed(rng, INSTRUCTION_SEEDS);
    return {
      text,
      target: rng.chance(0.3)
        ? undefined
        : rng.chance(0.8)
          ? rng.pick(TARGET_SEEDS)
          : mutateSeed(rng, TARGET_SEEDS),
      ptx: rng.chance(0.3)
        ? undefined
        : rng.chance(0.8)
          ? rng.pick(PTX_SEEDS)
          : mutateSeed(rng, PTX_SEEDS),
    };
  },
  check({ text, target, ptx }) {
    const oneProblem = checkOneParse(text);
    if (oneProblem) return `parseInstruction: ${oneProblem}`;
    const one = checkInstruction(text, target, ptx);
    const oneBad = one.ok
      ? badVerdict(one.verdict, ['target', 'ptx-version', 'spelling'])
      : badError(one.error, ['syntax', 'target', 'ptx-version'], text.length);
    return oneBad ? `checkInstruction: ${oneBad}` : null;
  },
};

// ---------------------------------------------------------------- value parser

const VALUE_SEEDS: readonly string[] = [
  '1.5',
  '-0',
  '+0',
  '0',
  '0x1.8p-3',
  '0x.8p1',
  '0xABC.DEFp+10',
  '0x1p-24',
  'inf',
  '-inf',
  'Infinity',
  '∞',
  'nan',
  '-nan',
  'qnan',
  'snan',
  '65504',
  '65519.99',
  '65520',
  '6.1035156e-5',
  '5.96e-8',
  '2.98e-8',
  '1e-45',
  '1.4e-45',
  '3.4028235e38',
  '3.4028236e38',
  '0.1',
  '1_000.5',
  '  2.5  ',
  '+1',
  '.5',
  '5.',
  '1e+3',
  '1E3',
  '-1.5e-5',
  '0.333333333333333333333333333333333',
  '1.00048828125',
  ...HUGE_NUMBERS,
];
const FORMAT_LIST: readonly Format[] = Object.values(FORMATS);
/** The codes a value text may be refused with (number-text.ts). */
const VALUE_ERRORS = [
  'empty',
  'too-long',
  'not-a-number',
  'exponent-range',
  'no-infinity',
  'no-nan',
  'no-signaling-nan',
  'no-zero',
  'unsigned',
  'beyond-range',
  'below-least',
];

export const valueParserTarget: FuzzTarget<{ text: string; format: Format }> = {
  name: 'value-parser',
  covers:
    'readValueText (decimal, hex float, inf, nan) in every format and its round trip through shortestDecimal',
  generate(rng) {
    return {
      text: rng.chance(0.05) ? noise(rng) : mutateSeed(rng, VALUE_SEEDS),
      format: rng.pick(FORMAT_LIST),
    };
  },
  check({ text, format }) {
    const parsed = readValueText(text, format);
    if (!parsed.ok) return badError(parsed.error, VALUE_ERRORS, text.length);
    const { bits, exact } = parsed.value;
    if (typeof bits !== 'bigint' || bits < 0n || bits >> BigInt(format.width) !== 0n)
      return `bits ${String(bits)} outside ${format.width} bits`;
    if (typeof exact !== 'boolean') return 'exact is not a boolean';
    const cls = classify(bits, format);
    if (cls !== 'qnan' && cls !== 'snan') {
      const shortest = shortestDecimal(bits, format);
      const back = readValueText(shortest, format);
      if (!back.ok || back.value.bits !== bits)
        return `shortestDecimal ${shortest} does not read back to ${bits}`;
    }
    return null;
  },
};

// ---------------------------------------------------------------- operand bit parsers

const BITS_SEEDS: readonly string[] = [
  '0x3c00',
  '0X3C00',
  '0x0',
  '0xffff',
  '0x10000',
  '0x3c003c00',
  '0xffffffff',
  '0x100000000',
  '3c00',
  '0b0011110000000000',
  '0b' + '1'.repeat(32),
  '0x3c_00',
  ' 0x1 ',
  '0x',
  '0x-1',
  '-0x1',
  '0x1.8p1',
  '0x00003c00',
  '1.5',
  '-0',
  '2049',
  '1e-3',
  '-inf',
  'nan',
  '',
];

/** Forms whose register a is one .f16, two .bf16, two .f16, one .f32 and one .f64. */
const OPERAND_FORMS: readonly string[] = [
  'neg.f16',
  'neg.bf16x2',
  'neg.f16x2',
  'cvt.rn.f16.f32',
  'cvt.rn.f32.f64',
];

export const operandBitsTarget: FuzzTarget<{ text: string; form: string }> = {
  name: 'operand-bits',
  covers:
    "readRegisterText (engine/register-text.ts: share links, the editors' fields), and the CLI's reading of a register (resolveOperands) on a form with that register",
  generate(rng) {
    return {
      text: rng.chance(0.05) ? noise(rng) : mutateSeed(rng, BITS_SEEDS),
      form: rng.pick(OPERAND_FORMS),
    };
  },
  check({ text, form: formText }) {
    const form = findAnyForm(formText)!;
    const width = form.registers.find((r) => r.name === 'a')!.bits;
    const one = readRegisterText(form, 'a', text);
    if (one.ok) {
      if (one.bits < 0n || one.bits >> BigInt(width) !== 0n)
        return `bits ${one.bits} outside ${width} bits`;
      // The app writes bits back as hex; that text must read the same bits, as bits.
      const again = readRegisterText(form, 'a', hexOf(one.bits, width));
      if (!again.ok || again.bits !== one.bits || again.written !== 'bits')
        return 'hex of the bits does not read back as the same bits';
      if (one.written === 'value' && width === 32 && form.type.endsWith('x2')) {
        const lanes = [one.bits >> 16n, one.bits & 0xffffn];
        if (lanes[0] !== lanes[1]) return 'a value in a packed register is not in both lanes';
      }
    } else if (
      typeof one.error.message !== 'string' ||
      one.error.message === '' ||
      one.error.message.length > 300
    )
      return 'error without a one-line message';
    // The CLI reads a register by the one rule, with the operand named in its messages.
    const cli = resolveOperands(form, { a: text }, [], 0x7ff7);
    if (cli.ok !== one.ok || (cli.ok && one.ok && cli.registers.a !== one.bits))
      return `CLI reads ${JSON.stringify(cli, (_, v) => (typeof v === 'bigint' ? `${v}n` : v))}, readRegisterText ${JSON.stringify(one, (_, v) => (typeof v === 'bigint' ? `${v}n` : v))}`;
    if (!cli.ok && !cli.error.message.startsWith('operand a: '))
      return 'CLI message does not name a';
    return null;
  },
};

// ---------------------------------------------------------------- URL decoder

/** Random bits of any register width (64 bits as two 32-bit halves). */
function registerBits(rng: Rng, width: number): bigint {
  if (width <= 32) return BigInt(rng.bits(width));
  return (BigInt(rng.bits(32)) << 32n) | BigInt(rng.bits(32));
}

function stateFor(form: AnyCatalogForm, rng: Rng): UrlState {
  return {
    instr: form.text,
    target: rng.pick(TARGETS).name,
    ptx: rng.pick(PTX_VERSIONS),
    registers: Object.fromEntries(
      form.registers.slice(1).map((r) => [r.name, registerBits(rng, r.bits)]),
    ),
    tab: rng.chance(0.5) ? null : rng.pick(TABS.filter((t) => t !== 'sweep')),
    vs: rng.chance(0.5) ? null : rng.chance(0.3) ? 'unfused' : rng.pick(ONE_FORMS).text,
  };
}

const URL_HAND_SEEDS: readonly string[] = [
  '?form=add.f16&sm=90',
  '?instr=fma.rn.f16&a=3c00&b=0b0100000000000000',
  '?v=2&instr=fma.rn.f16',
  '?v=0&target=90a',
  '?instr=<script>alert(1)</script>&target=javascript:alert(1)',
  '?a=%ZZ&b=%&c=%E0%A4%A',
  '?%',
  '??',
  '&&&==',
  '?instr=fma.rn.f16&instr=add.f16',
  '?oob=a0,b1,c,z9',
  '?instr=fma.rn.oob.relu.bf16x2&oob=a1,b',
  '?v=1&instr=fma.rn.oob.relu.bf16x2&a=zz&oob=a1,b',
  '?instr=add.f16x2&a=1.5&b=-inf&c=1e-3',
  '?v=2&instr=tanh.approx.f16&tab=approx',
  '?v=2&instr=add.f16&tab=approx',
  '?v=3&instr=cvt.rs.satfinite.e2m1x4.f32&a=1.5&rbits=0x1ffffffff&tab=sweep&from=1%2F3',
  '?v=3&instr=cvt.rn.f32.f64&a=0x3ff0000000000001&tab=repro',
  '?v=2&instr=fma.rn.f16&vs=unfused',
  '?v=2&instr=add.f16&vs=add.rq.f16&vs=unfused',
  '?instr=add.f16&vs=cvt.rn.f16.f32',
  '',
];

/** Percent-encodes every UTF-8 byte (encodeURIComponent throws on lone surrogates). */
function percentEncode(text: string): string {
  return [...Buffer.from(text, 'utf8')].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');
}

/** Every field of a decoded state is usable by the page. */
function badState(state: UrlState): string | null {
  const form = findAnyForm(state.instr);
  if (!form) return `instr ${state.instr} is not a catalog form`;
  if (!findTarget(state.target)) return `target ${state.target} is unknown`;
  if (!isKnownPtxVersion(state.ptx)) return `ptx ${state.ptx} is unknown`;
  for (const r of form.registers.slice(1)) {
    const bits = state.registers[r.name as SourceName];
    if (typeof bits !== 'bigint' || bits < 0n || bits >> BigInt(r.bits) !== 0n)
      return `register ${r.name} = ${String(bits)}`;
  }
  if (state.tab !== null && !TABS.includes(state.tab)) return `tab ${String(state.tab)}`;
  if (state.vs !== null && state.vs !== 'unfused' && findAnyForm(state.vs)?.text !== state.vs)
    return `vs ${state.vs} is neither unfused nor a catalog form`;
  return null;
}

export const urlDecoderTarget: FuzzTarget<string> = {
  name: 'url-decoder',
  covers: 'decodeUrl (share links), and decode(encode(state)) = state',
  generate(rng) {
    if (rng.chance(0.05)) return noise(rng, 200);
    const seeds = rng.chance(0.5)
      ? URL_HAND_SEEDS
      : [encodeUrl(stateFor(rng.pick(ONE_FORMS), rng))];
    let s = mutateSeed(rng, seeds);
    if (rng.chance(0.1)) s += `&x=${percentEncode(noise(rng))}`;
    return s;
  },
  check(search) {
    const { state, ignored, stored } = decodeUrl(search);
    const bad = badState(state);
    if (bad) return bad;
    for (const list of [ignored, stored])
      if (!Array.isArray(list) || !list.every((x) => typeof x === 'string' && x !== ''))
        return 'ignored or stored is not a list of sentences';
    const again = decodeUrl(encodeUrl(state));
    if (again.ignored.length > 0) return `re-encoded state is not clean: ${again.ignored[0]}`;
    if (again.stored.length > 0) return `re-encoded state holds a value: ${again.stored[0]}`;
    if (JSON.stringify(normalised(again.state)) !== JSON.stringify(normalised(state)))
      return 'decode(encode(state)) differs from state';
    return null;
  },
};

/** The part of a state a URL carries: the registers the form has, and the open tab. */
function normalised(state: UrlState) {
  const form = findAnyForm(state.instr)!;
  return {
    instr: state.instr,
    target: state.target,
    ptx: state.ptx,
    registers: form.registers.slice(1).map((r) => String(state.registers[r.name as SourceName])),
    tab: state.tab,
    vs: state.vs,
  };
}

// ---------------------------------------------------------------- ptxf batch

const BATCH_CODES = ['json', 'syntax', 'target', 'ptx-version', 'operand'] as const;

/** Random register bits of any width as hex (64 bits as two 32-bit halves). */
function hexBits(rng: Rng, width: number): string {
  if (width <= 32) return `0x${rng.bits(width).toString(16)}`;
  return `0x${rng.bits(32).toString(16)}${rng.bits(32).toString(16).padStart(8, '0')}`;
}

function validRequest(rng: Rng): Record<string, unknown> {
  const form = rng.pick(ONE_FORMS);
  const request: Record<string, unknown> = { id: rng.int(1000), instr: form.text };
  for (const r of form.registers.slice(1)) request[r.name] = hexBits(rng, r.bits);
  if (rng.chance(0.3)) request.target = rng.pick(TARGETS).name;
  if (rng.chance(0.3)) request.ptx = rng.pick(PTX_VERSIONS);
  if (rng.chance(0.02)) request.oob = [rng.pick(['a', 'b', 'c'])];
  // Rare: the traced path builds exact decimals (BigInt), a hundred times the work of a plain line.
  if (rng.chance(0.01)) request.trace = true;
  if (rng.chance(0.05)) request.vs = rng.chance(0.3) ? 'unfused' : rng.pick(ONE_FORMS).text;
  return request;
}

function randomJsonValue(rng: Rng, depth = 0): unknown {
  switch (rng.int(depth > 3 ? 6 : 8)) {
    case 0:
      return null;
    case 1:
      return rng.chance(0.5);
    case 2:
      return rng.pick([0, -0, 1e308, -1e-308, 2 ** 53 + 1, 3.5, -7]);
    case 3:
      return mutateSeed(rng, BITS_SEEDS);
    case 4:
      return noise(rng);
    case 5:
      return mutateSeed(rng, INSTRUCTION_SEEDS);
    case 6:
      return Array.from({ length: rng.int(4) }, () => randomJsonValue(rng, depth + 1));
    default:
      return Object.fromEntries(
        Array.from({ length: rng.int(4) }, () => [noise(rng, 5), randomJsonValue(rng, depth + 1)]),
      );
  }
}

const FIELD_NAMES = [
  'id',
  'instr',
  'target',
  'ptx',
  'a',
  'b',
  'c',
  'oob',
  'trace',
  'vs',
  'd',
  'extra',
  '__proto__',
  'constructor',
];

function batchLine(rng: Rng): string {
  const roll = rng.next();
  if (roll < 0.03) return noise(rng, 80);
  if (roll < 0.04)
    return rng.pick([
      '{',
      '{"id":',
      '{"id":1,}',
      "{'id':1}",
      '[]',
      '""',
      'null',
      '1e999',
      '{}',
      ' ',
      '',
      '{"a":"0x1","a":"0x2"}',
    ]);
  if (roll < 0.0405) return '['.repeat(10_000 + rng.int(100_000));
  if (rng.chance(1 / 20_000)) return megabyte(rng, [JSON.stringify(validRequest(rng))]);
  const request = validRequest(rng);
  const edits = rng.int(3);
  for (let i = 0; i < edits; i++) {
    const key = rng.pick(FIELD_NAMES);
    if (rng.chance(0.3)) delete request[key];
    // defineProperty, so that "__proto__" becomes a real key of the JSON text.
    else
      Object.defineProperty(request, key, {
        value: randomJsonValue(rng),
        enumerable: true,
        writable: true,
        configurable: true,
      });
  }
  const text = JSON.stringify(request);
  return rng.chance(0.3) ? mutateSeed(rng, [text]) : text;
}

/** Problems with one batch answer to `line` (number `lineNo`), or null. */
function badAnswer(
  line: string,
  lineNo: number,
  answer: { ok?: boolean; json: string },
): string | null {
  let out: Record<string, unknown>;
  try {
    out = JSON.parse(answer.json) as Record<string, unknown>;
  } catch {
    return `answer is not JSON: ${answer.json.slice(0, 100)}`;
  }
  if (answer.ok !== undefined && out.ok !== answer.ok) return 'ok flag and JSON disagree';
  let request: unknown;
  try {
    request = JSON.parse(line);
  } catch {
    request = undefined;
  }
  const isObject = typeof request === 'object' && request !== null && !Array.isArray(request);
  const expectedId = isObject ? ((request as Record<string, unknown>).id ?? null) : null;
  if (JSON.stringify(out.id) !== JSON.stringify(expectedId))
    return `id ${JSON.stringify(out.id)} for ${JSON.stringify(expectedId)}`;
  if (out.ok === true) {
    // With "vs": the variant's register, or why there is none, after the line's own answer.
    const keys = Object.keys(out)
      .join(',')
      .replace(/,vs_ok,vs_d$/, '')
      .replace(/,vs_ok,vs_error$/, '');
    if (keys !== 'id,ok,d' && keys !== 'id,ok,d,steps') return `ok answer with keys ${keys}`;
    // As wide as the variant's destination register (a cvt B: 8, 16, 32 or 64 bits).
    if (
      out.vs_ok === true &&
      !/^0x([0-9a-f]{2}|[0-9a-f]{4}|[0-9a-f]{8}|[0-9a-f]{16})$/.test(String(out.vs_d))
    )
      return `vs_d = ${String(out.vs_d)}`;
    if (out.vs_ok === false) {
      const bad = badError(out.vs_error, ['syntax', 'variant', 'target', 'ptx-version']);
      if (bad) return `vs_error: ${bad}`;
    }
    // As wide as the destination register: 16 or 32 bits, and for cvt also 8 and 64.
    if (
      typeof out.d !== 'string' ||
      !/^0x([0-9a-f]{2}|[0-9a-f]{4}|[0-9a-f]{8}|[0-9a-f]{16})$/.test(out.d)
    )
      return `d = ${String(out.d)}`;
    return null;
  }
  if (Object.keys(out).join(',') !== 'id,ok,error')
    return `error answer with keys ${Object.keys(out).join(',')}`;
  const bad = badError(out.error, BATCH_CODES);
  if (bad) return bad;
  if (!(out.error as { message: string }).message.startsWith(`line ${lineNo}: `))
    return 'error message without its line number';
  return null;
}

export const batchTarget: FuzzTarget<string> = {
  name: 'batch',
  covers: 'ptxf batch lines (processBatchLine), and whole documents through runBatch',
  generate: batchLine,
  prepare() {
    // tanh/ex2 fast paths build a 65,536-entry table on first use (about a second each): a
    // one-time cost of the first line of such a form, not a per-input bound to hold it to.
    for (const form of ONE_FORMS) sharedCaches.fastPath(form);
  },
  async check(line, index) {
    const lineNo = (index % 1000) + 1;
    const problem = badAnswer(line, lineNo, processBatchLine(line, lineNo, sharedCaches));
    if (problem || index % 500 !== 0) return problem;
    return checkDocument(line, index);
  },
};

const sharedCaches = new BatchCaches();

/** Every 500th case: a document of this and other lines, split into random chunks, through runBatch. */
async function checkDocument(line: string, index: number): Promise<string | null> {
  const lines = [
    line,
    '{"id":1,"instr":"add.f16","a":"0x3c00","b":"0x3c00"}',
    '',
    'garbage',
    line,
  ].map((l) => l.replace(/[\r\n]/g, ' '));
  // Every line terminated: a final empty line without its own newline would not be a line.
  const separator = index % 2 ? '\r\n' : '\n';
  const text = lines.map((l) => l + separator).join('');
  const chunks: string[] = [];
  for (let i = 0; i < text.length;) {
    const size = 1 + ((i * 7919 + index) % 97);
    chunks.push(text.slice(i, i + size));
    i += size;
  }
  const answers: string[] = [];
  const sink: BatchSink = {
    closed: false,
    write: (t) => void answers.push(...t.split('\n').slice(0, -1)),
  };
  const summary = await runBatchSummary(chunks, sink);
  if (answers.length !== lines.length || summary.lines !== lines.length)
    return `document of ${lines.length} lines got ${answers.length} answers`;
  for (let i = 0; i < lines.length; i++) {
    const problem = badAnswer(lines[i]!, i + 1, { json: answers[i]! });
    if (problem) return `document line ${i + 1}: ${problem}`;
  }
  return null;
}

// ---------------------------------------------------------------- ptxf eval arguments

const EVAL_ARG_SEEDS: readonly string[] = [
  ...INSTRUCTION_SEEDS.slice(0, 40),
  'tanh.approx.bf16x2',
  'add.rn.f32.f16',
  'fma.rn.oob.relu.bf16x2',
  '0x3c00',
  '0x3c003c00',
  '0x7fff',
  '0xffffffff',
  '--target',
  '--target=sm_90',
  'sm_80',
  '--ptx',
  '--ptx=7.0',
  '8.6',
  '--oob',
  '--oob=a,b',
  'a,b,c',
  '--json',
  '--no-trace',
  '--help',
  '--',
  '-x',
  '--json=1',
  '--vs',
  '--vs=unfused',
  'fma.rz.bf16',
  '',
];

export const evalArgsTarget: FuzzTarget<string[]> = {
  name: 'eval-args',
  covers: 'ptxf eval command lines (runEval): exit 0/1/2, every line printed a string',
  generate(rng) {
    if (rng.chance(0.5)) {
      // A well-formed command line, then maybe one argument mutated.
      const form = rng.pick(ONE_FORMS);
      const args = [form.text, ...form.registers.slice(1).map((r) => hexBits(rng, r.bits))];
      if (rng.chance(0.3)) args.push('--target', rng.pick(TARGET_SEEDS));
      if (rng.chance(0.2)) args.push(rng.pick(['--json', '--no-trace', '--oob=a']));
      if (rng.chance(0.1))
        args.push('--vs', rng.chance(0.3) ? 'unfused' : rng.pick(ONE_FORMS).text);
      if (rng.chance(0.3)) {
        const i = rng.int(args.length);
        args[i] = mutateSeed(rng, [args[i]!]);
      }
      return args;
    }
    const n = 1 + rng.int(7);
    return Array.from({ length: n }, () =>
      rng.chance(0.7) ? rng.pick(EVAL_ARG_SEEDS) : mutateSeed(rng, EVAL_ARG_SEEDS),
    );
  },
  check(args) {
    const lines: unknown[] = [];
    const io = { out: (l: string) => void lines.push(l), err: (l: string) => void lines.push(l) };
    const status = runEval(args, io);
    if (status !== 0 && status !== 1 && status !== 2) return `exit status ${String(status)}`;
    if (!lines.every((l) => typeof l === 'string')) return 'printed a non-string';
    if (lines.length === 0) return 'printed nothing';
    return null;
  },
};

export interface FuzzRun {
  readonly name: string;
  readonly covers: string;
  run(count: number, seed: number, onCase?: (index: number) => void): Promise<FuzzReport>;
  /** Input `index` of a run with this seed, shortened for printing. */
  inputAt(seed: number, index: number): string;
}

function fuzzRun<I>(target: FuzzTarget<I>): FuzzRun {
  return {
    name: target.name,
    covers: target.covers,
    run: (count, seed, onCase) => runTarget(target, count, seed, onCase),
    inputAt: (seed, index) => previewInput(inputAt(target, seed, index)),
  };
}

/** Every target, in report order. */
export const FUZZ_RUNS: readonly FuzzRun[] = [
  fuzzRun(ptxParserTarget),
  fuzzRun(valueParserTarget),
  fuzzRun(operandBitsTarget),
  fuzzRun(urlDecoderTarget),
  fuzzRun(batchTarget),
  fuzzRun(evalArgsTarget),
];
