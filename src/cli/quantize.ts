/**
 * `ptxf quantize --scheme mxfp8-e4m3 --scale-rule rp 0.1 2 300 …`: one block quantized as the
 * PTX sequence of its scale rule computes it (engine/block-scale): the sequence, amax, the
 * scale, each element (input, scaled binary32 value, stored bits, decoded value, error) and the
 * block's error; `--compare` adds the same values under every scheme and rule and as f32/bf16.
 *
 * Exit status: 0 quantized; 1 the block or an option was refused (a structured error: on stderr,
 * or on stdout as JSON with --json); 2 usage error.
 */
import {
  compareScaleRules,
  quantizeBlock,
  type BlockComparison,
  type BlockQuantization,
  type QuantizedElement,
} from '../engine/block-scale/index.ts';
import { FORMATS } from '../engine/format.ts';
import { shortestDecimal } from '../engine/stored-value.ts';
import type { ExactValue } from '../engine/value.ts';
import { parseFlags } from './flags.ts';
import type { CliIO } from './io.ts';
import { defaultScaleRule, readF32, readRbits } from './quantize-request.ts';

export const QUANTIZE_USAGE = [
  'usage: ptxf quantize --scheme <scheme> [--scale-rule <rule>] [--tensor-amax <value>]',
  '                     [--rbits <bits>[,<bits>…]] [--compare] [--json] v1 v2 …',
  '  the block: 32 values for MX, 16 for NVFP4, each binary32 bits (0x3dcccccd) or a value',
  '             (0.1, -2, 1e-3) rounded to binary32 to nearest even; spaces or commas between',
  '  --scheme        mxfp8-e4m3, mxfp8-e5m2, mxfp6-e3m2, mxfp6-e2m3, mxfp4, nvfp4',
  '  --scale-rule    MX: ocp (default; 2^(floor(log2 amax) − emax_elem)), rp or rz',
  '                  (cvt.rp / cvt.rz.satfinite.ue8m0x2.f32 of amax / max_elem);',
  '                  NVFP4: nvfp4 (its two-level scale, the default)',
  "  --tensor-amax   nvfp4: the tensor's amax for the global scale (default: the block's amax)",
  '  --rbits         convert the elements with cvt.rs (stochastic rounding) four at a time:',
  '                  one 32-bit word for every cvt, or one per four elements, comma-separated',
  '  --compare       also the same values under every scheme and rule, and stored as f32 / bf16',
  '  --json          one JSON object: {"ok": true, "result": …, "comparison": …} or',
  '                  {"ok": false, "error": {"code", "message"}}',
  '  exit status: 0 quantized, 1 the block or an option refused, 2 usage error',
];

interface QuantizeArgs {
  readonly scheme: string;
  readonly scaleRule: string | undefined;
  readonly values: readonly string[];
  readonly tensorAmax: string | undefined;
  readonly rbits: readonly string[] | undefined;
  readonly compare: boolean;
  readonly json: boolean;
}

function parseArgs(args: readonly string[]): QuantizeArgs | { usage: string } | { help: true } {
  const parsed = parseFlags(args, {
    valued: ['scheme', 'scale-rule', 'tensor-amax', 'rbits'],
    boolean: ['compare', 'json', 'help'],
  });
  if ('usage' in parsed) return parsed;
  if (parsed.switches.has('help')) return { help: true };
  const scheme = parsed.values.get('scheme');
  if (scheme === undefined) return { usage: 'missing --scheme, e.g. --scheme mxfp4' };
  const split = (text: string) =>
    text
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== '');
  const rbits = parsed.values.get('rbits');
  return {
    scheme,
    scaleRule: parsed.values.get('scale-rule'),
    values: parsed.positional.flatMap(split),
    tensorAmax: parsed.values.get('tensor-amax'),
    rbits: rbits === undefined ? undefined : split(rbits),
    compare: parsed.switches.has('compare'),
    json: parsed.switches.has('json'),
  };
}

function usage(io: CliIO, message: string): number {
  io.err(`ptxf quantize: ${message}`);
  for (const line of QUANTIZE_USAGE) io.err(line);
  return 2;
}

function reject(io: CliIO, json: boolean, code: string, message: string): number {
  if (json) io.out(JSON.stringify({ ok: false, error: { code, message } }));
  else io.err(`ptxf quantize: error (${code}): ${message}`);
  return 1;
}

