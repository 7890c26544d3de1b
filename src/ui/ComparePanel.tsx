import { CompareFrame } from './CompareFrame.tsx';
import { useState, type ReactNode } from 'react';
import { FORMATS } from '../engine/index.ts';
import type { Comparison, VariantSide } from '../engine/what-if/compare.ts';
import {
  carriedText,
  exactBitsText,
  exactText,
  lanesOf,
  verdictText,
} from '../engine/what-if/describe.ts';
import { useForm, useStore } from '../state/store.ts';
import { formatBits } from '../state/url-codec.ts';
import { CompareBits } from './CompareBits.tsx';
import { ErrorText, ReferenceValues } from './ReferenceValues.tsx';
import { ApproxNote } from './ResultSummary.tsx';
import { Steps } from './Steps.tsx';
import './compare.css';

type Shown = Exclude<VariantSide, { kind: 'refused' }>;

/**
 * A beside B on the same operand values: what happened to each in a sentence, both registers
 * with the differing bits marked, both values, the difference in ulps of each destination
 * format, each one's error against the exact result, what carrying the operands did, for the
 * unfused sequence its PTX, its intermediate product and why it differs, and B's steps on
 * demand.
 */
export function ComparePanel() {
  const form = useForm();
  const vs = useStore((s) => s.vs);
  const comparison = useStore((s) => s.comparison);
  if (vs === null) return null;
  const current = comparison && comparison.a.label === form.text ? comparison : null;
  return (
    <CompareFrame aText={form.text}>{current ? <CompareBody c={current} /> : null}</CompareFrame>
  );
}

