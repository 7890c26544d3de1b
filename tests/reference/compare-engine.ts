/**
 * One engine-vs-reference comparison: the reference's destination bits against the engine's
 * pipeline (evaluate(...).d, src/engine/pipeline.ts) and its fast path (compileFast(form).words). OOB-NaN
 * marks are the reference's input; the engine reads the same thing in the bits: the marked lanes
 * hold the pattern.
 */
import type { Form } from '../../src/catalog/instruction.ts';
import { compileFast } from '../../src/engine/fast/index.ts';
import type { EngineOptions } from '../../src/engine/options.ts';
import { evaluate } from '../../src/engine/pipeline.ts';
import { DEFAULT_MODEL_OPTIONS, withOobMarks } from './model-inputs.ts';
import { refEvaluate, type RefOobMarks } from './slowfloat.ts';
import type { Registers } from './vectors.ts';

export interface Mismatch {
  readonly form: string;
  readonly registers: Registers;
  readonly oob?: RefOobMarks;
  readonly options?: Partial<EngineOptions>;
  readonly reference: string;
  readonly traced?: string;
  readonly fast?: string;
}

const hex = (n: number): string => `0x${n.toString(16)}`;

/** The pipeline's registers for a form: only the operands the form has, as bigints. */
export function pipelineRegisters(
  form: Form,
  registers: Registers,
): Partial<Record<'a' | 'b' | 'c', bigint>> {
  const has = (name: 'b' | 'c'): boolean => form.registers.some((r) => r.name === name);
  return {
    a: BigInt(registers.a),
    ...(has('b') ? { b: BigInt(registers.b) } : {}),
    ...(has('c') ? { c: BigInt(registers.c) } : {}),
  };
}

export type FastFn = (a: number, b: number, c: number) => number;

const fastCache = new Map<string, FastFn>();

/** The fast path's words, compiled once per form and options. */
export function fastFor(form: Form, options: Partial<EngineOptions> = {}): FastFn {
  const key = `${form.text}|${JSON.stringify(options)}`;
  let fn = fastCache.get(key);
  if (!fn) {
    fn = compileFast(form.text, options).words!;
    fastCache.set(key, fn);
  }
  return fn;
}

export interface CheckOptions {
  readonly oob?: RefOobMarks;
  readonly options?: Partial<EngineOptions>;
  /** Also run the pipeline (it is slower than the others). */
  readonly traced?: boolean;
}

/** null when the engine agrees with the reference, else what each side said. */
export function checkVector(
  form: Form,
  registers: Registers,
  check: CheckOptions = {},
): Mismatch | null {
  const { oob, options = {}, traced = true } = check;
  const { a, b, c } = registers;
  const want = refEvaluate(form.text, a, b, c, oob, options);
  const pattern = options.oobNanBits ?? DEFAULT_MODEL_OPTIONS.oobNanBits;
  const packed = form.registers[1]!.type.endsWith('x2');
  const inBits = oob ? withOobMarks(registers, oob, pattern, packed) : registers;
  const gotTraced = traced
    ? Number(BigInt(evaluate(form.text, pipelineRegisters(form, inBits), options).d))
    : want;
  const gotFast = fastFor(form, options)(inBits.a, inBits.b, inBits.c);
  if (gotTraced === want && gotFast === want) return null;
  return {
    form: form.text,
    registers: { a, b, c },
    ...(oob ? { oob } : {}),
    ...(Object.keys(options).length > 0 ? { options } : {}),
    reference: hex(want),
    ...(traced ? { traced: hex(gotTraced) } : {}),
    fast: hex(gotFast),
  };
}

export function describeMismatch(m: Mismatch): string {
  const regs = `a=${hex(m.registers.a)} b=${hex(m.registers.b)} c=${hex(m.registers.c)}`;
  const extra = `${m.oob ? ` oob=${JSON.stringify(m.oob)}` : ''}${m.options ? ` options=${JSON.stringify(m.options)}` : ''}`;
  return `${m.form} ${regs}${extra}: reference ${m.reference}, traced ${m.traced ?? '-'}, fast ${m.fast ?? '-'}`;
}
