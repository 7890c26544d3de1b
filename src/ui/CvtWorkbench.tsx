import { lazy, useCallback } from 'react';
import type { CvtForm, CvtOperand, CvtSourceName } from '../catalog/index.ts';
import { useCvtForm } from '../state/any-form.ts';
import { useStore, type StoredNote } from '../state/store.ts';
import type { Tab } from '../state/url-codec.ts';
import { CvtComparePanel } from './CvtComparePanel.tsx';
import { CvtRegisterEditor } from './CvtRegisterEditor.tsx';
import { CvtSteps } from './CvtSteps.tsx';
import { ExtrasTabs } from './ExtrasTabs.tsx';
import { ResultArea } from './ResultArea.tsx';
import './cvt.css';

// The panels below the editors load when first opened, as the arithmetic's do.
const CvtCornerCases = lazy(() => import('./CvtCornerCases.tsx'));
const CvtSweepPanel = lazy(() => import('./CvtSweepPanel.tsx'));
const FormatPage = lazy(() => import('./FormatPage.tsx'));

/** A cvt form's source editors and its result with the steps. */
export function CvtWorkbench() {
  const form = useCvtForm();
  if (!form) return null;
  return (
    <>
      <CvtOperands form={form} />
      <CvtResultPanel form={form} />
    </>
  );
}

function CvtOperands({ form }: { form: CvtForm }) {
  return (
    <div className="operands">
      <p className="muted field-help" data-testid="field-help">
        The hex and binary fields take the register&apos;s bits in their base, prefix optional (
        <code>43e00000</code> or <code>0x43e00000</code>; <code>0b0100…</code>). An element&apos;s
        value field takes a value such as <code>448</code>, <code>-0</code>, <code>1e-3</code> or{' '}
        <code>nan</code>, rounded to the element&apos;s format by round-to-nearest-even (a value the
        format cannot hold is refused), or bits written with <code>0x</code>/<code>0b</code>. Enter
        commits.
      </p>
      {form.operands.slice(1).map((op) => (
        <CvtOperandEditor key={`${form.text}-${op.name}`} form={form} operand={op} />
      ))}
    </div>
  );
}

function CvtOperandEditor({ form, operand }: { form: CvtForm; operand: CvtOperand }) {
  const name = operand.name as CvtSourceName;
  const register = useStore((s) => s.cvtRegisters[name]);
  const setCvtRegister = useStore((s) => s.setCvtRegister);
  const onChange = useCallback(
    (bits: bigint, stored?: StoredNote) => setCvtRegister(name, bits, stored),
    [name, setCvtRegister],
  );
  const title =
    name === 'rbits'
      ? 'rbits (.b32, random bits for .rs)'
      : `Operand ${name} (.${operand.type}, ${operand.bits} bits)`;
  return (
    <CvtRegisterEditor
      form={form}
      name={name}
      title={title}
      register={register}
      width={operand.bits}
      onChange={onChange}
    />
  );
}

/** The destination register, element by element, and the trace of each conversion. */
function CvtResultPanel({ form }: { form: CvtForm }) {
  const result = useStore((s) => s.cvtResult);
  const status = useStore((s) => s.cvtEvalStatus);
  const error = useStore((s) => s.cvtEvalError);
  const d = form.operands[0]!;
  // The last result only while it belongs to the current form (a new one is on its way).
  const current = result && result.form === form.text ? result : null;
  return (
    <ResultArea
      pending={status === 'pending'}
      error={status === 'error' ? error : null}
      // What if: B beside this form (compare mode), above A's result as for the arithmetic.
      lead={<CvtComparePanel />}
    >
      {current && (
        <>
          <CvtRegisterEditor
            form={form}
            name="d"
            title={`Result d (.${d.type}, ${d.bits} bits)`}
            register={BigInt(current.d)}
            width={current.dBits}
          />
          <CvtSteps result={current} form={form} />
        </>
      )}
    </ResultArea>
  );
}

/** cvt's panels: corner cases, the sweep over many inputs, the format pages. */
export function CvtExtras() {
  const tab = useStore((s) => s.tab);
  const tabs: { id: Tab; label: string }[] = [
    { id: 'corners', label: 'Corner cases' },
    { id: 'sweep', label: 'Sweep many inputs' },
    { id: 'format', label: 'Number formats' },
  ];
  const shown = tab === 'corners' || tab === 'sweep' || tab === 'format' ? tab : null;
  return (
    <ExtrasTabs tabs={tabs} shown={shown}>
      {shown === 'corners' && <CvtCornerCases />}
      {shown === 'sweep' && <CvtSweepPanel />}
      {shown === 'format' && <FormatPage />}
    </ExtrasTabs>
  );
}
