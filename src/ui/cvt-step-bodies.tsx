import type { ReactNode } from 'react';
import type { ElementFormatName } from '../catalog/index.ts';
import {
  exactValueOfElement,
  formatInfo,
  readableDecimal,
  type CvtRoundStep,
  type ElementView,
  type Step,
} from '../engine/index.ts';
import type { CvtStep } from '../engine/cvt-trace.ts';
import { NumberLineDrawing } from './NumberLine.tsx';
import { Term } from './Term.tsx';

/** A step of one cvt kind (the union narrowed by its `kind`). */
type CvtStepOf<K extends CvtStep['kind']> = Step & { readonly kind: K };

const range = (r: { hi: number; lo: number }) =>
  r.hi === r.lo ? `[${r.hi}]` : `[${r.hi}:${r.lo}]`;

/** A decimal as it reads: itself when short, else its first digits ("…" and the exponent). */
function Decimal({ text }: { text: string }) {
  const r = readableDecimal(text);
  return r.shortened ? (
    <span className="mono" title={text}>
      {r.text}
    </span>
  ) : (
    <span className="mono">{text}</span>
  );
}

/** An element value: its bits, its value, and its class where that says more. */
function Val({ e }: { e: ElementView }) {
  return (
    <>
      <code>{e.bits}</code> = <Decimal text={e.value.decimal} /> (.{e.format}
      {e.class === 'subnormal' ? ', subnormal' : ''})
    </>
  );
}

/** A destination pattern (hex) with its value. */
function Pattern({ bits, format }: { bits: string; format: ElementFormatName }) {
  return (
    <>
      <code>{bits}</code> = <Decimal text={exactValueOfElement(BigInt(bits), format).decimal} />
    </>
  );
}

function binary(hex: string, width: number): string {
  return BigInt(hex).toString(2).padStart(width, '0');
}

/** MAX_NORM of a format, as "448 (0x7E)". */
function maxNorm(format: ElementFormatName): ReactNode {
  const m = formatInfo(format).maxNorm;
  return (
    <>
      <Term id="max-norm" /> <Decimal text={m.value} /> (<code>{m.bits}</code>)
    </>
  );
}

const MODE_WORDS: Record<CvtRoundStep['mode'], string> = {
  rn: 'to nearest, ties to even',
  rna: 'to nearest, ties away from zero',
  rz: 'toward zero',
  rm: 'toward −∞',
  rp: 'toward +∞',
  rs: 'stochastic: toward or away from zero by the random bits',
  rni: 'to the nearest integer, ties to even',
  rzi: 'to an integer toward zero',
  rmi: 'to an integer toward −∞',
  rpi: 'to an integer toward +∞',
};

const REASON_WORDS: Record<CvtRoundStep['reason'], string> = {
  exact: 'the value is representable: nothing to round',
  'below-half': 'the dropped part is below half an ulp: toward zero',
  'above-half': 'the dropped part is above half an ulp: away from zero',
  'tie-to-even': 'exactly half an ulp, a tie: to the even neighbour',
  'tie-away': 'half an ulp or more (guard bit 1): away from zero',
  'toward-zero': 'the dropped bits are cut off',
  'toward-plus-inf': 'toward +∞',
  'toward-minus-inf': 'toward −∞',
  'random-carry': 'the addition carried out: away from zero',
  'random-no-carry': 'no carry out: toward zero',
  'overflow-threshold':
    '|exact| is at least MAX_NORM plus half an ulp, where rounding to nearest goes past MAX_NORM',
};

