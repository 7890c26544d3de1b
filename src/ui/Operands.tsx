import { useCallback } from 'react';
import type { Operand } from '../catalog/index.ts';
import { useForm, useStore, type StoredNote } from '../state/store.ts';
import type { OperandKey } from '../state/url-codec.ts';
import { BitEditor } from './BitEditor.tsx';

/** An editor per source operand of the current form. */
export function Operands() {
  const form = useForm();
  const sources = form.operands.filter((o) => o.name !== 'd');
  const hasOob = form.modifiers.includes('oob');
  return (
    <div className="operands">
      <p className="muted field-help" data-testid="field-help">
        The hex and binary fields take the register&apos;s bits in their base, prefix optional (
        <code>3c00</code> or <code>0x3c00</code>; <code>0b0011…</code>). The value fields take a
        value such as <code>1.5</code>, <code>-0</code>, <code>1e-3</code>, <code>inf</code> or{' '}
        <code>nan</code>, rounded to the operand&apos;s format by round-to-nearest-even (or bits
        written with <code>0x</code>/<code>0b</code>, as in a link). Enter commits.
      </p>
      {sources.map((op) => (
        <OperandEditor
          key={op.name}
          operand={op}
          // .oob tests the multiplicands a and b (decision 'oob-nan-pattern'), never c.
          oobTested={hasOob && (op.name === 'a' || op.name === 'b')}
        />
      ))}
    </div>
  );
}

function OperandEditor({ operand, oobTested }: { operand: Operand; oobTested: boolean }) {
  const key = operand.name as OperandKey;
  const register = useStore((s) => s.operands[key]);
  const setOperand = useStore((s) => s.setOperand);
  const onChange = useCallback(
    (bits: number, stored?: StoredNote) => setOperand(key, bits, stored),
    [key, setOperand],
  );
  const title = `Operand ${key} (.${operand.format}${operand.lanes === 2 ? ' ×2' : ''}, ${operand.bits} bits)`;
  return (
    <BitEditor
      name={key}
      title={title}
      register={register}
      width={operand.bits}
      lanes={operand.lanes}
      format={operand.format}
      onChange={onChange}
      oobTested={oobTested}
    />
  );
}
