import { useMemo } from 'react';
import type { Form } from '../catalog/index.ts';
import { inEveryLane } from '../engine/index.ts';
import { useForm, useStore } from '../state/store.ts';
import { formatBits } from '../state/url-codec.ts';
import { useWorkerRequest } from '../state/use-worker-request.ts';
import type { SpecCornerCheck } from '../worker/api.ts';
import { CornerCaseTable } from './CornerCaseTable.tsx';
import { caseRows, inputKeys, type CaseRow } from './corner-rows.ts';
import { CornerCasesFrame } from './CornerCasesFrame.tsx';
import { bringIntoViewOnNarrow } from './narrow.ts';
import './corner-cases.css';

/** The engine's table over every special-value case takes a few ms; allow for a slow machine. */
const TABLE_TIMEOUT_MS = 10_000;

/**
 * The current form over the special values, computed by the engine in the worker; for tanh and
 * ex2 also the spec's own corner-case table beside the engine's answers.
 */
export default function CornerCases() {
  const form = useForm();
  const operands = useStore((s) => s.operands);
  const loadCase = useStore((s) => s.loadCase);
  const table = useWorkerRequest('corner-table', form.text, (api) => api.cornerTable(form.text), {
    timeoutMs: TABLE_TIMEOUT_MS,
  }).answer;
  const spec = useWorkerRequest(
    'spec-corners',
    form.text,
    (api) => api.specCornerChecks(form.text),
    { timeoutMs: TABLE_TIMEOUT_MS },
  ).answer;
  const keys = useMemo(() => inputKeys(form), [form]);
  const rows = useMemo(
    () => (table?.status === 'ok' ? caseRows(form, table.value) : null),
    [form, table],
  );

  return (
    <CornerCasesFrame
      lead={
        spec?.status === 'ok' &&
        spec.value.length > 0 && (
          <SpecTable
            form={form}
            checks={spec.value}
            onLoad={(a) => {
              loadCase({ a });
              bringIntoViewOnNarrow('#result');
            }}
          />
        )
      }
      error={table?.status === 'error' ? table.message : null}
    >
      {rows && (
        <CornerCaseTable
          key={form.text}
          formText={form.text}
          keys={keys}
          lanes={form.operands[0]!.lanes}
          rows={rows}
          current={operands}
          onLoad={(row: CaseRow) => loadCase(row.regs)}
        />
      )}
    </CornerCasesFrame>
  );
}

/** The spec's corner-case table (tanh, ex2), each line beside the engine's answer. */
function SpecTable(props: {
  form: Form;
  checks: readonly SpecCornerCheck[];
  onLoad: (a: number) => void;
}) {
  const { form, checks, onLoad } = props;
  const register = (bits: number) => inEveryLane(form, 'a', bits);
  const agreeing = checks.filter((c) => c.agrees).length;
  return (
    <div className="cc-scroll" role="region" aria-label="The spec's corner cases" tabIndex={0}>
      <table className="cc-table cc-spec" data-testid="spec-corner-table">
        <caption>
          {checks[0]?.title ?? 'Corner cases'} (PTX ISA), beside this engine&apos;s answers:{' '}
          {agreeing} of {checks.length} agree. Press Enter on a row to load its input.
        </caption>
        <thead>
          <tr>
            <th scope="col">input (spec)</th>
            <th scope="col">input hex</th>
            <th scope="col">spec result</th>
            <th scope="col">engine hex</th>
            <th scope="col">engine value</th>
            <th scope="col">agrees</th>
          </tr>
        </thead>
        <tbody>
          {checks.map((c) => (
            <tr
              key={`${c.title}:${c.input}`}
              className={`cc-row${c.agrees ? '' : ' cc-row-disagree'}`}
              tabIndex={0}
              data-testid="spec-corner-row"
              onClick={() => onLoad(register(c.inputBits))}
              onKeyDown={(e) => {
                if (e.key !== 'Enter' && e.key !== ' ') return;
                e.preventDefault();
                onLoad(register(c.inputBits));
              }}
            >
              <td>{c.input}</td>
              <td>
                <code>{formatBits(c.inputBits, 16)}</code>
              </td>
              <td>{c.expected}</td>
              <td>
                <code>{formatBits(c.engineBits, 16)}</code>
              </td>
              <td>{c.engineValue}</td>
              <td data-testid="spec-agrees" className={c.agrees ? 'cc-ok' : 'cc-bad'}>
                {c.agrees ? '✓ yes' : '✗ no'}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
