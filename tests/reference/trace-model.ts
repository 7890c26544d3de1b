/**
 * The trace checker's model: for a form and its registers, the whole evaluation the trace
 * should describe — every element, every step, every field (docs/trace.md) — from the
 * instruction models of the half- and mixed-precision instructions (trace-model-arithmetic.ts),
 * of cvt (trace-model-cvt.ts) and of the matrix instructions' dot product
 * (trace-model-matrix.ts, on the tensor-core reference). It shares no code with src/engine: only the catalog, for the
 * forms. trace-compare.ts holds the engine's result against this, field by field.
 *
 * The element layout is the model's own: an x2 arithmetic form has lane 0 in bits 15…0 of each
 * register and lane 1 above it; cvt's elements are those of its Semantics block, a's first.
 */
import { findForm } from '../../src/catalog/all-forms.ts';
import type { Form } from '../../src/catalog/instruction.ts';
import { DEFAULT_MODEL_OPTIONS, type ModelOptions } from './model-inputs.ts';
import type { RefFormatName } from './ref-formats.ts';
import {
  bitsAt,
  decisionsOf,
  elementRead,
  ptx,
  resultStep,
  type BitRange,
  type ExpectedElement,
  type ExpectedResult,
  type ModelRegisters,
} from './trace-expect.ts';
import { arithmeticFamilyLane } from './trace-model-arithmetic.ts';
import { cvtElements, cvtResultStep, registerBitsOf } from './trace-model-cvt.ts';
import { matrixDBits, matrixElements } from './trace-model-matrix.ts';
import { formatHex, hexOf, viewIn } from './trace-views.ts';

export type {
  ExpectedElement,
  ExpectedResult,
  ExpectedStep,
  FieldCheck,
  ModelRegisters,
  RuleExpectation,
} from './trace-expect.ts';
export {
  DEFAULT_MODEL_OPTIONS as DEFAULT_TRACE_OPTIONS,
  type ModelOptions as TraceOptions,
} from './model-inputs.ts';

/** The lanes of a half- or mixed-precision form: each register's bits, lane by lane. */
function arithmeticElements(
  form: Form,
  registers: ModelRegisters,
  options: ModelOptions,
): { elements: ExpectedElement[]; d: bigint } {
  const section = form.section.section;
  const packed = (type: string) => type.endsWith('x2');
  const laneCount = form.registers.some((r) => packed(r.type)) ? 2 : 1;
  const slotOf = (type: string, bits: number, lane: number): BitRange =>
    packed(type) ? { hi: 16 * lane + 15, lo: 16 * lane } : { hi: bits - 1, lo: 0 };
  const elements: ExpectedElement[] = [];
  let d = 0n;
  for (let lane = 0; lane < laneCount; lane++) {
    const bits: Record<string, number> = {};
    const formats: Record<string, RefFormatName> = {};
    const operands = form.registers.slice(1).map((r) => {
      const format = r.type.replace('x2', '') as RefFormatName;
      const slot = slotOf(r.type, r.bits, lane);
      const register = registers[r.name as keyof ModelRegisters] ?? 0n;
      bits[r.name] = Number(bitsAt(register, slot));
      formats[r.name] = format;
      return elementRead(r.name, register, slot, slot, (b) => viewIn(b, format));
    });
    const inputs = {
      kind: 'inputs',
      operands,
      rule: ptx(
        section,
        laneCount === 2 ? /lane 0 = bits \[0:15\], lane 1 = bits \[16:31\]/ : /single values/,
      ),
    };
    const out = arithmeticFamilyLane(form, { bits, formats, inputs }, options);
    const dType = form.registers[0]!;
    const slot = slotOf(dType.type, dType.bits, lane);
    const view = viewIn(out.result, out.format);
    const steps = [...out.steps, resultStep(section, slot, slot, view, /destination/)];
    elements.push({ index: lane, steps, result: view.bits });
    d |= BigInt(out.result) << BigInt(slot.lo);
  }
  return { elements, d };
}

/** The whole expected evaluation of `formText` on its registers. */
export function expectedTrace(
  formText: string,
  registers: ModelRegisters,
  options: ModelOptions = DEFAULT_MODEL_OPTIONS,
): ExpectedResult {
  const form = findForm(formText);
  if (!form) throw new Error(`unknown form ${formText}`);
  const dType = form.type.split('.')[0]!;
  const formDecisions: string[] = form.documented ? [] : ['ptxas-only-forms'];
  let elements: ExpectedElement[];
  let d = 0n;
  let dBits = registerBitsOf(dType);
  if (form.family === 'matrix') {
    ({ elements, d } = matrixElements(form, registers, options.target));
    dBits = matrixDBits(form);
  } else if (form.family === 'convert') {
    // A rounding the form does not write is the line's default (decision cvt-default-rounding).
    if (form.rounding !== null && !form.text.split('.').includes(form.rounding))
      formDecisions.push('cvt-default-rounding');
    elements = cvtElements(form, registers, options).map((e) => {
      d |= e.result << BigInt(e.valueBits.lo);
      return {
        index: e.index,
        steps: [...e.steps, cvtResultStep(form, e)],
        result: formatHex(e.result, e.dest),
      };
    });
  } else {
    ({ elements, d } = arithmeticElements(form, registers, options));
  }
  return {
    form: form.text,
    d: hexOf(d, dBits),
    dBits,
    dType,
    elements,
    decisions: decisionsOf(formDecisions, elements),
  };
}
