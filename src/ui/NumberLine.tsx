import { FORMATS, toDouble, type BitsView } from '../engine/format.ts';
import { shortestDecimal } from '../engine/stored-value.ts';
import type { NumberLineWords } from '../present/round-words.ts';

/**
 * The exact value between its two neighbours in the format, and the one it rounded to. Positions
 * are linear between the neighbours; the midpoint (the tie) is drawn as a tick. Past the largest
 * finite value the upper neighbour is the infinity: it is drawn where the next power of two
 * would be (the value round-to-nearest measures against), and an exact value beyond that sits at
 * the end of the line.
 */
export function NumberLine({ line }: { line: NumberLineWords }) {
  const f = FORMATS[line.lower.format];
  const label = (view: BitsView) => {
    const value = toDouble(BigInt(view.bits), f);
    return Number.isFinite(value) ? shortestDecimal(BigInt(view.bits), f) : value > 0 ? '+∞' : '−∞';
  };
  // An infinite neighbour stands at ±2^(emax+1), the next power of two.
  const position = (view: BitsView) => {
    const value = toDouble(BigInt(view.bits), f);
    return Number.isFinite(value) ? value : Math.sign(value) * 2 ** (f.emax + 1);
  };
  const rounded =
    line.result === null ? 'past the largest finite value' : `to ${label(line.result)}`;
  const description = `Number line: the exact value ${line.exact.decimal} lies between ${label(line.lower)} and ${label(line.upper)}; it rounded ${rounded}.`;
  return (
    <NumberLineDrawing
      lo={position(line.lower)}
      hi={position(line.upper)}
      exact={Number(line.exact.decimal)}
      took={line.took}
      lowerLabel={label(line.lower)}
      upperLabel={label(line.upper)}
      description={description}
    />
  );
}

/**
 * The drawing of a rounding: the line from the lower neighbour (`lo`) to the upper one (`hi`),
 * linear between them, the tie as a tick in the middle, the exact value as a mark (held at the
 * ends when it lies beyond them) and an arrow to the neighbour it took.
 */
export function NumberLineDrawing({
  lo,
  hi,
  exact,
  took,
  lowerLabel,
  upperLabel,
  description,
}: {
  lo: number;
  hi: number;
  exact: number;
  took: 'lower' | 'upper' | null;
  lowerLabel: string;
  upperLabel: string;
  description: string;
}) {
  const W = 360;
  const L = 30;
  const R = W - 30;
  const x = (val: number) => L + ((val - lo) / (hi - lo)) * (R - L);
  const ex = Math.max(L, Math.min(R, x(exact)));
  const chosenX = took === 'lower' ? L : took === 'upper' ? R : null;
  return (
    <svg className="numberline" viewBox={`0 0 ${W} 64`} role="img" aria-label={description}>
      <line x1={L} x2={R} y1={32} y2={32} className="axis" />
      <line x1={(L + R) / 2} x2={(L + R) / 2} y1={26} y2={38} className="mid" />
      <circle cx={L} cy={32} r={5} className={chosenX === L ? 'chosen' : 'neighbour'} />
      <circle cx={R} cy={32} r={5} className={chosenX === R ? 'chosen' : 'neighbour'} />
      <path d={`M ${ex} 20 l -5 -8 h 10 z`} className="exact-mark" />
      <text x={L} y={56} textAnchor="start">
        {lowerLabel}
      </text>
      <text x={R} y={56} textAnchor="end">
        {upperLabel}
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
