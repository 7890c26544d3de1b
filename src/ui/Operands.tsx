import { lazy, Suspense, useCallback } from 'react';
import type { Form, Register, SourceName } from '../catalog/instruction.ts';
import { useStore, type StoredNote } from '../state/store.ts';
import { useForm } from '../state/form.ts';
import { LoadFailed } from './LoadFailed.tsx';
import { RegisterEditor } from './RegisterEditor.tsx';

// A tensor core's row, column and model load when a tensor-core form is first shown.
const MatrixOperands = lazy(() => import('./mma/MatrixOperands.tsx'));

/** An editor per source register of the current form (rbits included), for every instruction. */
export function Operands() {
  const form = useForm();
  const hasOob = form.modifiers.includes('oob');
  if (form.matrix)
    return (
      <LoadFailed what="The tensor-core editors">
        <Suspense fallback={<p className="muted">Loading the tensor-core editors…</p>}>
          <MatrixOperands />
        </Suspense>
      </LoadFailed>
    );
  return (
    <div className="operands">
      <p className="muted field-help" data-testid="field-help">
        The hex and binary fields take the register&apos;s bits in their base, prefix optional (
        <code>3c00</code> or <code>0x3c00</code>; <code>0b0011…</code>). The value fields take a
        value such as <code>1.5</code>, <code>-0</code>, <code>1e-3</code>, <code>inf</code> or{' '}
        <code>nan</code>, rounded to the element&apos;s format by round-to-nearest-even (a value the
        format cannot hold is refused), or bits written with <code>0x</code>/<code>0b</code>, as in
        a link. Enter commits.
      </p>
      {form.registers.slice(1).map((register) => (
        <OperandEditor
          key={`${form.text}-${register.name}`}
          form={form}
          register={register}
          // .oob tests the multiplicands a and b (decision 'oob-nan-pattern'), never c.
          oobTested={hasOob && (register.name === 'a' || register.name === 'b')}
        />
      ))}
    </div>
  );
}

function OperandEditor({
  form,
  register,
  oobTested,
}: {
  form: Form;
  register: Register;
  oobTested: boolean;
}) {
  const name = register.name as SourceName;
  const bits = useStore((s) => s.registers[name]);
  const setRegister = useStore((s) => s.setRegister);
  const onChange = useCallback(
    (value: bigint, stored?: StoredNote) => setRegister(name, value, stored),
    [name, setRegister],
  );
  const title =
    name === 'rbits'
      ? 'rbits (.b32, random bits for .rs)'
      : `Operand ${name} (.${register.type}, ${register.bits} bits)`;
  return (
    <RegisterEditor
      form={form}
      name={name}
      title={title}
      register={bits}
      onChange={onChange}
      oobTested={oobTested}
    />
  );
}
