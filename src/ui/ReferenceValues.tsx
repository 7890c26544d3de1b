import { useMemo } from 'react';
import type { EvalResult } from '../engine/steps.ts';
import { referenceValues } from '../engine/what-if/reference-values.ts';
import { exactText } from '../present/numbers.ts';
import { ownErrorText } from '../present/reference-text.ts';
import { elementWord } from '../present/element-word.ts';
import { valueText } from '../present/values.ts';
import { findForm } from '../catalog/all-forms.ts';
import { Term } from './Term.tsx';

/**
 * Beside a result, per element: the exact value of the operation on the inputs as the
 * instruction reads them, what IEEE binary32 and binary64 arithmetic round it to (what f32 or
 * f64 code would give), and how far the result is from the exact value
 * (engine/what-if/reference-values.ts, in the words of src/present).
 */
export function ReferenceValues({ result, testId }: { result: EvalResult; testId: string }) {
  const reference = useMemo(() => referenceValues(result), [result]);
  const word = elementWord(findForm(result.form)!);
  const several = reference.length > 1;
  return (
    <div className="reference" data-testid={testId}>
      {reference.map((r) => (
        <dl key={r.index} className="readout" data-testid={`${testId}-lane${r.index}`}>
          <div>
            <dt>
              {several ? `${word} ${r.index}: ` : ''}
              {r.approximate ? 'exact function value (to 17 significant digits)' : 'exact result'}
            </dt>
            <dd className="mono exact" data-testid={`${testId}-exact${r.index}`}>
              {exactText(r.exact)}
            </dd>
          </div>
          <div>
            <dt>binary32 (f32) arithmetic gives</dt>
            <dd className="mono" data-testid={`${testId}-f32-${r.index}`}>
              {valueText(r.f32)} <span className="muted pattern">{r.f32.bits}</span>
            </dd>
          </div>
          <div className="f64-reference">
            <dt>binary64 (f64) arithmetic gives</dt>
            <dd className="mono" data-testid={`${testId}-f64-${r.index}`}>
              {valueText(r.f64)} <span className="muted pattern">{r.f64.bits}</span>
            </dd>
          </div>
          <div>
            <dt>
              error of d (in <Term id="ulp">ulps</Term> of d)
            </dt>
            <dd data-testid={`${testId}-error${r.index}`}>{ownErrorText(r.error)}</dd>
          </div>
        </dl>
      ))}
    </div>
  );
}
