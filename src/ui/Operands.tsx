import { useCallback } from 'react';
import type { Operand } from '../catalog/index.ts';
import { useForm, useStore } from '../state/store.ts';
import type { OperandKey } from '../state/url-codec.ts';
import { BitEditor } from './BitEditor.tsx';

/** An editor per source operand of the current form. */
export function Operands() {
  const form = useForm();
  const sources = form.operands.filter((o) => o.name !== 'd');
  const hasOob = form.modifiers.includes('oob');
  return (
    <div className="operands">
      {sources.map((op) => (
        <OperandEditor key={op.name} operand={op} hasOob={hasOob} />
      ))}
    </div>
  );
}

function OperandEditor({ operand, hasOob }: { operand: Operand; hasOob: boolean }) {
  const key = operand.name as OperandKey;
  const register = useStore((s) => s.operands[key]);
  const marks = useStore((s) => s.oob[key]);
  const setOperand = useStore((s) => s.setOperand);
  const setOob = useStore((s) => s.setOob);
  const onChange = useCallback((bits: number) => setOperand(key, bits), [key, setOperand]);
  const toggleOob = useCallback((lane: 0 | 1, on: boolean) => setOob(key, lane, on), [key, setOob]);
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
      oob={
        hasOob || marks[0] || marks[1] ? { marks, toggle: toggleOob, applies: hasOob } : undefined
      }
    />
  );
}
