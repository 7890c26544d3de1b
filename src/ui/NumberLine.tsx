import { FORMATS, shortestDecimal, toDouble, type RoundStep } from '../engine/index.ts';

/**
 * The exact value between its two representable neighbours, and the one it rounded to. Positions
 * are linear between the neighbours; the midpoint (the tie) is drawn as a tick.
 */
export function NumberLine({ step }: { step: RoundStep }) {
  const f = FORMATS[step.format];
  const lo = toDouble(step.lower, f);
  const hi = toDouble(step.upper, f);
  const exact = Number(step.exact.decimal);
  if (!Number.isFinite(lo) || !Number.isFinite(hi) || lo === hi) return null;
  const W = 360;
  const L = 30;
  const R = W - 30;
  const x = (val: number) => L + ((val - lo) / (hi - lo)) * (R - L);
  const ex = Math.max(L, Math.min(R, x(exact)));
  const chosenX = step.result === step.lower ? L : step.result === step.upper ? R : null;
  const label = `Number line: the exact value ${step.exact.decimal} lies between ${shortestDecimal(step.lower, f)} and ${shortestDecimal(
    step.upper,
    f,
  )}; it rounded to ${shortestDecimal(step.result, f)}.`;
  return (
    <svg className="numberline" viewBox={`0 0 ${W} 64`} role="img" aria-label={label}>
      <line x1={L} x2={R} y1={32} y2={32} className="axis" />
      <line x1={(L + R) / 2} x2={(L + R) / 2} y1={26} y2={38} className="mid" />
      <circle cx={L} cy={32} r={5} className={chosenX === L ? 'chosen' : 'neighbour'} />
      <circle cx={R} cy={32} r={5} className={chosenX === R ? 'chosen' : 'neighbour'} />
      <path d={`M ${ex} 20 l -5 -8 h 10 z`} className="exact-mark" />
      <text x={L} y={56} textAnchor="start">
        {shortestDecimal(step.lower, f)}
      </text>
      <text x={R} y={56} textAnchor="end">
        {shortestDecimal(step.upper, f)}
      </text>
      <text x={Math.min(Math.max(ex, L + 20), R - 20)} y={10} textAnchor="middle">
        exact
      </text>
      {chosenX !== null && (
        <path
          d={`M ${ex} 24 Q ${(ex + chosenX) / 2} 44 ${chosenX} 36`}
          className="arrow"
          fill="none"
        />
      )}
    </svg>
  );
}
