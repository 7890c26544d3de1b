import { useMemo } from 'react';
import type { CvtForm, CvtSourceName } from '../catalog/index.ts';
import { readableDecimal, type CvtCornerTable } from '../engine/index.ts';
import { useCvtForm } from '../state/any-form.ts';
import type { CvtRegisters } from '../state/cvt-operands.ts';
import { useStore } from '../state/store.ts';
import { useWorkerRequest } from '../state/use-worker-request.ts';
import { CornerCaseTable } from './CornerCaseTable.tsx';
import type { CaseRow } from './corner-rows.ts';
import { CornerCasesFrame } from './CornerCasesFrame.tsx';
import './corner-cases.css';

/** The engine's table takes a few ms; allow for a slow machine. */
const TABLE_TIMEOUT_MS = 10_000;

/** The loaded registers of each row, by row id (the table's rows carry the arithmetic's numbers). */
type RowRegisters = ReadonlyMap<string, Partial<CvtRegisters>>;

/** A cvt table reshaped into the corner-case table's rows: only formatting happens here. */
function rowsOf(table: CvtCornerTable): { rows: CaseRow[]; registers: RowRegisters } {
  const registers = new Map<string, Partial<CvtRegisters>>();
  const rows = table.rows.map((r, i) => {
    const id = String(i);
    registers.set(
      id,
      Object.fromEntries(Object.entries(r.registers).map(([k, v]) => [k, BigInt(v!)])),
    );
    // Exact decimals run to a hundred digits (the least .f32 subnormal): the table shows their
    // first digits, as the steps do, so one row cannot push the results out of view.
    const input = {
      ...r.input,
      bits: r.input.bits.toLowerCase(),
      value: readableDecimal(r.input.value).text,
    };
    const result = {
      ...r.result,
      bits: r.result.bits.toLowerCase(),
      value: readableDecimal(r.result.value).text,
    };
    const cells = {
      a: {
        name: r.name,
        hex: input.bits,
        value: input.value,
        number: input.number,
        cls: input.class,
      },
      d: {
        name: '',
        hex: result.bits,
        value: result.value,
        number: result.number,
        cls: result.class,
      },
    };
    const words = [
      r.name,
      input.bits,
      input.value,
      input.class,
      result.bits,
      result.value,
      result.class,
      ...r.outcomes,
    ]
      .join(' ')
      .toLowerCase()
      .split(/\s+/)
      .filter(Boolean);
    return { id, regs: {}, cells, outcomes: r.outcomes, words };
  });
  return { rows, registers };
}

/**
 * The current cvt form over its corner cases (NaN, the infinities, the zeros, MAX_NORM and past
 * it, ties, subnormals), computed by the engine in the worker and shown in the arithmetic's
 * corner-case table: sortable, filterable by what happened, a row loads its case.
 */
export default function CvtCornerCases() {
  const form = useCvtForm();
  return form ? <Table form={form} /> : null;
}

function Table({ form }: { form: CvtForm }) {
  const current = useStore((s) => s.cvtRegisters);
  const loadCvtCase = useStore((s) => s.loadCvtCase);
  const answer = useWorkerRequest(
    'cvt-corner-table',
    form.text,
    (api) => api.cvtCornerTable(form.text),
    { timeoutMs: TABLE_TIMEOUT_MS },
  ).answer;
  const shaped = useMemo(
    () => (answer?.status === 'ok' ? { ...rowsOf(answer.value), table: answer.value } : null),
    [answer],
  );
  const sources = form.operands.slice(1).map((o) => o.name as CvtSourceName);
  const isCurrent = (row: CaseRow) => {
    const regs = shaped?.registers.get(row.id);
    return !!regs && sources.every((k) => regs[k] === current[k]);
  };
  const rs = form.modifiers.includes('rs');
  return (
    <CornerCasesFrame error={answer?.status === 'error' ? answer.message : null}>
      {shaped && (
        <CornerCaseTable
          key={form.text}
          formText={form.text}
          keys={['a']}
          lanes={1}
          rows={shaped.rows}
          onLoad={(row) => loadCvtCase(shaped.registers.get(row.id) ?? {})}
          isCurrent={isCurrent}
          titles={{
            a: `input (.${shaped.table.source})`,
            d: `d = result (.${shaped.table.dest})`,
          }}
          help={`Each case is put in every source element${form.elements.length > 1 ? ', so every element gives the same result; the table shows one' : ''}.${rs ? ' The random bits are 0: under .rs every inexact case rounds toward zero (load a row and edit rbits to see the other way).' : ''}`}
          outcomeLabels={{
            tie: { mark: 'tie', filter: 'a tie, half way between two values' },
            clamp: { mark: 'clamped', filter: 'clamped (.satfinite, .sat or .relu)' },
          }}
        />
      )}
    </CornerCasesFrame>
  );
}
