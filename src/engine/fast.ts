/**
 * The fast path: untraced evaluation for sweeps and batch. Same semantics as the traced path
 * (tests/fast-vs-traced.test.ts checks them bit for bit), but on doubles instead of BigInt:
 * every f16/bf16 product and every input is exact in a double, and a sum is kept exactly as
 * an unevaluated pair (s, err) by TwoSum, which roundPair (round.ts) turns into the correctly rounded value.
 */
import { isMixed, isPacked, laneFormat, type Form } from '../catalog/forms.ts';
import { resolveForm } from './evaluate.ts';
import { FORMATS, valueTable } from './formats.ts';
import { has } from './lane.ts';
import { resolveOptions, type EngineOptions } from './options.ts';
import { approxResult, type ApproxFn } from './ops/approx.ts';
import { minMaxFlags, minMaxRule } from './ops/minmax.ts';
import { negAbsRule } from './ops/negabs.ts';
import { pairIsTiny, roundPair } from './round.ts';
import {
  exactZeroIsNegative,
  flushSubnormal,
  flushTinyResult,
  oobForcesZero,
  relu,
  saturate,
} from './specialize.ts';

type LaneFn = (a: number, b: number, c: number) => number;

const f32Bits = new Uint32Array(1);
const f32Value = new Float32Array(f32Bits.buffer);
function f32ToDouble(bits: number): number {
  f32Bits[0] = bits;
  return f32Value[0]!;
}

/**
 * add, sub, mul, fma (half and mixed): the rules of ops/arithmetic.ts on doubles. Every f16/bf16
 * value and every product of two is exact in a double; a sum is kept exactly as the pair
 * (s, err) of TwoSum, which roundPair turns into the correctly rounded value.
 */
function arithmeticFast(form: Form, options: EngineOptions): LaneFn {
  const src = FORMATS[laneFormat(form.type)];
  const mixed = isMixed(form.type);
  const dst = mixed ? FORMATS.f32 : src;
  const mode = form.rounding ?? 'rn';
  const tab = valueTable(src);
  const ftz = has(form, 'ftz');
  const sat = has(form, 'sat');
  const reluOn = has(form, 'relu');
  const oob = has(form, 'oob');
  const reading = options.ftzTininess;
  const pattern = options.oobNanBits;
  const op = form.opcode;
  const operand = (bits: number) => tab[ftz ? flushSubnormal(bits, src) : bits]!;

  return (a, b, c) => {
    if (oob && oobForcesZero(a, b, src, pattern)) return 0;
    const x = operand(a);
    let product: number;
    let addend: number | null;
    if (op === 'mul') {
      product = x * operand(b);
      addend = null;
    } else if (op === 'fma') {
      product = x * operand(b);
      addend = mixed ? f32ToDouble(c) : operand(c);
    } else {
      product = x;
      const y = mixed ? f32ToDouble(c) : operand(b);
      addend = op === 'sub' ? -y : y;
    }
    const s = addend === null ? product : product + addend;
    let d: number;
    if (s !== s) d = dst.canonicalNaN;
    else if (s === Infinity) d = dst.infBits;
    else if (s === -Infinity) d = dst.infBits + dst.signMask;
    else if (s === 0) {
      // TwoSum's error is zero here: the exact value is zero.
      d = exactZeroIsNegative(
        addend === null
          ? { of: 'product', negative: Object.is(s, -0) }
          : {
              of: 'sum',
              bothZeroSameSign: product === 0 && Object.is(product, addend),
              termNegative: Object.is(product, -0),
              mode,
            },
      )
        ? dst.signMask
        : 0;
    } else {
      let err = 0;
      if (addend !== null) {
        const bp = s - product;
        err = product - (s - bp) + (addend - bp);
      }
      d = roundPair(s, err, dst, mode);
      if (ftz) d = flushTinyResult(d, dst, pairIsTiny(s, err, dst, mode, reading));
    }
    if (sat) d = saturate(d, dst);
    if (reluOn) d = relu(d, dst);
    return d;
  };
}

function minMaxFast(form: Form): LaneFn {
  const f = FORMATS[laneFormat(form.type)];
  const flags = minMaxFlags(form);
  return (a, b) => minMaxRule(flags, a, b, f).result;
}

function negAbsFast(form: Form): LaneFn {
  const f = FORMATS[laneFormat(form.type)];
  const op = form.opcode as 'neg' | 'abs';
  const ftz = has(form, 'ftz');
  return (a) => negAbsRule(op, ftz, a, f);
}

// Result tables of the approximate forms: 65,536 lookups each, built once per form and source
// (the model, or a measured table set, keyed by identity). A cache of a pure function.
const modelTables = new Map<string, Uint16Array>();
const measuredTables = new WeakMap<object, Map<string, Uint16Array>>();

function approxFast(form: Form, options: EngineOptions): LaneFn {
  const cache = options.approxTables
    ? (measuredTables.get(options.approxTables) ??
      measuredTables.set(options.approxTables, new Map()).get(options.approxTables)!)
    : modelTables;
  let table = cache.get(form.text);
  if (!table) {
    const built = new Uint16Array(65536);
    const ftz = has(form, 'ftz');
    for (let i = 0; i < 65536; i++) {
      built[i] = approxResult(
        form.opcode as ApproxFn,
        form.record,
        form.type,
        ftz,
        i,
        options,
      ).result;
    }
    cache.set(form.text, built);
    table = built;
  }
  const results = table;
  return (a) => results[a]!;
}

/** Compile a form to a plain function of register bits (a, b, c) → d bits. No .oob marks. */
export function compileFast(
  formOrText: Form | string,
  options?: Partial<EngineOptions>,
): (a: number, b: number, c: number) => number {
  const form = resolveForm(formOrText);
  const opts = resolveOptions(options);
  let lane: LaneFn;
  switch (form.opcode) {
    case 'add':
    case 'sub':
    case 'mul':
    case 'fma':
      lane = arithmeticFast(form, opts);
      break;
    case 'min':
    case 'max':
      lane = minMaxFast(form);
      break;
    case 'neg':
    case 'abs':
      lane = negAbsFast(form);
      break;
    case 'tanh':
    case 'ex2':
      lane = approxFast(form, opts);
      break;
  }
  if (!isPacked(form.type)) {
    // Registers are masked to their widths, as the hardware reads them: a 16-bit operand is the
    // low half of whatever is passed, a 32-bit one (mixed c) the low 32 bits.
    const [ma, mb, mc] = (['a', 'b', 'c'] as const).map((n) => {
      const op = form.operands.find((o) => o.name === n);
      return op && op.bits === 32 ? 0xffffffff : 0xffff;
    }) as [number, number, number];
    return (a, b, c) => lane((a & ma) >>> 0, (b & mb) >>> 0, (c & mc) >>> 0);
  }
  return (a, b, c) =>
    (lane(a & 0xffff, b & 0xffff, c & 0xffff) | (lane(a >>> 16, b >>> 16, c >>> 16) << 16)) >>> 0;
}
