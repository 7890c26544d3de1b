/**
 * One engine-vs-reference comparison: the reference's destination bits against the engine's
 * traced path (evaluate(...).d) and, when no OOB marks are involved, its fast path (compileFast).
 */
import type { Form } from '../../src/catalog/forms.ts';
import {
  compileFast,
  evaluate,
  type EngineOptions,
  type EvalInput,
} from '../../src/engine/index.ts';
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

/** The engine's input for a form: only the operands the form has. */
export function evalInput(form: Form, registers: Registers, oob?: RefOobMarks): EvalInput {
  const has = (name: 'b' | 'c'): boolean => form.operands.some((o) => o.name === name);
  return {
    a: registers.a,
    ...(has('b') ? { b: registers.b } : {}),
    ...(has('c') ? { c: registers.c } : {}),
    ...(oob ? { oob } : {}),
  };
}

export type FastFn = (a: number, b: number, c: number) => number;

const fastCache = new Map<string, FastFn>();

/** compileFast, compiled once per form and options. */
export function fastFor(form: Form, options: Partial<EngineOptions> = {}): FastFn {
  const key = `${form.text}|${JSON.stringify(options)}`;
  let fn = fastCache.get(key);
  if (!fn) {
    fn = compileFast(form, options);
    fastCache.set(key, fn);
  }
  return fn;
}

export interface CheckOptions {
  readonly oob?: RefOobMarks;
  readonly options?: Partial<EngineOptions>;
  /** Also run the traced path (it is slower than the others). */
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
  const gotTraced = traced ? evaluate(form, evalInput(form, registers, oob), options).d : want;
  const gotFast = oob ? want : fastFor(form, options)(a, b, c);
  if (gotTraced === want && gotFast === want) return null;
  return {
    form: form.text,
    registers: { a, b, c },
    ...(oob ? { oob } : {}),
    ...(Object.keys(options).length > 0 ? { options } : {}),
    reference: hex(want),
    ...(traced ? { traced: hex(gotTraced) } : {}),
    ...(oob ? {} : { fast: hex(gotFast) }),
  };
}

export function describeMismatch(m: Mismatch): string {
  const regs = `a=${hex(m.registers.a)} b=${hex(m.registers.b)} c=${hex(m.registers.c)}`;
  const extra = `${m.oob ? ` oob=${JSON.stringify(m.oob)}` : ''}${m.options ? ` options=${JSON.stringify(m.options)}` : ''}`;
  return `${m.form} ${regs}${extra}: reference ${m.reference}, traced ${m.traced ?? '-'}, fast ${m.fast ?? '-'}`;
}
