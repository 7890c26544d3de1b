/**
 * How a trace shows one value of a format, written from docs/trace.md for the trace checker:
 * the bits as lower-case hex of the format's width, the class, and the exact value's texts. The
 * formats are the reference's own (cvt-formats.ts); nothing here reads engine code.
 */
import {
  decodeCvt,
  REF_CVT_FORMATS,
  type RefCvtFormat,
  type RefCvtFormatName,
} from './cvt-formats.ts';
import { finiteText, type ValueText } from './exact-text.ts';

export interface ExpectedView {
  readonly format: RefCvtFormatName;
  readonly bits: string;
  readonly class: string;
  readonly value: ValueText;
}

/** `0x` and the pattern in lower-case hex, as many digits as the width needs (one at least). */
export function hexOf(bits: bigint, width: number): string {
  return `0x${bits.toString(16).padStart(Math.max(1, Math.ceil(width / 4)), '0')}`;
}

export function formatHex(bits: bigint, fmt: RefCvtFormat): string {
  return hexOf(bits, fmt.totalBits);
}

function signBit(fmt: RefCvtFormat): bigint {
  return fmt.signed ? 1n << BigInt(fmt.totalBits - 1) : 0n;
}

export function isNegativePattern(bits: bigint, fmt: RefCvtFormat): boolean {
  return (bits & signBit(fmt)) !== 0n;
}

/**
 * The class word of a pattern: zero, subnormal (exponent field 0, fraction not), normal,
 * infinity, and qnan/snan — an IEEE NaN is quiet when the top fraction bit is set; the one NaN
 * of e4m3 and ue8m0 counts as quiet. ue8m0 has no zero and no subnormals.
 */
export function classOfPattern(bits: bigint, fmt: RefCvtFormat): string {
  const v = decodeCvt(bits, fmt);
  if (v.kind === 'nan') {
    if (fmt.specials !== 'ieee') return 'qnan';
    const top = 1n << BigInt(fmt.fractionBits - 1);
    return (bits & top) !== 0n ? 'qnan' : 'snan';
  }
  if (v.kind === 'inf') return 'infinity';
  if (fmt.specials === 'ue8m0') return 'normal';
  const magnitude = bits & (signBit(fmt) - 1n);
  if (magnitude === 0n) return 'zero';
  return magnitude >> BigInt(fmt.fractionBits) === 0n ? 'subnormal' : 'normal';
}

const NAN_TEXT: ValueText = {
  kind: 'nan',
  negative: false,
  decimal: 'NaN',
  binary: 'NaN',
  rational: 'NaN',
};

/** The texts of a pattern's value: a NaN's are "NaN" (its sign means nothing), an infinity's ±inf. */
export function valueTextOf(bits: bigint, fmt: RefCvtFormat): ValueText {
  const v = decodeCvt(bits, fmt);
  if (v.kind === 'nan') return NAN_TEXT;
  if (v.kind === 'inf') {
    const s = v.negative ? '-inf' : '+inf';
    return { kind: 'inf', negative: v.negative, decimal: s, binary: s, rational: s };
  }
  return finiteText(v.q, v.negative);
}

const views = new Map<string, ExpectedView>();

/** The view of a pattern (remembered: the same patterns recur in every trace). */
export function viewOf(bits: bigint, fmt: RefCvtFormat): ExpectedView {
  const key = `${fmt.name}:${bits}`;
  let view = views.get(key);
  if (!view) {
    if (views.size > 100_000) views.clear();
    view = {
      format: fmt.name,
      bits: formatHex(bits, fmt),
      class: classOfPattern(bits, fmt),
      value: valueTextOf(bits, fmt),
    };
    views.set(key, view);
  }
  return view;
}

/** The view of a pattern of a format named by its name (the 16- and 32-bit ones of the arithmetic). */
export function viewIn(bits: number | bigint, name: RefCvtFormatName): ExpectedView {
  return viewOf(BigInt(bits), REF_CVT_FORMATS[name]);
}
