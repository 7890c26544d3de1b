/**
 * What if: the same values under every scheme and scale rule, and stored as plain f32 or bf16
 * (`cvt.rn.bf16.f32`), side by side, with what each loses and which loses least (issue 26,
 * item 3). Data only; the sentence that says why is composed by whoever shows it.
 *
 * 16 or 32 values (decision block-compare-arrangement): an MX scheme quantizes 16 values as a
 * block of 32 padded with +0; NVFP4 quantizes 32 values as two blocks of 16 that share one
 * global scale (from tensorAmax, else the 32 values' amax). Element conversions to nearest even.
 */
import { exactValueOfDyadic, isZero, type Dyadic } from '../exact.ts';
import { dyadicOfBits, exactValueOfBits, FORMATS, formatHex, valueOfBits } from '../format.ts';
import { evaluate } from '../pipeline.ts';
import { convertFamily } from '../semantics/convert-family.ts';
import type { ExactValue } from '../value.ts';
import { valueOfExact } from '../what-if/reference-values.ts';
import {
  elementError,
  summarize,
  type BlockErrorSummary,
  type ElementError,
} from './element-error.ts';
import { f32Hex } from './ptx-program.ts';
import { quantizeBlock } from './quantize.ts';
import type { BlockQuantization, BlockScaleError, F32View } from './types.ts';
import {
  BLOCK_SCHEMES,
  bitsPerValue,
  SCHEMES,
  type BlockScheme,
  type ScaleRule,
} from './schemes.ts';

/** cvt's semantics, which this module's conversions need wherever it runs. */
const CONVERT = { convert: convertFamily } as const;

export interface BlockComparisonRequest {
  /** 16 or 32 values, binary32 bit patterns. */
  readonly values: readonly number[];
  /** NVFP4's tensorAmax (binary32 bits); default: the values' amax. */
  readonly tensorAmax?: number;
}

export interface ComparedElement {
  readonly index: number;
  /** The stored element (or f32/bf16 pattern), hex of its width. */
  readonly stored: string;
  readonly decoded: ExactValue;
  readonly error: ElementError | null;
  readonly flags: {
    readonly saturated: boolean;
    readonly flushedToZero: boolean;
    readonly nan: boolean;
    /** bf16 storage only: the value overflowed to infinity. */
    readonly infinite: boolean;
  };
}

export interface SchemeEntry {
  readonly kind: 'block';
  /** `mxfp4/ocp`. */
  readonly key: string;
  readonly scheme: BlockScheme;
  readonly scaleRule: ScaleRule;
  readonly bitsPerValue: number;
  /** The quantizations: one block, or NVFP4's two over 32 values. */
  readonly blocks: readonly BlockQuantization[];
  /** +0 values added to fill an MX block (16 for 16 values). */
  readonly padding: number;
  /** The given values only, in order. */
  readonly elements: readonly ComparedElement[];
  readonly summary: BlockErrorSummary;
}

export interface StorageEntry {
  readonly kind: 'storage';
  readonly key: 'f32' | 'bf16';
  readonly bitsPerValue: 32 | 16;
  /** The cvt that stores a value (bf16), or null (f32 holds the values as they are). */
  readonly cvtForm: string | null;
  readonly elements: readonly ComparedElement[];
  readonly summary: BlockErrorSummary;
}

export interface BlockComparison {
  readonly ok: true;
  readonly count: 16 | 32;
  /** What NVFP4's global scale was computed from. */
  readonly tensorAmax: F32View & { readonly given: boolean };
  readonly entries: readonly (SchemeEntry | StorageEntry)[];
  /** The block entries' keys, least loss first: RMS error, then largest error, then bits. */
  readonly ranking: readonly string[];
  /** The block entry that loses least. */
  readonly least: string;
  /** For each scheme, its rule that loses least. */
  readonly leastPerScheme: { readonly [S in BlockScheme]: ScaleRule };
}

const F32_ABS = 0x7fffffff;
const ONE: Dyadic = { negative: false, mant: 1n, exp: 0 };

