// CornerCases — owned by the corner-case helper; the UI helper leaves this file alone.
import { useEffect, useMemo, useState } from 'react';
import type { Form } from '../catalog/index.ts';
import { engineClient as engine } from '../state/worker-client.ts';
import { useForm, useStore } from '../state/store.ts';
import { formatBits } from '../state/url-codec.ts';
import type { CornerTable, SpecCornerCheck } from '../worker/api.ts';
import { CornerCaseTable } from './CornerCaseTable.tsx';
import { caseRows, inputKeys, type CaseRow } from './corner-rows.ts';
import './corner-cases.css';

/** The engine's table over every special-value case takes a few ms; allow for a slow machine. */
const TABLE_TIMEOUT_MS = 10_000;

type Loaded<T> = { form: string; value: T } | { form: string; error: string };

/**
 * The current form over the special values, computed by the engine in the worker; for tanh and
 * ex2 also the spec's own corner-case table beside the engine's answers.
 */
export default function CornerCases() {
  const form = useForm();
  const operands = useStore((s) => s.operands);
  const loadCase = useStore((s) => s.loadCase);
  const table = useWorkerAnswer<CornerTable>('corner-table', form.text, (api) =>
    api.cornerTable(form.text),
  );
  const spec = useWorkerAnswer<readonly SpecCornerCheck[]>('spec-corners', form.text, (api) =>
    api.specCornerChecks(form.text),
  );
  const keys = useMemo(() => inputKeys(form), [form]);
  const rows = useMemo(
    () => (table && 'value' in table ? caseRows(form, table.value) : null),
    [form, table],
  );

  return (
    <div className="corner-cases" data-testid="corner-cases">
      <h3>Corner cases</h3>
      {spec && 'value' in spec && spec.value.length > 0 && (
        <SpecTable form={form} checks={spec.value} onLoad={(a) => loadCase({ a })} />
      )}
      {table && 'error' in table ? (
        <p className="error" role="alert">
          The engine could not compute the table: {table.error}
        </p>
      ) : rows ? (
        <CornerCaseTable
          key={form.text}
          formText={form.text}
          keys={keys}
          lanes={form.operands[0]!.lanes}
          rows={rows}
          current={operands}
          onLoad={(row: CaseRow) => loadCase(row.regs)}
        />
      ) : (
        <p className="muted" role="status">
          Computing the table…
        </p>
      )}
    </div>
  );
}

type AsyncApi = Parameters<Parameters<typeof engine.request>[1]>[0];

/** Ask the worker once per form; an answer for an older form is never shown. */
function useWorkerAnswer<T>(
  channel: string,
  formText: string,
  call: (api: AsyncApi) => Promise<unknown>,
): Loaded<T> | null {
  const [answer, setAnswer] = useState<Loaded<T> | null>(null);
  useEffect(() => {
    let live = true;
    void engine.request(channel, call, TABLE_TIMEOUT_MS).then((a) => {
      if (!live || a.status === 'superseded') return;
      setAnswer(
        a.status === 'ok'
          ? { form: formText, value: a.value as T }
          : { form: formText, error: a.message },
      );
    });
    return () => {
      live = false;
    };
    // The call depends only on the form text.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [channel, formText]);
  return answer && answer.form === formText ? answer : null;
}

/** The spec's corner-case table for tanh/ex2, each line beside the engine's answer. */
function SpecTable(props: {
  form: Form;
  checks: readonly SpecCornerCheck[];
  onLoad: (a: number) => void;
}) {
  const { form, checks, onLoad } = props;
  const a = form.operands.find((o) => o.name === 'a')!;
  const register = (bits: number) => (a.lanes === 2 ? ((bits << 16) | bits) >>> 0 : bits);
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