/** The cut of the significand: kept bits, then guard, round and sticky, as the arithmetic shows it. */
function Cut({ step }: { step: CvtStepOf<'cvt-round'> }) {
  const cut = step.cut!;
  return (
    <p
      className="mono grs"
      data-testid="cvt-grs"
      aria-label={`kept bits ${cut.kept}, guard ${cut.guard}, round ${cut.round}, sticky ${cut.sticky}`}
    >
      <span className="kept">{cut.kept}</span>
      <span className="g" title="guard bit">
        {cut.guard}
      </span>
      <span className="r" title="round bit">
        {cut.round}
      </span>
      <span className="s" title="sticky bit (OR of all lower bits)">
        {cut.sticky}
      </span>{' '}
      <span className="grs-legend">
        kept | <Term id="grs">G R S</Term> (ulp = 2^{cut.ulpExponent})
      </span>
    </p>
  );
}

/** .rs: the random bits added to the most significant discarded bits, column by column. */
function RandomSum({ random }: { random: NonNullable<CvtRoundStep['random']> }) {
  const k = random.bits.length;
  const cells = (bits: string, lead: string) => [lead, ...bits.split('')];
  const rows: [string, string[]][] = [
    ['discarded', cells(random.discarded, '')],
    ['+ rbits', cells(random.bits, '')],
    ['= sum', random.sum.split('')],
  ];
  return (
    <div className="cvt-rs" data-testid="cvt-rs-sum">
      <table className="cvt-rs-sum mono" aria-label="The random bits added to the discarded bits">
        <tbody>
          {rows.map(([label, bits]) => (
            <tr key={label}>
              <th scope="row">{label}</th>
              {bits.map((b, i) => (
                <td key={i} className={label === '= sum' && i === 0 ? 'carry' : undefined}>
                  {b}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      <p>
        Carry out = <strong>{random.carry}</strong>:{' '}
        {random.carry ? 'round away from zero' : 'round toward zero'}.{' '}
        <span className="muted">
          {random.discardedCount > k
            ? `${random.discardedCount} bits are dropped in all; the ${k} random bits are added to the top ${k} of them.`
            : random.discardedCount < k
              ? `Only ${random.discardedCount} bits are dropped; the random bits are added to them and the zeros below.`
              : `${k} bits are dropped, and ${k} random bits are added to them.`}
        </span>
      </p>
    </div>
  );
}

/** Where the exact value lies between the two neighbours, and which one it took. */
function CvtNumberLine({ step }: { step: CvtStepOf<'cvt-round'> }) {
  if (step.lower === null || step.upper === null || step.lower === step.upper) return null;
  const valueOf = (bits: string) => Number(exactValueOfElement(BigInt(bits), step.format).decimal);
  const lo = valueOf(step.lower);
  const hi = valueOf(step.upper);
  const exact = Number(step.exact.decimal);
  if (!Number.isFinite(lo) || !Number.isFinite(hi) || !(hi > lo)) return null;
  const label = (bits: string) =>
    readableDecimal(exactValueOfElement(BigInt(bits), step.format).decimal).text;
  return (
    <NumberLineDrawing
      lo={lo}
      hi={hi}
      exact={exact}
      took={step.result === step.lower ? 'lower' : step.result === step.upper ? 'upper' : null}
      lowerLabel={label(step.lower)}
      upperLabel={label(step.upper)}
      description={`Number line: the exact value ${step.exact.decimal} lies between ${label(step.lower)} and ${label(step.upper)}; it rounded to ${step.result ? label(step.result) : 'past MAX_NORM'}.`}
    />
  );
}

/** Where a slot's padding lies: above a 6-bit value, below .tf32's 19 bits. */
function paddingRange(slot: { hi: number; lo: number }, value: { hi: number; lo: number }) {
  return range(
    value.hi < slot.hi ? { hi: slot.hi, lo: value.hi + 1 } : { hi: value.lo - 1, lo: slot.lo },
  );
}

/** How each cvt step reads in the trace (PTX ISA 9.7.9.21). */
export const CVT_STEP_BODIES: {
  readonly [K in CvtStep['kind']]: (step: CvtStepOf<K>) => ReactNode;
} = {
  'cvt-source': (step) => {
    const width = step.slot.hi - step.slot.lo - (step.valueBits.hi - step.valueBits.lo);
    return (
      <div>
        <p>
          <strong>Source</strong> {step.operand}
          {range(step.valueBits)}: <Val e={step.input} />
        </p>
        {step.padding !== null && (
          <p className="cvt-padding" data-testid="cvt-source-padding">
            Bits {step.operand}
            {paddingRange(step.slot, step.valueBits)} are padding:{' '}
            <code>0b{binary(step.padding, width)}</code>
            {BigInt(step.padding) === 0n
              ? '.'
              : ' — not zero, and ignored: only the value bits are converted.'}
          </p>
        )}
      </div>
    );
  },
  'cvt-flush-input': (step) => (
    <p>
      <strong>
        <Term id="ftz">.ftz</Term>
      </strong>
      : the .f32 input <Val e={step.before} /> is <Term id="subnormal" />, so it becomes a zero of
      its sign, <Val e={step.after} />.
    </p>
  ),
  'cvt-special': (step) => (
    <p>
      <strong>
        {step.case === 'nan' ? 'NaN input' : step.case === 'infinity' ? 'Infinite input' : 'Zero'}
      </strong>
      :{' '}
      {step.case === 'nan' ? (
        step.result ? (
          <>
            the result is NaN: <Val e={step.result} />, the format&apos;s{' '}
            <Term id="canonical-nan" />.
          </>
        ) : (
          'the destination format has no NaN: .satfinite decides (below).'
        )
      ) : step.case === 'infinity' ? (
        step.result ? (
          <>
            an infinity stays one: <Val e={step.result} />.
          </>
        ) : (
          <>
            the destination format has no infinity: the input lies past its <Term id="max-norm" />,
            which .satfinite decides (below).
          </>
        )
      ) : (
        step.result && (
          <>
            a zero converts to a zero of the same sign, <Val e={step.result} />.
          </>
        )
      )}
    </p>
  ),
  'cvt-exact': (step) => (
    <p>
      <strong>Exact value</strong> of the input: <span className="mono">{step.value.binary}</span>
      {step.value.decimal !== step.value.binary && (
        <>
          {' '}
          = <Decimal text={step.value.decimal} />
        </>
      )}{' '}
      —{' '}
      {step.representable
        ? 'one of the destination format’s values: no rounding is needed.'
        : 'not a value of the destination format: it is rounded.'}
    </p>
  ),
  'cvt-round': (step) => (
    <div>
      <p>
        <strong>
          Round to .{step.format} with{' '}
          {step.mode === 'rs' ? <Term id="rs">.rs</Term> : `.${step.mode}`}
        </strong>{' '}
        ({MODE_WORDS[step.mode]})
      </p>
      {step.cut ? (
        <Cut step={step} />
      ) : (
        <p className="beyond-range">
          The exact value is past .{step.format}&apos;s exponent range, so there are no kept bits to
          show: it lies beyond {maxNorm(step.format)}.
        </p>
      )}
      {step.random && <RandomSum random={step.random} />}
      <p data-testid="cvt-round-outcome">
        {step.lower !== null && step.upper !== null && step.lower !== step.upper && (
          <>
            Between <Pattern bits={step.lower} format={step.format} /> and{' '}
            <Pattern bits={step.upper} format={step.format} />:{' '}
          </>
        )}
        {REASON_WORDS[step.reason]}
        {step.direction !== 'exact' ? ` (${step.direction === 'up' ? 'up' : 'down'})` : ''} →{' '}
        {step.result !== null ? (
          <Pattern bits={step.result} format={step.format} />
        ) : (
          <>past {maxNorm(step.format)}: the next step says what it becomes</>
        )}
        {step.subnormal ? (
          <>
            , a <Term id="subnormal" />
          </>
        ) : null}
        .
      </p>
      <CvtNumberLine step={step} />
    </div>
  ),
  'cvt-overflow': (step) => (
    <p>
      <strong>Overflow</strong>: the rounded value lies past .{step.format}&apos;s{' '}
      {maxNorm(step.format)}; without .satfinite it becomes{' '}
      {step.to === 'infinity'
        ? 'infinity (the rounding went away from zero)'
        : step.to === 'max-norm'
          ? 'MAX_NORM (the rounding goes toward zero)'
          : `NaN (.${step.format} has no infinity)`}
      : <Val e={step.result} />.
    </p>
  ),
  'cvt-unsigned': (step) =>
    step.what === 'drop-sign' ? (
      <p>
        <strong>ue8m0 has no sign</strong>: the magnitude of the input is converted.
      </p>
    ) : (
      <p>
        <strong>ue8m0 has no zero</strong>: the result is its least value 2^-127,{' '}
        {step.result && <Val e={step.result} />}.
      </p>
    ),
  'cvt-flush-result': (step) => {
    const after = step.tininess === 'after-rounding';
    const tiny = after ? step.tinyAfterRounding : step.tinyBeforeRounding;
    const other = after ? step.tinyBeforeRounding : step.tinyAfterRounding;
    return (
      <p>
        <strong>
          <Term id="ftz">.ftz</Term>
        </strong>
        : the .f32 result <Val e={step.before} /> is {tiny ? 'tiny' : 'not tiny'} with tininess
        judged {after ? 'after' : 'before'} rounding ({after ? 'before' : 'after'} rounding it is{' '}
        {other ? 'tiny' : 'not tiny'}) →{' '}
        {step.before.bits === step.after.bits ? (
          'kept'
        ) : (
          <>
            flushed to <Val e={step.after} />
          </>
        )}
        .
      </p>
    );
  },
  'cvt-satfinite': (step) => (
    <p>
      <strong>
        <Term id="satfinite">.satfinite</Term>
      </strong>
      :{' '}
      {step.case === 'nan' ? (
        step.before ? (
          <>
            NaN stays NaN: <Val e={step.after} />.
          </>
        ) : (
          <>
            NaN, which .{step.after.format} cannot hold, becomes +MAX_NORM: <Val e={step.after} />.
          </>
        )
      ) : step.case === 'beyond-max-norm' ? (
        <>
          past MAX_NORM, clamped to {step.after.value.negative ? '−' : '+'}
          <Term id="max-norm" />: <Val e={step.after} />.
        </>
      ) : (
        <>{step.before && <Val e={step.before} />} is within ±MAX_NORM: unchanged.</>
      )}
    </p>
  ),
  'cvt-sat': (step) => (
    <p>
      <strong>
        <Term id="sat">.sat</Term>
      </strong>{' '}
      clamps to [0.0, 1.0] (NaN → +0): <Val e={step.before} />
      {step.before.bits === step.after.bits ? (
        ' — unchanged.'
      ) : (
        <>
          {' '}
          → <Val e={step.after} />.
        </>
      )}
    </p>
  ),
  'cvt-relu': (step) => (
    <p>
      <strong>
        <Term id="relu">.relu</Term>
      </strong>{' '}
      (negative → +0, NaN → canonical NaN): <Val e={step.before} />
      {step.before.bits === step.after.bits ? (
        ' — unchanged.'
      ) : (
        <>
          {' '}
          → <Val e={step.after} />.
        </>
      )}
    </p>
  ),
  'cvt-pack': (step) => {
    const width = step.slot.hi - step.slot.lo + 1;
    const padded = step.valueBits.hi !== step.slot.hi || step.valueBits.lo !== step.slot.lo;
    return (
      <p>
        <strong>Write d{range(step.slot)}</strong> = <code>{step.slotBitsHex}</code>
        {padded ? (
          <>
            {' '}
            (<span className="mono">{binary(step.slotBitsHex, width)}</span>: the value{' '}
            <Val e={step.result} /> in d{range(step.valueBits)}, zeros in d
            {paddingRange(step.slot, step.valueBits)})
          </>
        ) : (
          <>
            : <Val e={step.result} />
          </>
        )}
        .
      </p>
    );
  },
};