export function runQuantize(args: readonly string[], io: CliIO): number {
  const parsed = parseArgs(args);
  if ('help' in parsed) {
    for (const line of QUANTIZE_USAGE) io.out(line);
    return 0;
  }
  if ('usage' in parsed) return usage(io, parsed.usage);
  const { json } = parsed;

  const stored: string[] = [];
  const values: number[] = [];
  for (const [i, text] of parsed.values.entries()) {
    const r = readF32(`value ${i}`, text);
    if (!r.ok) return reject(io, json, 'value', r.message);
    if (r.stored) stored.push(r.stored);
    values.push(r.bits);
  }
  let tensorAmax: number | undefined;
  if (parsed.tensorAmax !== undefined) {
    const r = readF32('tensorAmax', parsed.tensorAmax);
    if (!r.ok) return reject(io, json, 'tensor-amax', r.message);
    if (r.stored) stored.push(r.stored);
    tensorAmax = r.bits;
  }
  let rbits: number[] | undefined;
  if (parsed.rbits !== undefined) {
    rbits = [];
    for (const [i, text] of parsed.rbits.entries()) {
      const r = readRbits(`rbits ${i}`, text);
      if (!r.ok) return reject(io, json, 'rbits', r.message);
      rbits.push(r.bits);
    }
  }
  const scaleRule = parsed.scaleRule ?? defaultScaleRule(parsed.scheme) ?? '';
  const result = quantizeBlock({
    scheme: parsed.scheme,
    scaleRule,
    values,
    ...(tensorAmax === undefined ? {} : { tensorAmax }),
    ...(rbits === undefined ? {} : { rounding: 'rs', rbits }),
  });
  if (!result.ok) return reject(io, json, result.code, result.message);
  const comparison = parsed.compare
    ? compareScaleRules({ values, ...(tensorAmax === undefined ? {} : { tensorAmax }) })
    : null;
  if (comparison && !comparison.ok) return reject(io, json, comparison.code, comparison.message);

  if (json) {
    io.out(
      JSON.stringify({
        ok: true,
        ...(stored.length > 0 ? { stored } : {}),
        result,
        ...(comparison ? { comparison } : {}),
      }),
    );
    return 0;
  }
  for (const line of stored) io.err(`note: ${line}`);
  for (const line of renderQuantization(result)) io.out(line);
  if (comparison) {
    io.out('');
    for (const line of renderComparison(comparison)) io.out(line);
  }
  return 0;
}

/** A few significant digits of an exact value, for tables ("0.1015625", "-3.94", "2^-127"). */
export function short(v: ExactValue, digits = 6): string {
  if (v.kind === 'nan') return 'NaN';
  if (v.kind === 'inf') return v.negative ? '-inf' : 'inf';
  return shortNumber(Number(v.decimal), digits, v.negative);
}

function shortNumber(x: number, digits = 6, negative = x < 0 || Object.is(x, -0)): string {
  if (x === 0) return negative ? '-0' : '0';
  const a = Math.abs(x);
  const text =
    a >= 1e-4 && a < 1e7
      ? String(Number(x.toPrecision(digits)))
      : x.toExponential(digits - 1).replace(/\.?0+e/, 'e');
  return text.replace('e+', 'e');
}

/** The shortest decimal that reads back as the binary32 value, in plain notation where short. */
function f32Decimal(bits: string): string {
  const text = shortestDecimal(BigInt(bits), FORMATS.f32);
  return text === '-0' ? text : String(Number(text));
}
const signed = (x: number, digits = 3) => (x > 0 ? '+' : '') + shortNumber(x, digits);
/** A column of `width` characters, one of them the space that ends it. */
const pad = (text: string, width: number) => `${text.padEnd(width - 1)} `;
const list = (indices: readonly number[]) => (indices.length === 0 ? 'none' : indices.join(', '));

function flagsOf(e: QuantizedElement): string {
  const flags = [
    e.flags.saturated ? 'saturated' : '',
    e.flags.flushedToZero ? 'flushed to 0' : '',
    e.flags.nan ? 'NaN' : '',
  ];
  return flags.filter((f) => f !== '').join(', ');
}

function scaleText(r: BlockQuantization): string {
  const s = r.scale;
  const value = s.exponent === null ? short(s.value) : `2^${s.exponent} = ${short(s.value)}`;
  return `${s.bits} = ${value} (${s.format.toUpperCase()})${s.saturated ? ', saturated' : ''}`;
}

