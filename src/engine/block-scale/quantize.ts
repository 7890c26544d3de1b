/**
 * Quantize one block to a block-scaled format, as the PTX sequence of issue 26 computes it:
 *
 *   amax     = max |x_i|                        abs.f32 each, then max.f32 pairwise
 *   the scale, and each x_i' the elements convert  (scale-rules.ts: ocp, rp, rz, nvfp4)
 *   elements = cvt.rn.satfinite.<elem>x2.f32 of the x_i', two at a time, or
 *              cvt.rs.satfinite.<elem>x4.f32 four at a time with the user's rbits
 *   decoded  = element × 2^e (MX) or × scale × global (NVFP4), measured against x_i
 *
 * Every conversion is the catalog cvt form evaluated by the one pipeline (pipeline.ts), and each
 * element carries the form and the registers that reproduce it; div.rn.f32 and mul.rn.f32 round
 * their exact results once by the one rounding (f32-arith.ts). Bad requests are answered with a structured error
 * (check-request.ts), never an exception.
 */
import type { Form } from '../../catalog/instruction.ts';
import { exactValueOfDyadic, isZero } from '../exact.ts';
import { FORMATS, valueOfBits } from '../format.ts';
import type { EvalResult } from '../steps.ts';
import { checkRequest } from './check-request.ts';
import {
  cvtCall,
  cvtForm,
  elementView,
  f32View,
  finiteOf,
  runCvt,
  saturatedIn,
  type CvtRegisters,
} from './conversion-calls.ts';
import type { BlockScaleDecisionId } from '../decisions.ts';
import { elementError, summarize } from './element-error.ts';
import { f32Hex, PtxProgramBuilder } from './ptx-program.ts';
import { mxScale, nvfp4Scale } from './scale-rules.ts';
import { elementCvtForm, elementsPerCvt } from './schemes.ts';
import type { BlockScaleRequest, BlockScaleResult, CvtCall, QuantizedElement } from './types.ts';

const F32_ABS = 0x7fffffff;

