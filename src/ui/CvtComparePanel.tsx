import { CompareFrame } from './CompareFrame.tsx';
import { useState } from 'react';
import type {
  CvtComparison,
  CvtElementComparison,
  CvtSideElement,
} from '../engine/what-if/cvt-compare.ts';
import {
  cvtCarriedText,
  cvtDifferenceText,
  cvtRbitsText,
  cvtVerdictText,
  elementBitGroups,
  errorText,
  maskBitCount,
  sideValueText,
} from '../engine/what-if/cvt-describe.ts';
import { exactText } from '../engine/what-if/describe.ts';
import { useCvtForm } from '../state/any-form.ts';
import { registerHex } from '../state/cvt-operands.ts';
import { useStore } from '../state/store.ts';
import { CvtSteps } from './CvtSteps.tsx';
import './compare.css';

/**
 * A cvt beside another cvt on the same source values, element by element: both results' bits
 * with the differing bits marked (where the elements have the same width), both values, each
 * one's error against the exact source value, B − A in ulps of each destination format, what
 * carrying the values into B's source format did, and B's steps on demand.
 */
export function CvtComparePanel() {
  const form = useCvtForm();
  const vs = useStore((s) => s.vs);
  const comparison = useStore((s) => s.cvtComparison);
  if (vs === null || !form) return null;
  const current = comparison && comparison.a.form.text === form.text ? comparison : null;
  return <CompareFrame aText={form.text}>{current ? <Body c={current} /> : null}</CompareFrame>;
}

function Body({ c }: { c: CvtComparison }) {
  const { a, b } = c;
  if (b.kind === 'refused')
    return (
      <p className="note" data-testid="compare-refused">
        {b.reason}.
      </p>
    );
  const rbits = cvtRbitsText(b.carried);
  return (
    <>
      <p className={`compare-verdict ${c.same ? 'same' : 'differs'}`} data-testid="compare-verdict">
        {cvtVerdictText(c)}
      </p>
      <p className="compare-registers">
        d: A{' '}
        <code data-testid="compare-a-bits">{registerHex(BigInt(a.result.d), a.result.dBits)}</code>,
        B{' '}
        <code data-testid="compare-result-bits">
          {registerHex(BigInt(b.result.d), b.result.dBits)}
        </code>
        {c.registerXor === null && (
          <span className="muted"> (registers of other types: their elements compare)</span>
        )}
      </p>
      {c.elements.map((e) => (
        <ElementComparison key={e.index} e={e} count={c.elements.length} />
      ))}
      <div className="carried" data-testid="compare-carried">
        <h3>Source values carried into B</h3>
        <ul>
          {b.carried.elements.map((e) => (
            <li key={e.element}>{cvtCarriedText(e)}</li>
          ))}
          {rbits && <li>{rbits}</li>}
        </ul>
      </div>
      <BTrace c={c} />
    </>
  );
}

function ElementComparison({ e, count }: { e: CvtElementComparison; count: number }) {
  return (
    <div className="compare-lane" data-testid={`compare-element-${e.index}`}>
      {count > 1 && <h3>Element {e.index}</h3>}
      <p className="muted">
        Source value <span className="mono">{exactText(e.source)}</span>
        {e.differingBits !== null && (
          <> · {maskBitCount(e.differingBits)} of the bits differ (marked)</>
        )}
      </p>
      <div className="compare-bits">
        <BitRow label="A" side={e.a} other={e.differingBits !== null ? e.b : null} />
        <BitRow label="B" side={e.b} other={e.differingBits !== null ? e.a : null} />
      </div>
      <div className="compare-table-wrap">
        <table className="compare-table">
          <thead>
            <tr>
              <td />
              <th scope="col">A{e.a && ` (${e.a.format})`}</th>
              <th scope="col">B{e.b && ` (${e.b.format})`}</th>
            </tr>
          </thead>
          <tbody>
            <tr>
              <th scope="row">value</th>
              <td className="mono" data-testid={`compare-a-value-${e.index}`}>
                {e.a ? sideValueText(e.a) : '—'}
              </td>
              <td className="mono" data-testid={`compare-b-value-${e.index}`}>
                {e.b ? sideValueText(e.b) : '—'}
              </td>
            </tr>
            <tr>
              <th scope="row">error against the source</th>
              <td data-testid={`compare-a-error-${e.index}`}>{errorText(e.a)}</td>
              <td data-testid={`compare-b-error-${e.index}`}>{errorText(e.b)}</td>
            </tr>
          </tbody>
        </table>
      </div>
      <p data-testid={`compare-difference-${e.index}`}>{cvtDifferenceText(e)}</p>
    </div>
  );
}

function BitRow({
  label,
  side,
  other,
}: {
  label: string;
  side: CvtSideElement | null;
  other: CvtSideElement | null;
}) {
  if (!side)
    return (
      <p className="bit-row">
        <span className="who">{label}</span>
        <span className="muted">no element here</span>
      </p>
    );
  const groups = elementBitGroups(side.bits, side.format, other?.bits ?? null);
  return (
    <p className="bit-row">
      <span className="who">{label}</span>
      <code aria-label={`${label}: ${side.format} ${side.bits}`}>
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
      <span className="muted mono">{side.bits}</span>
    </p>
  );
}

/** B's steps, rendered only when asked for. */
function BTrace({ c }: { c: CvtComparison }) {
  const [open, setOpen] = useState(false);
  if (c.b.kind !== 'form') return null;
  return (
    <details
      className="b-trace"
      data-testid="compare-trace"
      onToggle={(e) => setOpen((e.target as HTMLDetailsElement).open)}
    >
      <summary>B’s steps</summary>
      {open && <CvtSteps result={c.b.result} form={c.b.form} />}
    </details>
  );
}
