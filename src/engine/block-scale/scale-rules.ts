/**
 * The scale rules as PTX (issue 26, item 1), each writing its lines into the program:
 *
 *   MX (UE8M0 scale 2^e):
 *     ocp:  cvt.rz.satfinite.ue8m0x2.f32 of amax (2^floor(log2 amax)), then shr.u16, sub.s16
 *           emax_elem, max.s16 0: 2^(floor(log2 amax) − emax_elem), at least 2^−127
 *           (decision block-ocp-exponent)
 *     rp:   cvt.rp.satfinite.ue8m0x2.f32 of div.rn.f32 amax, max_elem
 *     rz:   cvt.rz.satfinite.ue8m0x2.f32 of div.rn.f32 amax, max_elem
 *     x_i' = mul.rn.f32 x_i, 2^−e                       (decision block-mx-power-of-two)
 *   NVFP4 (UE4M3 block scale, f32 global scale):
 *     global = div.rn.f32 tensorAmax, 2688.0            (tensorAmax given, else amax); 1.0 where 0
 *     s      = cvt.rn.satfinite.e4m3x2.f32 of div.rn.f32 (div.rn.f32 amax, 6.0), global
 *     q      = mul.rn.f32 s, global
 *     x_i'   = div.rn.f32 x_i, q; where q is zero, copysign(x_i, 0)   (decision nvfp4-zero-divisor)
 */
import type { Form } from '../../catalog/instruction.ts';
import { multiply, type Dyadic } from '../exact.ts';
import { FORMATS, exactValueOfBits } from '../format.ts';
import type { EvalResult } from '../steps.ts';
import {
  cvtCall,
  elementView,
  f32View,
  finiteOf,
  saturatedIn,
  upperByte,
  type CvtRegisters,
} from './conversion-calls.ts';
import { copysignF32, divRnF32, mulRnF32, powerOfTwoF32 } from './f32-arith.ts';
import { f32Hex, f32Immediate, type PtxProgramBuilder } from './ptx-program.ts';
import type { ScaleRule, SchemeInfo } from './schemes.ts';
import type { BlockScale, GlobalScale } from './types.ts';

const F32 = FORMATS.f32;
const F32_ABS = 0x7fffffff;
const NVFP4_GLOBAL_DIVISOR = 0x45280000; // 2688.0 = 448 × 6
const SIX = 0x40c00000;
const ONE = 0x3f800000;
const ZERO_IMMEDIATE = f32Immediate(0);

export interface ScaleOutcome {
  readonly scale: BlockScale;
  readonly globalScale: GlobalScale | null;
  /** What a stored element is multiplied by to decode it: 2^e, or NVFP4's scale × global. */
  readonly factor: Dyadic;
  /** The binary32 value each element cvt converts, and the register that holds it. */
  readonly scaled: readonly { bits: number; register: string }[];
}

export type Run = (text: string, registers: CvtRegisters) => { form: Form; result: EvalResult };

