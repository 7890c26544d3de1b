import { useState, type ReactNode } from 'react';
import type { BitsView } from '../engine/format.ts';
import type {
  Comparison,
  ComparedVariant,
  ElementComparison,
} from '../engine/what-if/comparison.ts';
import { bitCount, bitGroups } from '../present/bit-groups.ts';
import { carriedText, rbitsText } from '../present/carry-text.ts';
import {
  bErrorText,
  differenceText,
  errorText,
  refusalText,
  verdictText,
  whyText,
} from '../present/compare-text.ts';
import { exactText } from '../present/numbers.ts';
import { elementWord } from '../present/element-word.ts';
import { summaryOf, unfusedSummary } from '../present/summary.ts';
import { valueText } from '../present/values.ts';
import { useStore } from '../state/store.ts';
import { useForm } from '../state/form.ts';
import { CompareFrame } from './CompareFrame.tsx';
import { ReferenceValues } from './ReferenceValues.tsx';
import { ApproxNote } from './ResultSummary.tsx';
import { Steps } from './Steps.tsx';
import './compare.css';

type Shown = Exclude<ComparedVariant, { kind: 'refused' }>;

/**
 * A beside B on the same values (engine/what-if/comparison.ts), for every instruction alike: the
 * verdict, what happened to each in a sentence, both registers, then element by element both
 * results' bits with the differing ones marked (where the elements have the same width), both
 * values, each one's error against A's exact value and B − A — every figure in ulps of A's
 * format at A's result —, what carrying A's values into B did, for the unfused sequence its PTX,
 * its intermediate product and why it differs, and B's steps on demand.
 */
export default function ComparePanel() {
  const form = useForm();
  const vs = useStore((s) => s.vs);
  const comparison = useStore((s) => s.comparison);
  if (vs === null) return null;
  const current = comparison && comparison.a.form.text === form.text ? comparison : null;
  return (
    <CompareFrame aText={form.text}>{current ? <CompareBody c={current} /> : null}</CompareFrame>
  );
}

function CompareBody({ c }: { c: Comparison }) {
  const { a, b } = c;
  if (b.kind === 'refused')
    return (
      <p className="note" data-testid="compare-refused">
        {refusalText(b.refusal)}.
      </p>
    );
  const bRegister = b.kind === 'form' ? b.result : b.sequence;
  return (
    <>
      <p className={`compare-verdict ${c.same ? 'same' : 'differs'}`} data-testid="compare-verdict">
        {verdictText(c)}
      </p>
      {b.kind === 'unfused' && whyText(b.sequence) && (
        <p className="compare-why" data-testid="compare-why">
          Why: {whyText(b.sequence)}.
        </p>
      )}
      <div className="compare-table-wrap">
        <table className="compare-table">
          <thead>
            <tr>
              <td />
              <th scope="col">
                A <code>{a.form.text}</code>
              </th>
              <th scope="col">
                B <code>{b.kind === 'form' ? b.form.text : 'unfused'}</code>
              </th>
            </tr>
          </thead>
          <tbody>
            <Row head="what happened">
              <span data-testid="compare-summary-a">{summaryOf(a.result)}</span>
              <span data-testid="compare-summary">
                {b.kind === 'form' ? summaryOf(b.result) : unfusedSummary(b.sequence)}
              </span>
            </Row>
            <Row head="d">
              <code data-testid="compare-a-bits">{a.result.d}</code>
              <code data-testid="compare-result-bits">{bRegister.d}</code>
            </Row>
          </tbody>
        </table>
      </div>
      <CompareBits c={c} />
      <ApproxNote result={a.result} testId="compare-approx-a" />
      {b.kind === 'form' && <ApproxNote result={b.result} testId="compare-approx-b" />}
      {b.kind === 'form' && <Carried b={b} />}
      {b.kind === 'unfused' && <Unfused b={b} />}
      <BTrace b={b} />
    </>
  );
}

function Row({ head, children }: { head: string; children: [ReactNode, ReactNode] }) {
  return (
    <tr>
      <th scope="row">{head}</th>
      <td>{children[0]}</td>
      <td>{children[1]}</td>
    </tr>
  );
}

/** Both registers, element by element: bits (the differing ones marked), values and errors. */
function CompareBits({ c }: { c: Comparison }) {
  const bType =
    c.b.kind === 'form' ? c.b.result.dType : c.b.kind === 'unfused' ? c.b.sequence.dType : '';
  const xor = c.registerXor;
  return (
    <div className="compare-bits" data-testid="compare-bits">
      <p className="muted">
        {xor === null
          ? `Different registers (${c.a.result.dType} and ${bType}): their bits do not compare; their values do.`
          : BigInt(xor) === 0n
            ? 'The registers are identical.'
            : `${bitCount(xor)} of ${c.a.result.dBits} bits differ (marked).`}
      </p>
      {c.elements.map((e) => (
        <ElementComparisonView key={e.index} c={c} e={e} />
      ))}
    </div>
  );
}

