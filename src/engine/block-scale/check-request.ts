/**
 * A block-scale request checked before anything is computed: the scheme, its rule, the element
 * rounding, tensorAmax (NVFP4 only, finite, not negative), the block's length and values (finite
 * binary32 patterns), rbits (.rs only). Whatever the request holds, the answer is the checked
 * request or a structured error; nothing here throws.
 */
import { f32Hex } from './ptx-program.ts';
import {
  elementsPerCvt,
  isBlockScheme,
  isScaleRule,
  SCHEMES,
  type ElementRounding,
  type ScaleRule,
  type SchemeInfo,
} from './schemes.ts';
import type { BlockScaleError, BlockScaleErrorCode, BlockScaleRequest } from './types.ts';

const F32_ABS = 0x7fffffff;

const fail = (code: BlockScaleErrorCode, message: string, index?: number): BlockScaleError => ({
  ok: false,
  code,
  message,
  ...(index === undefined ? {} : { index }),
});

/** A request's field in a message: a string quoted (and cut short), anything else by its type. */
const shown = (x: unknown): string =>
  typeof x === 'string'
    ? JSON.stringify(x.length > 40 ? `${x.slice(0, 40)}…` : x)
    : `a ${typeof x}`;

const isBits32 = (x: unknown): x is number =>
  typeof x === 'number' && Number.isInteger(x) && x >= 0 && x <= 0xffffffff;
const isNonFinite = (bits: number) => (bits & 0x7f800000) === 0x7f800000;

export interface CheckedRequest {
  readonly info: SchemeInfo;
  readonly rule: ScaleRule;
  readonly rounding: ElementRounding;
  readonly values: readonly number[];
  readonly tensorAmax: number | undefined;
  /** One rbits word per element cvt (.rs); empty for .rn. */
  readonly rbits: readonly number[];
}

export function checkRequest(request: BlockScaleRequest): CheckedRequest | BlockScaleError {
  const { scheme, scaleRule } = request;
  if (typeof scheme !== 'string' || !isBlockScheme(scheme))
    return fail(
      'scheme',
      `unknown scheme ${shown(scheme)}; schemes: ${Object.keys(SCHEMES).join(', ')}`,
    );
  const info = SCHEMES[scheme];
  if (typeof scaleRule !== 'string' || !isScaleRule(scaleRule) || !info.rules.includes(scaleRule))
    return fail(
      'scale-rule',
      `${shown(scaleRule)} is not a scale rule of ${scheme}; its rules: ${info.rules.join(', ')}`,
    );
  const rounding = request.rounding ?? 'rn';
  if (rounding !== 'rn' && rounding !== 'rs')
    return fail(
      'rounding',
      `unknown element rounding ${shown(rounding)}; roundings: rn, rs (with rbits)`,
    );
  const { tensorAmax } = request;
  if (tensorAmax !== undefined) {
    if (scheme !== 'nvfp4')
      return fail('tensor-amax', `tensorAmax belongs to nvfp4's global scale; ${scheme} has none`);
    if (!isBits32(tensorAmax))
      return fail('tensor-amax', 'tensorAmax must be binary32 bits (0 … 0xffffffff)');
    if (isNonFinite(tensorAmax))
      return fail('tensor-amax', `tensorAmax ${f32Hex(tensorAmax)} is not finite`);
    if (tensorAmax >>> 31 === 1 && (tensorAmax & F32_ABS) !== 0)
      return fail('tensor-amax', `tensorAmax ${f32Hex(tensorAmax)} is negative`);
  }
  const { values } = request;
  if (!Array.isArray(values))
    return fail('length', `values must be a list of ${info.blockSize} binary32 patterns`);
  if (values.length !== info.blockSize)
    return fail(
      'length',
      `a ${scheme} block holds ${info.blockSize} values; ${values.length} given`,
    );
  for (let i = 0; i < values.length; i++) {
    const v: unknown = values[i];
    if (!isBits32(v)) return fail('value', `value ${i} must be binary32 bits (0 … 0xffffffff)`, i);
    if (isNonFinite(v))
      return fail(
        'value',
        `value ${i} (${f32Hex(v)}) is ${(v & 0x7fffff) === 0 ? 'infinite' : 'NaN'}; a block holds finite values`,
        i,
      );
  }
  const cvts = info.blockSize / elementsPerCvt(rounding);
  const { rbits } = request;
  if (rounding === 'rn') {
    if (Array.isArray(rbits) ? rbits.length > 0 : rbits !== undefined)
      return fail('rbits', 'rbits are the random bits of .rs; the .rn conversion takes none');
    return { info, rule: scaleRule, rounding, values, tensorAmax, rbits: [] };
  }
  if (!Array.isArray(rbits) || (rbits.length !== 1 && rbits.length !== cvts))
    return fail(
      'rbits',
      `.rs needs rbits: one 32-bit word for every cvt, or ${cvts} (one per four elements)`,
    );
  const bad = rbits.findIndex((r) => !isBits32(r));
  if (bad >= 0) return fail('rbits', `rbits ${bad} must be a 32-bit pattern (0 … 0xffffffff)`);
  const perCvt = rbits.length === 1 ? Array.from({ length: cvts }, () => rbits[0]!) : rbits;
  return { info, rule: scaleRule, rounding, values, tensorAmax, rbits: perCvt };
}