export function renderQuantization(r: BlockQuantization): string[] {
  const out: string[] = [];
  const rounding = r.rounding === 'rn' ? 'to nearest even' : 'stochastically (.rs)';
  out.push(
    `${r.scheme}, scale rule ${r.scaleRule}: ${r.blockSize} values → ${r.element} elements, rounded ${rounding}`,
  );
  out.push(`amax   = ${f32Decimal(r.amax.bits)} (${r.amax.bits}, value ${r.amax.index})`);
  if (r.globalScale) {
    const g = r.globalScale;
    const from = g.from === 'tensor-amax' ? 'tensorAmax' : "the block's amax";
    const note = g.zeroReplaced ? ', which is 0: 1.0 instead' : '';
    out.push(
      `global = ${g.bits} = ${short(g.value)} (${from} ${f32Decimal(g.dividend.bits)} / 2688${note})`,
    );
  }
  out.push(`scale  = ${scaleText(r)}`);
  out.push('');
  const needs = r.cvtForms.map((f) => `${f.form} (${f.minTarget}, PTX ISA ${f.minPtx})`);
  out.push(`PTX (inputs: ${inputsText(r)}; needs ${needs.join(', ')}):`);
  for (const line of r.program.lines) {
    const result = line.result === null ? 'not run' : line.result;
    const value = line.value ? ` = ${short(line.value)}` : '';
    out.push(`  ${pad(line.text, 52)} // ${result}${value}`);
  }
  out.push('');
  out.push(
    `   #  ${pad('input', 14)}${pad('scaled (f32)', 14)}${pad('stored', 8)}${pad('decoded', 14)}${pad('error', 11)}${pad('relative', 10)}${pad('ulps', 8)}`,
  );
  for (const e of r.elements) {
    const err = e.error;
    out.push(
      [
        String(e.index).padStart(4),
        '  ',
        pad(f32Decimal(e.input.bits), 14),
        pad(e.scaled.bits, 14),
        pad(e.stored.bits, 8),
        pad(short(e.decoded), 14),
        pad(err ? signed(err.absoluteNumber) : '—', 11),
        pad(err?.relative == null ? '—' : `${shortNumber(err.relative * 100, 3)}%`, 10),
        pad(err?.ulps == null ? '—' : signed(err.ulps), 8),
        flagsOf(e),
      ]
        .join('')
        .trimEnd(),
    );
  }
  const s = r.summary;
  out.push('');
  out.push(
    `block error: max ${short(s.maxAbsolute.value, 3)} (value ${s.maxAbsolute.index}), RMS ${shortNumber(s.rms, 3)}` +
      `; saturated: ${list(s.saturated)}; flushed to zero: ${list(s.flushedToZero)}` +
      (s.nan.length > 0 ? `; NaN: ${list(s.nan)}` : ''),
  );
  out.push('');
  out.push("each conversion, step by step (the cvt's own trace):");
  const seen = new Set<string>();
  for (const e of r.elements) {
    const registers = Object.values(e.cvt.registers).join(' ');
    const key = `${e.cvt.form} ${registers}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const form = r.cvtForms.find((f) => f.form === e.cvt.form)!;
    const indices = r.elements
      .filter((x) => `${x.cvt.form} ${Object.values(x.cvt.registers).join(' ')}` === key)
      .map((x) => x.index);
    out.push(
      `  values ${indices.join(', ')}: ptxf eval ${key} --target ${form.minTarget} --ptx ${form.minPtx}`,
    );
  }
  return out;
}

function inputsText(r: BlockQuantization): string {
  const inputs = r.program.inputs;
  const values = inputs.filter((i) => i.role === 'value');
  const tensor = inputs.find((i) => i.role === 'tensor-amax');
  const range = `${values[0]!.register}…${values.at(-1)!.register} the values`;
  return tensor ? `${range}, ${tensor.register} tensorAmax` : range;
}

export function renderComparison(c: BlockComparison): string[] {
  const out = [
    `what if: the same ${c.count} values under every scheme and rule (elements to nearest even), and as f32 / bf16`,
    `  ${pad('scheme/rule', 18)}${pad('bits/value', 12)}${pad('RMS error', 12)}${pad('max error', 12)}${pad('saturated', 11)}flushed to 0`,
  ];
  const rows = [
    ...c.ranking.map((key) => c.entries.find((e) => e.key === key)!),
    ...c.entries.filter((e) => e.kind === 'storage'),
  ];
  for (const e of rows) {
    const s = e.summary;
    out.push(
      `  ${pad(e.key, 18)}${pad(String(e.bitsPerValue), 12)}${pad(shortNumber(s.rms, 3), 12)}${pad(short(s.maxAbsolute.value, 3), 12)}${pad(String(s.saturated.length), 11)}${s.flushedToZero.length}${e.key === c.least ? '   ← least loss' : ''}`,
    );
  }
  const perScheme = Object.entries(c.leastPerScheme)
    .map(([scheme, rule]) => `${scheme} ${rule}`)
    .join(', ');
  out.push(`least loss per scheme: ${perScheme}`);
  if (c.count === 16) out.push('  (MX schemes: the 16 values in a block of 32 padded with +0)');
  if (c.count === 32) out.push('  (nvfp4: two blocks of 16 sharing one global scale)');
  return out;
}
