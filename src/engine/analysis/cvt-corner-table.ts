/**
 * The corner-case table of a cvt form: its source values that decide something — NaN, the
 * infinities, the zeros, the destination's MAX_NORM and what lies just past it (the next source
 * value, and the overflow threshold of .rn half an ulp above), the ties half way between two
 * destination values and the values either side of them, the destination's least normal and
 * subnormal values and half of the least subnormal, the source's least subnormal — each put in
 * every element of the source registers (as the arithmetic's tables put a value in both lanes),
 * converted by the traced engine, and marked by what happened (cvt-case-outcomes.ts).
 *
 * Only values the source format holds exactly are cases: a .f16 source has no value half way
 * past .f32's MAX_NORM. Under .rs the random bits are zero (the table's `rbits`): every inexact
 * case rounds toward zero.
 */
import { findCvtForm, type CvtForm, type CvtSourceName } from '../../catalog/cvt-forms.ts';
import type { ElementFormatName } from '../../catalog/cvt-types.ts';
import {
  classifyElement,
  decodeElement,
  elementWidth,
  encodeElement,
  exactValueOfElement,
  F64,
  floatFormatOf,
  hexOf,
} from '../element-format.ts';
import { add, ilog2, type Dyadic } from '../exact.ts';
import { evaluateCvt } from '../ops/cvt.ts';
import type { FloatClass } from '../trace.ts';
import type { CaseOutcome } from './case-outcomes.ts';
import { cvtCaseOutcomes } from './cvt-case-outcomes.ts';

/** One element value of a case, described for display and sorting. */
export interface CvtCaseValue {
  /** The element's bits, hex of its width. */
  readonly bits: string;
  readonly class: FloatClass;
  /** Every digit, or NaN / ±inf. */
  readonly value: string;
  /** As a double, for sorting (NaN for NaN). */
  readonly number: number;
}

export interface CvtCornerCase {
  /** What the case is: "NaN", "MAX_NORM of .e4m3", "tie between 1 and the next .e4m3 value". */
  readonly name: string;
  /** The source registers, hex of each register's width; every source element holds the value. */
  readonly registers: Readonly<Partial<Record<CvtSourceName, string>>>;
  /** The source element's value. */
  readonly input: CvtCaseValue;
  /** The destination register, hex of its width. */
  readonly d: string;
  /** Element 0 of the result (every element converts the same value). */
  readonly result: CvtCaseValue;
  /** What happened, read off element 0's trace. */
  readonly outcomes: readonly CaseOutcome[];
}

export interface CvtCornerTable {
  readonly form: string;
  readonly source: ElementFormatName;
  readonly dest: ElementFormatName;
  readonly rows: readonly CvtCornerCase[];
}

const pow2 = (exp: number, negative = false): Dyadic => ({ negative, mant: 1n, exp });
const times = (x: Dyadic, mant: bigint, exp: number): Dyadic => ({
  negative: x.negative,
  mant: x.mant * mant,
  exp: x.exp + exp,
});
const negated = (x: Dyadic): Dyadic => ({ ...x, negative: !x.negative });

/** Facts of a format the cases are built from (exact values, not patterns). */
interface Geometry {
  readonly manBits: number;
  readonly emin: number;
  readonly signed: boolean;
  readonly hasInfinity: boolean;
  readonly hasNaN: boolean;
  readonly ieeeNaN: boolean;
  readonly hasZero: boolean;
  readonly hasSubnormals: boolean;
  readonly signBit: bigint;
  readonly infBits: bigint;
  readonly maxBits: bigint;
  readonly canonicalNaN: bigint | null;
}

function geometryOf(name: ElementFormatName): Geometry {
  if (name === 'f64') {
    return {
      manBits: 52,
      emin: -1022,
      signed: true,
      hasInfinity: true,
      hasNaN: true,
      ieeeNaN: true,
      hasZero: true,
      hasSubnormals: true,
      signBit: F64.signMask,
      infBits: F64.infBits,
      maxBits: F64.maxBits,
      canonicalNaN: F64.canonicalNaN,
    };
  }
  const f = floatFormatOf(name);
  return {
    manBits: f.manBits,
    emin: f.emin,
    signed: f.signed,
    hasInfinity: f.hasInfinity,
    hasNaN: f.nan !== 'none',
    ieeeNaN: f.nan === 'exponent-all-ones',
    hasZero: f.hasSubnormals,
    hasSubnormals: f.hasSubnormals && f.manBits > 0,
    signBit: f.signed ? BigInt(f.signMask) : 0n,
    infBits: BigInt(f.infBits),
    maxBits: BigInt(f.maxBits),
    canonicalNaN: f.nan === 'none' ? null : BigInt(f.canonicalNaN),
  };
}

function finiteValue(bits: bigint, name: ElementFormatName): Dyadic | null {
  const v = decodeElement(bits, name);
  return v.kind === 'finite' ? v.x : null;
}

