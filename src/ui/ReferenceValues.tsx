import { FORMATS, type ExactValue } from '../engine/index.ts';
import type { LaneReference } from '../engine/what-if/reference.ts';
import { doubleText, exactText, ulpsText } from '../engine/what-if/describe.ts';
import { formatBits } from '../state/url-codec.ts';
import { Term } from './Term.tsx';

/** An error ("−0.00048828125 = −0.5 ulp"), or why there is none. */
export function ErrorText({ error }: { error: LaneReference['error'] }) {
  if (!error) return <span className="muted">none to measure (a NaN or an infinity)</span>;
  return (
    <>
      <span className="mono">{signed(error.value)}</span> = {ulpsText(error.ulps)}
    </>
  );
}

function signed(value: ExactValue): string {
  const text = exactText(value);
  return text.startsWith('-') ? `−${text.slice(1)}` : text === '0' ? '0' : `+${text}`;
}

/**
 * Beside a result, per lane: the exact value of the operation on the inputs as the instruction
 * reads them, what IEEE binary32 and binary64 arithmetic round it to (what f32 or f64 code
 * would give), and how far the result is from the exact value.
 */
export function ReferenceValues({
  reference,
  testId,
}: {
  reference: readonly LaneReference[];
  testId: string;
}) {
  const lanes = reference.length;
  return (
    <div className="reference" data-testid={testId}>
      {reference.map((r) => (
        <dl key={r.lane} className="readout" data-testid={`${testId}-lane${r.lane}`}>
          <div>
            <dt>
              {lanes === 2 ? `lane ${r.lane}: ` : ''}
              {r.approximate ? 'exact function value (to a double’s precision)' : 'exact result'}
            </dt>
            <dd className="mono exact" data-testid={`${testId}-exact${r.lane}`}>
              {exactText(r.exact)}
            </dd>
          </div>
          <div>
            <dt>binary32 (f32) arithmetic gives</dt>
            <dd className="mono" data-testid={`${testId}-f32-${r.lane}`}>
              {exactText(r.f32.value)}{' '}
              <span className="muted">{formatBits(r.f32.bits, FORMATS.f32.width)}</span>
            </dd>
          </div>
          <div>
            <dt>binary64 (f64) arithmetic gives</dt>
            <dd className="mono" data-testid={`${testId}-f64-${r.lane}`}>
              {doubleText(r.f64.value)} <span className="muted">{r.f64.hex.toLowerCase()}</span>
            </dd>
          </div>
          <div>
            <dt>
              error of d (in <Term id="ulp">ulps</Term> of d)
            </dt>
            <dd data-testid={`${testId}-error${r.lane}`}>
              <ErrorText error={r.error} />
            </dd>
          </div>
        </dl>
      ))}
    </div>
  );
}