function CompareBody({ c }: { c: Comparison }) {
  const { a, b } = c;
  if (b.kind === 'refused')
    return (
      <p className="note" data-testid="compare-refused">
        {b.reason}.
      </p>
    );
  return (
    <>
      <p className={`compare-verdict ${c.same ? 'same' : 'differs'}`} data-testid="compare-verdict">
        {verdictText(c)}
      </p>
      {b.kind === 'unfused' && b.why && (
        <p className="compare-why" data-testid="compare-why">
          Why: {b.why}.
        </p>
      )}
      <CompareBits
        a={{ label: 'A', d: a.d, bits: a.dBits, format: a.dFormat }}
        b={{ label: 'B', d: b.d, bits: b.dBits, format: b.dFormat }}
        xor={c.differingBits}
      />
      <div className="compare-table-wrap">
        <table className="compare-table">
          <thead>
            <tr>
              <td />
              <th scope="col">
                A <code>{a.label}</code>
              </th>
              <th scope="col">
                B <code>{b.label}</code>
              </th>
            </tr>
          </thead>
          <tbody>
            <Row head="what happened">
              <span data-testid="compare-summary-a">{a.summary}</span>
              <span data-testid="compare-summary">{b.summary}</span>
            </Row>
            <Row head="d">
              <code data-testid="compare-a-bits">{formatBits(a.d, a.dBits)}</code>
              <code data-testid="compare-result-bits">{formatBits(b.d, b.dBits)}</code>
            </Row>
            <Row head="value">
              <Lanes
                values={lanesOf(a.d, a.dBits, a.dFormat).map((x) => exactBitsText(x, a.dFormat))}
              />
              <Lanes
                values={lanesOf(b.d, b.dBits, b.dFormat).map((x) => exactBitsText(x, b.dFormat))}
              />
            </Row>
            <Row head="exact result">
              <Lanes values={a.reference.map((r) => exactText(r.exact))} />
              <BExact c={c} b={b} />
            </Row>
            <Row head="error against A’s exact result">
              <Lanes
                values={a.reference.map((r) => (
                  <ErrorText key={r.lane} error={r.error} />
                ))}
              />
              <BError c={c} b={b} />
            </Row>
          </tbody>
        </table>
      </div>
      {a.result && <ApproxNote result={a.result} testId="compare-approx-a" />}
      {b.result && b.kind === 'form' && <ApproxNote result={b.result} testId="compare-approx-b" />}
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

function Lanes({ values }: { values: readonly ReactNode[] }) {
  if (values.length === 1) return <span className="mono exact">{values[0]}</span>;
  return (
    <ul className="lane-values">
      {values.map((v, i) => (
        <li key={i}>
          lane {i}: <span className="mono exact">{v}</span>
        </li>
      ))}
    </ul>
  );
}

/** B's exact value: A's where B computes the same thing on the same values, else its own. */
function BExact({ c, b }: { c: Comparison; b: Shown }) {
  const own = b.reference.map((r) => exactText(r.exact));
  const same =
    own.length === c.a.reference.length &&
    own.every((t, i) => t === exactText(c.a.reference[i]!.exact));
  if (same) return <span className="muted">the same</span>;
  return (
    <>
      <Lanes values={own} />
      <span className="muted"> (B’s own: its operation on the operands as carried)</span>
    </>
  );
}

/** How far B lands from A's exact result (B's own error where B computes another operation). */
function BError({ c, b }: { c: Comparison; b: Shown }) {
  if (b.kind === 'unfused' || b.form.opcode === c.a.form.opcode)
    return (
      <Lanes
        values={c.lanes.map((l) => (
          <ErrorText key={l.lane} error={l.bAgainstExactA} />
        ))}
      />
    );
  return (
    <>
      <Lanes
        values={b.reference.map((r) => (
          <ErrorText key={r.lane} error={r.error} />
        ))}
      />
      <span className="muted"> (against B’s own exact result: another operation)</span>
    </>
  );
}

/** What carrying the operands into B's formats did, where it did anything. */
function Carried({ b }: { b: Extract<Shown, { kind: 'form' }> }) {
  const changed = b.carried.lanes.filter((l) => l.how !== 'same');
  const lanesOfOperand = (name: string) => b.form.operands.find((o) => o.name === name)?.lanes ?? 1;
  return (
    <div className="carried" data-testid="compare-carried">
      <h3>Operands carried into B</h3>
      {changed.length === 0 ? (
        <p className="muted">Every operand is carried with the same bits.</p>
      ) : (
        <ul>
          {changed.map((l) => (
            <li key={`${l.operand}${l.lane}`}>{carriedText(l, lanesOfOperand(l.operand))}</li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** The unfused sequence: its PTX and the rounded product t it keeps between the two. */
function Unfused({ b }: { b: Extract<Shown, { kind: 'unfused' }> }) {
  const { lines, product } = b.unfused;
  const f = FORMATS[product.format];
  const lanes = lanesOf(product.bits, f.width === 32 ? 32 : b.dBits, product.format);
  return (
    <div className="unfused" data-testid="compare-unfused">
      <h3>The sequence B stands for</h3>
      <pre className="mono" data-testid="unfused-lines">
        {lines.join('\n')}
      </pre>
      <p data-testid="unfused-product">
        The intermediate t = a × b rounded to {product.format}:{' '}
        <code>{formatBits(product.bits, f.width === 32 ? 32 : b.dBits)}</code> ={' '}
        {lanes.map((x) => exactBitsText(x, product.format)).join(', ')}
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
      {open && b.kind === 'form' && b.result && (
        <>
          <ReferenceValues reference={b.reference} testId="compare-reference-b" />
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
          <pre className="mono">{b.unfused.lines.join('\n')}</pre>
          {b.unfused.traces ? (
            <>
              <h4>
                <code>{b.unfused.lines[0]}</code>
              </h4>
              <Steps
                result={b.unfused.traces.mul}
                label="How the product t was computed"
                testId="compare-steps-mul"
                anchors="mul-decision-"
              />
              <h4>
                <code>{b.unfused.lines[1]}</code>
              </h4>
              <Steps
                result={b.unfused.traces.add}
                label="How d = t + c was computed"
                testId="compare-steps-add"
                anchors="add-decision-"
              />
            </>
          ) : (
            <p className="muted" data-testid="compare-steps-f32">
              These are binary32 instructions: a and b convert to f32 exactly, the product rounds
              once to f32 ({b.unfused.lines[2]}), and the sum rounds once more ({b.unfused.lines[3]}
              ), each by the IEEE 754 rules of the fma’s own rounding.
            </p>
          )}
        </>
      )}
    </details>
  );
}