export function quantizeBlock(request: BlockScaleRequest): BlockScaleResult {
  const checked = checkRequest(request);
  if ('ok' in checked) return checked;
  const { info, rule, rounding, values, tensorAmax } = checked;
  const b = new PtxProgramBuilder();
  const cvtResults: EvalResult[] = [];
  const forms = new Map<string, Form>();
  const run = (text: string, registers: CvtRegisters) => {
    const form = cvtForm(text);
    forms.set(form.text, form);
    const result = runCvt(form, registers);
    cvtResults.push(result);
    return { form, result };
  };

  const valueRegisters = values.map((bits, i) => b.input('value', bits, i));
  const tensorRegister = tensorAmax === undefined ? null : b.input('tensor-amax', tensorAmax);

  // amax = max |x_i|: magnitudes of finite binary32 values order as their bit patterns do.
  const absRegisters = values.map((bits, i) => {
    const r = b.register('f');
    b.f32('amax', `abs.f32 ${r}, ${valueRegisters[i]};`, r, bits & F32_ABS, { elements: [i] });
    return r;
  });
  let amaxRegister = absRegisters[0]!;
  let amax = values[0]! & F32_ABS;
  for (let i = 1; i < values.length; i++) {
    const r = b.register('f');
    amax = Math.max(amax, values[i]! & F32_ABS);
    b.f32('amax', `max.f32 ${r}, ${amaxRegister}, ${absRegisters[i]};`, r, amax);
    amaxRegister = r;
  }
  const amaxIndex = values.findIndex((v) => (v & F32_ABS) === amax);

  const outcome =
    info.scheme === 'nvfp4'
      ? nvfp4Scale(b, run, values, valueRegisters, amax, amaxRegister, tensorAmax, tensorRegister)
      : mxScale(b, run, info, rule, values, valueRegisters, amax, amaxRegister);

  // The element conversions, two (.rn) or four (.rs) at a time.
  const per = elementsPerCvt(rounding);
  const formText = elementCvtForm(info.element, rounding);
  const converted: { bits: bigint; call: CvtCall; saturated: boolean }[] = [];
  for (let k = 0; k < values.length; k += per) {
    const group = outcome.scaled.slice(k, k + per);
    const indices = group.map((_, j) => k + j);
    const form = cvtForm(formText);
    const registers: CvtRegisters = {};
    form.elements.forEach(
      (e, j) => (registers[e.inputs[0]!.operand as keyof CvtRegisters] = group[j]!.bits),
    );
    let rbitsRegister = '';
    if (rounding === 'rs') {
      const word = checked.rbits[k / per]!;
      registers.rbits = word;
      rbitsRegister = b.register('r');
      b.bits('convert', `mov.b32 ${rbitsRegister}, ${f32Hex(word)};`, rbitsRegister, word, 32);
    }
    const { result } = run(formText, registers);
    const d = b.register(form.registers[0]!.bits === 32 ? 'r' : 'rs');
    const sources = group.map((g) => g.register).join(', ');
    const text =
      rounding === 'rn'
        ? `${formText} ${d}, ${sources};`
        : `${formText} ${d}, {${sources}}, ${rbitsRegister};`;
    b.cvt('convert', text, d, result.d, indices);
    group.forEach((_, j) =>
      converted.push({
        bits: BigInt(result.elements[j]!.result),
        call: cvtCall(form, registers, j, result),
        saturated: saturatedIn(result, j),
      }),
    );
  }

  const elements: QuantizedElement[] = [];
  const forSummary = values.map((bits, i) => {
    const input = finiteOf(bits);
    const c = converted[i]!;
    const stored = valueOfBits(c.bits, FORMATS[info.element]);
    const storedView = elementView(c.bits, info.element);
    const nan = stored.kind !== 'finite';
    const flushedToZero = !isZero(input) && storedView.class === 'zero';
    const measured =
      stored.kind === 'finite' ? elementError(input, stored.x, outcome.factor, info.element) : null;
    elements.push({
      index: i,
      input: f32View(bits),
      scaled: f32View(outcome.scaled[i]!.bits),
      cvt: c.call,
      stored: storedView,
      decoded: measured
        ? exactValueOfDyadic(measured.decoded)
        : { kind: 'nan', negative: false, decimal: 'NaN', binary: 'NaN', rational: 'NaN' },
      error: measured?.error ?? null,
      flags: { saturated: c.saturated, flushedToZero, nan },
    });
    return {
      input,
      difference: measured?.difference ?? null,
      error: measured?.error ?? null,
      saturated: c.saturated,
      flushedToZero,
    };
  });

  const decisions: BlockScaleDecisionId[] = [
    'block-f32-arithmetic',
    'block-scale-register',
    'block-error-ulps',
  ];
  if (rule === 'ocp') decisions.push('block-ocp-exponent');
  if (info.scheme === 'nvfp4') {
    decisions.push('nvfp4-zero-divisor', 'nvfp4-decoded-value');
    if (tensorAmax !== undefined) decisions.push('nvfp4-tensor-amax');
  } else decisions.push('block-mx-power-of-two');
  if (rounding === 'rs') decisions.push('block-rs-rbits');

  return {
    ok: true,
    scheme: info.scheme,
    scaleRule: rule,
    element: info.element,
    blockSize: info.blockSize,
    rounding,
    amax: { ...f32View(amax), index: amaxIndex },
    scale: outcome.scale,
    globalScale: outcome.globalScale,
    dequantizeFactor: exactValueOfDyadic(outcome.factor),
    program: b.build(),
    cvtForms: [...forms.values()].map((f) => ({
      form: f.text,
      minTarget: f.minTarget,
      minPtx: f.minPtx,
    })),
    elements,
    summary: summarize(forSummary),
    decisions,
    cvtDecisions: [...new Set(cvtResults.flatMap((r) => r.decisions))],
  };
}
