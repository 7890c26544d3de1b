import type { ReactNode } from 'react';
import { Term } from './Term.tsx';

/** What a readout shows of one value (an arithmetic lane, a cvt element). */
export interface ReadoutValues {
  readonly exact: string;
  readonly shortest: string;
  readonly exponentText: string;
  readonly significand: string | null;
  readonly ulp: string | null;
}

type ReadoutRow = 'class' | 'exact' | 'shortest' | 'exponent' | 'ulp';

/**
 * A value's readout: its class, exact value, shortest decimal, exponent with its bias,
 * significand and ulp. `testIdOf` names the rows that carry a test id.
 */
export function Readout({
  classText,
  values: r,
  testIdOf,
}: {
  classText: ReactNode;
  values: ReadoutValues;
  testIdOf: (row: ReadoutRow) => string | undefined;
}) {
  return (
    <dl className="readout">
      <div>
        <dt>class</dt>
        <dd data-testid={testIdOf('class')}>{classText}</dd>
      </div>
      <div>
        <dt>exact value</dt>
        <dd className="mono exact" data-testid={testIdOf('exact')}>
          {r.exact}
        </dd>
      </div>
      <div>
        <dt>shortest decimal giving these bits</dt>
        <dd className="mono" data-testid={testIdOf('shortest')}>
          {r.shortest}
        </dd>
      </div>
      <div>
        <dt>
          exponent (<Term id="bias">bias</Term>)
        </dt>
        <dd className="mono" data-testid={testIdOf('exponent')}>
          {r.exponentText}
        </dd>
      </div>
      <div>
        <dt>significand</dt>
        <dd className="mono">{r.significand ?? '—'}</dd>
      </div>
      <div>
        <dt>
          <Term id="ulp">ulp</Term> here
        </dt>
        <dd className="mono" data-testid={testIdOf('ulp')}>
          {r.ulp ?? '—'}
        </dd>
      </div>
    </dl>
  );
}