function ElementComparisonView({ c, e }: { c: Comparison; e: ElementComparison }) {
  const word = elementWord(c.a.form);
  const several = c.elements.length > 1;
  return (
    <div className="compare-lane" data-testid={`compare-element-${e.index}`}>
      {several && (
        <h3>
          {word[0]!.toUpperCase()}
          {word.slice(1)} {e.index}
        </h3>
      )}
      <p className="muted">
        A&apos;s exact value <span className="mono">{exactText(e.exact)}</span>
        {e.approximate ? ' (to 17 digits)' : ''}
        {several && e.differingBits !== null && BigInt(e.differingBits) !== 0n && (
          <> · {bitCount(e.differingBits)} of the bits differ (marked)</>
        )}
      </p>
      <BitRow
        label="A"
        view={e.a.result}
        other={e.differingBits !== null ? (e.b?.result ?? null) : null}
      />
      {e.b ? (
        <BitRow label="B" view={e.b.result} other={e.differingBits !== null ? e.a.result : null} />
      ) : (
        <p className="bit-row">
          <span className="who">B</span>
          <span className="muted">no element here</span>
        </p>
      )}
      <div className="compare-table-wrap">
        <table className="compare-table">
          <thead>
            <tr>
              <td />
              <th scope="col">A ({e.a.result.format})</th>
              <th scope="col">B{e.b && ` (${e.b.result.format})`}</th>
            </tr>
          </thead>
          <tbody>
            <tr>
              <th scope="row">value</th>
              <td className="mono" data-testid={`compare-a-value-${e.index}`}>
                {valueText(e.a.result)}
              </td>
              <td className="mono" data-testid={`compare-b-value-${e.index}`}>
                {e.b ? valueText(e.b.result) : '—'}
              </td>
            </tr>
            <tr>
              <th scope="row">error against A’s exact value</th>
              <td data-testid={`compare-a-error-${e.index}`}>{errorText(e.a.error, e.unit)}</td>
              <td data-testid={`compare-b-error-${e.index}`}>{bErrorText(c, e)}</td>
            </tr>
          </tbody>
        </table>
      </div>
      <p data-testid={`compare-difference-${e.index}`}>{differenceText(e)}</p>
    </div>
  );
}

/** One element's bits by field, those that differ from the other side's marked. */
function BitRow({ label, view, other }: { label: string; view: BitsView; other: BitsView | null }) {
  const groups = bitGroups(view, other?.bits ?? null);
  return (
    <p className="bit-row">
      <span className="who">{label}</span>
      <code aria-label={`${label}: ${view.format} ${view.bits}`}>
        {groups.map((g) => (
          <span key={g.field} className={`bit-group ${g.field}`}>
            {g.bits.map((bit, i) =>
              bit.differs ? (
                <mark key={i} className="bit-diff">
                  {bit.value}
                </mark>
              ) : (
                <span key={i}>{bit.value}</span>
              ),
            )}
          </span>
        ))}
      </code>
      <span className="muted mono">{view.bits}</span>
    </p>
  );
}

/** What carrying A's values into B's formats did, input by input. */
function Carried({ b }: { b: Extract<Shown, { kind: 'form' }> }) {
  const rbits = rbitsText(b.carried);
  return (
    <div className="carried" data-testid="compare-carried">
      <h3>A&apos;s values carried into B</h3>
      <ul>
        {b.carried.inputs.map((input) => (
          <li key={`${input.element}-${input.input}`}>{carriedText(input, b.form)}</li>
        ))}
        {rbits && <li>{rbits}</li>}
      </ul>
    </div>
  );
}

/** The unfused sequence: its PTX and the rounded product t it keeps between the two. */
function Unfused({ b }: { b: Extract<Shown, { kind: 'unfused' }> }) {
  const { lines, product } = b.sequence;
  return (
    <div className="unfused" data-testid="compare-unfused">
      <h3>The sequence B stands for</h3>
      <pre className="mono" data-testid="unfused-lines">
        {lines.join('\n')}
      </pre>
      <p data-testid="unfused-product">
        The intermediate t = a × b rounded to {product.format}: <code>{product.register}</code> ={' '}
        {product.elements.map((x) => valueText(x)).join(', ')}
      </p>
    </div>
  );
}

/** B's full trace, rendered only when asked for (it is as long as A's). */
function BTrace({ b }: { b: Shown }) {
  const [open, setOpen] = useState(false);
  return (
    <details
      className="b-trace"
      data-testid="compare-trace"
      onToggle={(e) => setOpen((e.target as HTMLDetailsElement).open)}
    >
      <summary>B’s steps</summary>
      {open && b.kind === 'form' && (
        <>
          <ReferenceValues result={b.result} testId="compare-reference-b" />
          <Steps
            result={b.result}
            label="How B was computed"
            testId="compare-steps"
            anchors="b-decision-"
          />
        </>
      )}
      {open && b.kind === 'unfused' && (
        <>
          <pre className="mono">{b.sequence.lines.join('\n')}</pre>
          {b.sequence.traces ? (
            <>
              <h4>
                <code>{b.sequence.lines[0]}</code>
              </h4>
              <Steps
                result={b.sequence.traces.mul}
                label="How the product t was computed"
                testId="compare-steps-mul"
                anchors="mul-decision-"
              />
              <h4>
                <code>{b.sequence.lines[1]}</code>
              </h4>
              <Steps
                result={b.sequence.traces.add}
                label="How d = t + c was computed"
                testId="compare-steps-add"
                anchors="add-decision-"
              />
            </>
          ) : (
            <p className="muted" data-testid="compare-steps-f32">
              These are binary32 instructions: a and b convert to f32 exactly, the product rounds
              once to f32 ({b.sequence.lines[2]}), and the sum rounds once more (
              {b.sequence.lines[3]}), each by the IEEE 754 rules of the fma’s own rounding:{' '}
              {unfusedSummary(b.sequence)}.
            </p>
          )}
        </>
      )}
    </details>
  );
}