export function compareScaleRules(
  request: BlockComparisonRequest,
): BlockComparison | BlockScaleError {
  const { values, tensorAmax } = request;
  if (!Array.isArray(values) || (values.length !== 16 && values.length !== 32))
    return {
      ok: false,
      code: 'length',
      message: `the comparison takes 16 or 32 values; ${Array.isArray(values) ? values.length : 0} given`,
    };
  const count = values.length as 16 | 32;
  const amax = values.reduce((m, v) => Math.max(m, (v & F32_ABS) >>> 0), 0);
  const entries: (SchemeEntry | StorageEntry)[] = [];
  for (const scheme of BLOCK_SCHEMES) {
    const info = SCHEMES[scheme];
    for (const scaleRule of info.rules) {
      const entry = schemeEntry(scheme, scaleRule, values, tensorAmax ?? amax);
      // A bad value or tensorAmax is the same error for every scheme: the first one says it.
      if (!entry.ok) return entry;
      entries.push(entry.entry);
    }
  }
  entries.push(f32Entry(values), bf16Entry(values));
  const blockEntries = entries.filter((e): e is SchemeEntry => e.kind === 'block');
  const ranked = [...blockEntries].sort(
    (x, y) =>
      x.summary.rms - y.summary.rms ||
      x.summary.maxAbsolute.number - y.summary.maxAbsolute.number ||
      x.bitsPerValue - y.bitsPerValue,
  );
  const leastPerScheme = {} as Record<BlockScheme, ScaleRule>;
  for (const e of ranked) leastPerScheme[e.scheme] ??= e.scaleRule;
  const dividend = tensorAmax ?? amax;
  return {
    ok: true,
    count,
    tensorAmax: {
      bits: f32Hex(dividend),
      value: exactValueOfBits(BigInt(dividend >>> 0), FORMATS.f32),
      given: tensorAmax !== undefined,
    },
    entries,
    ranking: ranked.map((e) => e.key),
    least: ranked[0]!.key,
    leastPerScheme,
  };
}

function schemeEntry(
  scheme: BlockScheme,
  scaleRule: ScaleRule,
  values: readonly number[],
  tensorAmax: number,
): { ok: true; entry: SchemeEntry } | BlockScaleError {
  const info = SCHEMES[scheme];
  const blocks: BlockQuantization[] = [];
  const padding = Math.max(0, info.blockSize - values.length);
  for (let start = 0; start < values.length; start += info.blockSize) {
    const block = [
      ...values.slice(start, start + info.blockSize),
      ...Array.from({ length: padding }, () => 0),
    ];
    const result = quantizeBlock({
      scheme,
      scaleRule,
      values: block,
      ...(scheme === 'nvfp4' ? { tensorAmax } : {}),
    });
    if (!result.ok) return result;
    blocks.push(result);
  }
  const quantized = blocks.flatMap((b) => b.elements).slice(0, values.length);
  const elements = quantized.map((e, index): ComparedElement => ({
    index,
    stored: e.stored.bits,
    decoded: e.decoded,
    error: e.error,
    flags: { ...e.flags, infinite: false },
  }));
  return {
    ok: true,
    entry: {
      kind: 'block',
      key: `${scheme}/${scaleRule}`,
      scheme,
      scaleRule,
      bitsPerValue: bitsPerValue(info),
      blocks,
      padding,
      elements,
      summary: summaryOf(values, elements),
    },
  };
}

const f32Dyadic = (bits: number): Dyadic => dyadicOfBits(BigInt(bits >>> 0), FORMATS.f32);

/** An error's exact value (always finite) as the dyadic it writes. */
function finiteOfExact(e: ExactValue): Dyadic {
  const v = valueOfExact(e);
  if (v.kind !== 'finite') throw new RangeError('a finite error was expected');
  return v.x;
}

function summaryOf(values: readonly number[], elements: readonly ComparedElement[]) {
  return summarize(
    elements.map((e, i) => ({
      input: f32Dyadic(values[i]!),
      difference: e.error ? finiteOfExact(e.error.absolute) : null,
      error: e.error,
      saturated: e.flags.saturated,
      flushedToZero: e.flags.flushedToZero,
    })),
  );
}

function f32Entry(values: readonly number[]): StorageEntry {
  const elements = values.map((bits, index): ComparedElement => {
    const x = f32Dyadic(bits);
    return {
      index,
      stored: f32Hex(bits),
      decoded: exactValueOfDyadic(x),
      error: elementError(x, x, ONE, 'f32').error,
      flags: { saturated: false, flushedToZero: false, nan: false, infinite: false },
    };
  });
  return {
    kind: 'storage',
    key: 'f32',
    bitsPerValue: 32,
    cvtForm: null,
    elements,
    summary: summaryOf(values, elements),
  };
}

const BF16_FORM = 'cvt.rn.bf16.f32';

function bf16Entry(values: readonly number[]): StorageEntry {
  const elements = values.map((bits, index): ComparedElement => {
    const x = f32Dyadic(bits);
    const stored = BigInt(evaluate(BF16_FORM, { a: BigInt(bits >>> 0) }, undefined, CONVERT).d);
    const v = valueOfBits(stored, FORMATS.bf16);
    const measured = v.kind === 'finite' ? elementError(x, v.x, ONE, 'bf16') : null;
    return {
      index,
      stored: formatHex(stored, FORMATS.bf16),
      decoded: exactValueOfBits(stored, FORMATS.bf16),
      error: measured?.error ?? null,
      flags: {
        saturated: false,
        flushedToZero: !isZero(x) && v.kind === 'finite' && isZero(v.x),
        nan: false,
        infinite: v.kind === 'inf',
      },
    };
  });
  return {
    kind: 'storage',
    key: 'bf16',
    bitsPerValue: 16,
    cvtForm: BF16_FORM,
    elements,
    summary: summaryOf(values, elements),
  };
}
