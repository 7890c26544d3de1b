/** Steps every instruction shares: the inputs it reads and the result it writes. */
import type { Form } from '../../catalog/forms.ts';
import { classify, type FloatFormat, exactValueOfBits } from '../formats.ts';
import { rule, type LaneInput } from '../lane.ts';
import type { Step } from '../trace.ts';

export function inputsStep(
  form: Form,
  input: LaneInput,
  formatOf: (name: string) => FloatFormat,
): Step {
  const sources = form.operands.slice(1);
  return {
    kind: 'inputs',
    operands: sources.map((o) => {
      const f = formatOf(o.name);
      const bits = input[o.name as 'a' | 'b' | 'c'];
      return {
        name: o.name,
        bits,
        format: f.name,
        class: classify(bits, f),
        value: exactValueOfBits(bits, f),
      };
    }),
    rule: rule(
      form,
      form.operands[1]!.lanes === 2
        ? 'forms input vectors by half word values from source operands: lane 0 = bits [0:15], lane 1 = bits [16:31]'
        : 'operands are read as single values',
    ),
  };
}

export function resultStep(form: Form, bits: number, f: FloatFormat): Step {
  return {
    kind: 'result',
    format: f.name,
    bits,
    value: exactValueOfBits(bits, f),
    rule: rule(form, 'writes the resulting value into the destination register'),
  };
}

/**
 * The spec's semantics line for the form's shape: the scalar statement for a one-lane form, the
 * x2 statement (after "// x2:") for a packed one, where the catalog gives both.
 */
export function laneSemantics(form: Form): string {
  const [scalar, packed] = form.record.semantics.split('\n')[0]!.split('// x2:');
  const packedForm = form.operands.some((o) => o.lanes === 2);
  return (packedForm && packed !== undefined ? packed : scalar!).trim();
}