/** The MX scale 2^e by the rule, and each value × 2^−e in binary32. */
export function mxScale(
  b: PtxProgramBuilder,
  run: Run,
  info: SchemeInfo,
  rule: ScaleRule,
  values: readonly number[],
  valueRegisters: readonly string[],
  amax: number,
  amaxRegister: string,
): ScaleOutcome {
  let biased: number;
  let source: { form: Form; result: EvalResult; registers: { a: number; b: number } };
  if (rule === 'ocp') {
    // 2^floor(log2 amax) (0x00 below 2^-127), then its biased exponent − emax_elem, at least 0.
    const text = 'cvt.rz.satfinite.ue8m0x2.f32';
    const registers = { a: amax, b: amax };
    const { form, result } = run(text, registers);
    const rs = b.register('rs');
    b.cvt('scale', `${text} ${rs}, ${amaxRegister}, ${amaxRegister};`, rs, result.d);
    const exponent = upperByte(result);
    const shifted = b.register('rs');
    b.bits('scale', `shr.u16 ${shifted}, ${rs}, 8;`, shifted, exponent, 16);
    const less = b.register('rs');
    const difference = exponent - info.emaxElem;
    b.bits(
      'scale',
      `sub.s16 ${less}, ${shifted}, ${info.emaxElem};`,
      less,
      difference & 0xffff,
      16,
    );
    const clamped = b.register('rs');
    biased = Math.max(difference, 0);
    b.bits('scale', `max.s16 ${clamped}, ${less}, 0;`, clamped, biased, 16);
    source = { form, result, registers };
  } else {
    const quotient = divRnF32(amax, info.maxElemBits);
    const q = b.register('f');
    b.f32(
      'scale',
      `div.rn.f32 ${q}, ${amaxRegister}, ${f32Immediate(info.maxElemBits)};`,
      q,
      quotient.bits,
      {
        inexact: quotient.inexact,
      },
    );
    const text = `cvt.${rule}.satfinite.ue8m0x2.f32`;
    const registers = { a: quotient.bits, b: quotient.bits };
    const { form, result } = run(text, registers);
    const rs = b.register('rs');
    b.cvt('scale', `${text} ${rs}, ${q}, ${q};`, rs, result.d);
    biased = upperByte(result);
    source = { form, result, registers };
  }
  const e = biased - 127;
  const reciprocal = powerOfTwoF32(-e);
  const scaled = values.map((bits, i) => {
    const product = mulRnF32(bits, reciprocal);
    const r = b.register('f');
    b.f32(
      'scale-values',
      `mul.rn.f32 ${r}, ${valueRegisters[i]}, ${f32Immediate(reciprocal)};`,
      r,
      product.bits,
      { inexact: product.inexact, elements: [i] },
    );
    return { bits: product.bits, register: r };
  });
  const scaleBits = BigInt(biased);
  return {
    scale: {
      format: 'ue8m0',
      bits: elementView(scaleBits, 'ue8m0').bits,
      value: exactValueOfBits(scaleBits, FORMATS.ue8m0),
      exponent: e,
      saturated: saturatedIn(source.result, 0),
      cvt: cvtCall(source.form, source.registers, 0, source.result),
    },
    globalScale: null,
    factor: { negative: false, mant: 1n, exp: e },
    scaled,
  };
}

