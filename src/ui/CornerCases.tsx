import { useMemo } from 'react';
import type { Form, SourceName } from '../catalog/instruction.ts';
import type { SpecCornerCheck } from '../engine/analysis/index.ts';
import { outcomeWords } from '../present/analysis-words.ts';
import { valueText } from '../present/values.ts';
import { elementWord } from '../present/element-word.ts';
import { registersOfHex } from '../worker/evaluate-requests.ts';
import { useStore } from '../state/store.ts';
import { useForm } from '../state/form.ts';
import { useWorkerRequest } from '../state/use-worker-request.ts';
import { CornerCaseTable } from './CornerCaseTable.tsx';
import { caseRows, inputKeys, type CaseRow } from './corner-rows.ts';
import { CornerCasesFrame } from './CornerCasesFrame.tsx';
import { bringIntoViewOnNarrow } from './narrow.ts';
import './corner-cases.css';

/** The engine's table over every case takes a few ms; allow for a slow machine. */
const TABLE_TIMEOUT_MS = 10_000;

/** What the rows are: the cases of the operation, put in every element. */
function helpOf(form: Form): string {
  const inputs = form.elements[0]!.inputs.length;
  const which =
    form.operation === 'convert'
      ? 'Each case as the source.'
      : inputs === 1
        ? 'Each special value as the input.'
        : inputs === 2
          ? 'Every pair of special values.'
          : 'Every pair of special values for a and b, with a selection of addends c.';
  const several = form.elements.length > 1;
  const every = several
    ? ` Each case is put in every ${elementWord(form)}, so every ${elementWord(form)} gives the same result; the table shows one.`
    : '';
  const rs = form.modifiers.includes('rs')
    ? ' The random bits are 0: under .rs every inexact case rounds toward zero (load a row and edit rbits to see the other way).'
    : '';
  return `${which}${every}${rs}`;
}

/**
 * The current form over its corner cases, computed by the engine in the worker, each case
 * marked by what happened; for tanh and ex2 also the spec's own corner-case table beside the
 * engine's answers. A row loads its case into every element of the editors.
 */
export default function CornerCases() {
  const form = useForm();
  const registers = useStore((s) => s.registers);
  const loadRegisters = useStore((s) => s.loadRegisters);
  // A tensor core's cases are its target's model's.
  const target = useStore((s) => s.target);
  const on = form.matrix ? target : undefined;
  const table = useWorkerRequest(
    'corner-table',
    on ? `${form.text}@${on}` : form.text,
    (api) => api.cornerTable(form.text, on),
    { timeoutMs: TABLE_TIMEOUT_MS },
  ).answer;
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
  const element = form.elements[0]!;
  const titles = useMemo(
    () => ({
      ...Object.fromEntries(element.inputs.map((p) => [p.operand, `${p.operand} (.${p.format})`])),
      d: `d = result (.${element.dest.format})`,
    }),
    [element],
  );
  const load = (hex: Readonly<Partial<Record<SourceName, string>>>) =>
    loadRegisters(registersOfHex(hex));
  const isCurrent = (row: CaseRow) =>
    Object.entries(row.registers).every(
      ([name, hex]) => registers[name as SourceName] === BigInt(hex!),
    );

  return (
    <CornerCasesFrame
      lead={
        spec?.status === 'ok' &&
        spec.value.length > 0 && (
          <SpecTable
            checks={spec.value}
            onLoad={(check) => {
              load(check.registers);
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
          rows={rows}
          onLoad={(row) => load(row.registers)}
          isCurrent={isCurrent}
          titles={titles}
          help={helpOf(form)}
          outcomeLabels={outcomeWords(form)}
        />
      )}
    </CornerCasesFrame>
  );
}

/** The spec's corner-case table (tanh, ex2), each line beside the engine's answer. */
function SpecTable(props: {
  checks: readonly SpecCornerCheck[];
  onLoad: (check: SpecCornerCheck) => void;
}) {
  const { checks, onLoad } = props;
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
              onClick={() => onLoad(c)}
              onKeyDown={(e) => {
                if (e.key !== 'Enter' && e.key !== ' ') return;
                e.preventDefault();
                onLoad(c);
              }}
            >
              <td>{c.input}</td>
              <td>
                <code>{c.inputBits}</code>
              </td>
              <td>{c.expected}</td>
              <td>
                <code>{c.result.bits}</code>
              </td>
              <td>{valueText(c.result)}</td>
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