/** The cases of a form as (name, source bits); values the source cannot hold are left out. */
function casesOf(form: CvtForm): { name: string; bits: bigint }[] {
  const src = form.elements[0]!.source.format;
  const dst = form.elements[0]!.dest.format;
  const s = geometryOf(src);
  const d = geometryOf(dst);
  const cases: { name: string; bits: bigint | null }[] = [];
  const exactly = (x: Dyadic): bigint | null => {
    try {
      return encodeElement({ kind: 'finite', x }, src);
    } catch {
      return null;
    }
  };
  const value = (name: string, x: Dyadic) => cases.push({ name, bits: exactly(x) });
  const D = `.${dst}`;
  const S = `.${src}`;

  if (s.canonicalNaN !== null) cases.push({ name: 'NaN', bits: s.canonicalNaN });
  if (s.ieeeNaN) cases.push({ name: 'sNaN', bits: s.infBits + 1n });
  if (s.hasInfinity)
    cases.push({ name: '+inf', bits: s.infBits }, { name: '-inf', bits: s.infBits | s.signBit });
  if (s.hasZero) {
    cases.push({ name: '+0', bits: 0n });
    if (s.signed) cases.push({ name: '-0', bits: s.signBit });
  }

  const integer = form.rounding !== null && /^r[nzmp]i$/.test(form.rounding);
  const max = finiteValue(d.maxBits, dst);
  if (max && dst !== src) {
    const maxIn = exactly(max);
    cases.push({ name: `MAX_NORM of ${D}`, bits: maxIn });
    if (s.signed) value(`-MAX_NORM of ${D}`, negated(max));
    if (maxIn !== null && finiteValue(maxIn + 1n, src))
      cases.push({ name: `just above MAX_NORM of ${D}`, bits: maxIn + 1n });
    // Half an ulp past MAX_NORM: where .rn stops rounding down to MAX_NORM.
    const ulpTop = ilog2(max) - d.manBits;
    const threshold = exactly(add(max, pow2(ulpTop - 1)));
    cases.push({
      name: `half an ulp past MAX_NORM of ${D} (a tie: the .rn threshold)`,
      bits: threshold,
    });
    if (threshold !== null && finiteValue(threshold + 1n, src))
      cases.push({ name: 'just above that threshold', bits: threshold + 1n });
  }
  if (integer) {
    for (const [name, x] of [
      ['0.25', pow2(-2)],
      ['0.5 (a tie between 0 and 1)', pow2(-1)],
      ['1.5 (a tie between 1 and 2)', times(pow2(-1), 3n, 0)],
      ['2.5 (a tie between 2 and 3)', times(pow2(-1), 5n, 0)],
      ['-1.5', times(pow2(-1, true), 3n, 0)],
    ] as const)
      value(name, x);
  } else if (dst !== src && dst !== 'f64') {
    value('1', pow2(0));
    if (s.signed) value('-1', pow2(0, true));
    // Ties: half way between 1 and the next destination value (to even: 1), and between that
    // value and the one after (to even: up), with the source values either side of the first.
    const ulp = -d.manBits;
    const tie = add(pow2(0), pow2(ulp - 1));
    const tieBits = exactly(tie);
    cases.push({ name: `tie between 1 and the next ${D} value`, bits: tieBits });
    if (tieBits !== null) {
      cases.push({ name: 'just below that tie', bits: tieBits - 1n });
      cases.push({ name: 'just above that tie', bits: tieBits + 1n });
    }
    value(`tie between the next two ${D} values`, add(pow2(0), times(pow2(ulp - 1), 3n, 0)));
    if (s.signed) value(`-(tie between 1 and the next ${D} value)`, negated(tie));
    value('1.5 (above 1: .sat clamps it)', times(pow2(-1), 3n, 0));
  }
  if (dst !== src && dst !== 'f64') {
    value(`least normal of ${D}`, pow2(d.emin));
    if (d.hasSubnormals) {
      const least = pow2(d.emin - d.manBits);
      value(`least subnormal of ${D}`, least);
      value(`half the least subnormal of ${D} (a tie with 0)`, pow2(d.emin - d.manBits - 1));
      value(`3/4 of the least subnormal of ${D}`, times(least, 3n, -2));
    } else if (!d.hasZero) {
      value(`half of ${D}'s least value`, pow2(d.emin - 1));
    }
  }
  if (s.hasSubnormals) cases.push({ name: `least subnormal of ${S}`, bits: 1n });

  const seen = new Set<bigint>();
  return cases.filter((c): c is { name: string; bits: bigint } => {
    if (c.bits === null || seen.has(c.bits)) return false;
    seen.add(c.bits);
    return true;
  });
}

function describe(bits: bigint, name: ElementFormatName): CvtCaseValue {
  const exact = exactValueOfElement(bits, name);
  return {
    bits: hexOf(bits, elementWidth(name)),
    class: classifyElement(bits, name),
    value: exact.decimal,
    number: exact.kind === 'nan' ? NaN : Number(exact.decimal.replace(/^\+/, '')),
  };
}

/** The form's result over its corner cases; an unknown form gives no rows. */
export function cvtCornerTable(formOrText: CvtForm | string): CvtCornerTable {
  const form = typeof formOrText === 'string' ? findCvtForm(formOrText) : formOrText;
  if (!form) return { form: String(formOrText), source: 'f32', dest: 'f32', rows: [] };
  const first = form.elements[0]!;
  const src = first.source.format;
  const dst = first.dest.format;
  const sources = form.operands.slice(1);
  const rows = casesOf(form).map(({ name, bits }) => {
    const registers: Partial<Record<CvtSourceName, bigint>> = {};
    for (const op of sources) registers[op.name as CvtSourceName] = 0n;
    for (const e of form.elements) {
      const operand = e.source.operand as CvtSourceName;
      registers[operand] = registers[operand]! | (bits << BigInt(e.source.value.lo));
    }
    const result = evaluateCvt(form, registers as { a: bigint });
    const out = result.elements[0]!;
    return {
      name,
      registers: Object.fromEntries(
        sources.map((op) => [op.name, hexOf(registers[op.name as CvtSourceName]!, op.bits)]),
      ),
      input: describe(bits, src),
      d: result.d,
      result: describe(BigInt(out.result), dst),
      outcomes: cvtCaseOutcomes(out.steps),
    };
  });
  return { form: form.text, source: src, dest: dst, rows };
}