/** NVFP4's global and block scales, and each value ÷ (block scale × global) in binary32. */
export function nvfp4Scale(
  b: PtxProgramBuilder,
  run: Run,
  values: readonly number[],
  valueRegisters: readonly string[],
  amax: number,
  amaxRegister: string,
  tensorAmax: number | undefined,
  tensorRegister: string | null,
): ScaleOutcome {
  // global = tensorAmax / 2688, or 1.0 where that is zero.
  const dividend = tensorAmax ?? amax;
  const dividendRegister = tensorRegister ?? amaxRegister;
  const g0 = divRnF32(dividend, NVFP4_GLOBAL_DIVISOR);
  const g0Register = b.register('f');
  b.f32(
    'global-scale',
    `div.rn.f32 ${g0Register}, ${dividendRegister}, ${f32Immediate(NVFP4_GLOBAL_DIVISOR)};`,
    g0Register,
    g0.bits,
    { inexact: g0.inexact },
  );
  const zeroGlobal = (g0.bits & F32_ABS) === 0;
  const p1 = b.register('p');
  b.bits(
    'global-scale',
    `setp.eq.f32 ${p1}, ${g0Register}, ${ZERO_IMMEDIATE};`,
    p1,
    +zeroGlobal,
    1,
  );
  const global = zeroGlobal ? ONE : g0.bits;
  const gRegister = b.register('f');
  b.f32(
    'global-scale',
    `selp.f32 ${gRegister}, ${f32Immediate(ONE)}, ${g0Register}, ${p1};`,
    gRegister,
    global,
  );

  // The block scale: cvt.rn.satfinite.e4m3x2.f32 of (amax / 6) / global.
  const t1 = divRnF32(amax, SIX);
  const t1Register = b.register('f');
  b.f32(
    'scale',
    `div.rn.f32 ${t1Register}, ${amaxRegister}, ${f32Immediate(SIX)};`,
    t1Register,
    t1.bits,
    {
      inexact: t1.inexact,
    },
  );
  const t2 = divRnF32(t1.bits, global);
  const t2Register = b.register('f');
  b.f32('scale', `div.rn.f32 ${t2Register}, ${t1Register}, ${gRegister};`, t2Register, t2.bits, {
    inexact: t2.inexact,
  });
  const scaleText = 'cvt.rn.satfinite.e4m3x2.f32';
  const scaleRegisters = { a: t2.bits, b: t2.bits };
  const scaleCvt = run(scaleText, scaleRegisters);
  const rs = b.register('rs');
  b.cvt('scale', `${scaleText} ${rs}, ${t2Register}, ${t2Register};`, rs, scaleCvt.result.d);
  const scaleBits = upperByte(scaleCvt.result);

  // Back to binary32 (both exact): e4m3x2 → f16x2, one half, f16 → f32.
  const widened = run('cvt.rn.f16x2.e4m3x2', { a: (scaleBits << 8) | scaleBits });
  const r = b.register('r');
  b.cvt('scale', `cvt.rn.f16x2.e4m3x2 ${r}, ${rs};`, r, widened.result.d);
  const half = Number(BigInt(widened.result.d) & 0xffffn);
  const low = b.register('rs');
  const high = b.register('rs');
  b.bits('scale', `mov.b32 {${low}, ${high}}, ${r};`, low, half, 16);
  const asF32 = run('cvt.f32.f16', { a: half });
  const scaleF32 = Number(BigInt(asF32.result.d));
  const sRegister = b.register('f');
  b.f32('scale', `cvt.f32.f16 ${sRegister}, ${low};`, sRegister, scaleF32);

  // The divisor, and the zero test that keeps a zero block scale from dividing.
  const divisor = mulRnF32(scaleF32, global);
  const qRegister = b.register('f');
  b.f32('scale', `mul.rn.f32 ${qRegister}, ${sRegister}, ${gRegister};`, qRegister, divisor.bits, {
    inexact: divisor.inexact,
  });
  const zeroDivisor = (divisor.bits & F32_ABS) === 0;
  const p2 = b.register('p');
  b.bits('scale', `setp.eq.f32 ${p2}, ${qRegister}, ${ZERO_IMMEDIATE};`, p2, +zeroDivisor, 1);

  const scaled = values.map((bits, i) => {
    const x = b.register('f');
    const quotient = zeroDivisor ? null : divRnF32(bits, divisor.bits);
    const signedZero = copysignF32(bits, 0);
    b.f32(
      'scale-values',
      `@!${p2} div.rn.f32 ${x}, ${valueRegisters[i]}, ${qRegister};`,
      x,
      quotient?.bits ?? null,
      {
        ...(quotient ? { inexact: quotient.inexact } : {}),
        elements: [i],
      },
    );
    b.f32(
      'scale-values',
      `@${p2} copysign.f32 ${x}, ${valueRegisters[i]}, ${ZERO_IMMEDIATE};`,
      x,
      zeroDivisor ? signedZero : null,
      { elements: [i] },
    );
    return { bits: quotient?.bits ?? signedZero, register: x };
  });

  const globalDyadic = finiteOf(global);
  const scaleDyadic = finiteOf(scaleF32);
  return {
    scale: {
      format: 'ue4m3',
      bits: elementView(BigInt(scaleBits), 'e4m3').bits,
      value: exactValueOfBits(BigInt(scaleBits), FORMATS.e4m3),
      exponent: null,
      saturated: saturatedIn(scaleCvt.result, 0),
      cvt: cvtCall(scaleCvt.form, scaleRegisters, 0, scaleCvt.result),
    },
    globalScale: {
      bits: f32Hex(global),
      value: exactValueOfBits(BigInt(global), F32),
      from: tensorAmax === undefined ? 'block-amax' : 'tensor-amax',
      dividend: f32View(dividend),
      zeroReplaced: zeroGlobal,
    },
    factor: multiply(scaleDyadic, globalDyadic),
    scaled,
  };
}
