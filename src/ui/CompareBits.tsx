import type { FormatName } from '../catalog/index.ts';
import { bitGroups, differingBitCount, lanesOf } from '../engine/what-if/describe.ts';

interface Register {
  readonly label: string;
  readonly d: number;
  readonly bits: 16 | 32;
  readonly format: FormatName;
}

/**
 * A's and B's result registers one above the other, lane by lane and field by field, with the
 * bits that differ marked (where both are registers of the same format; otherwise each is shown
 * with its own fields, and the values are what compares).
 */
export function CompareBits({ a, b, xor }: { a: Register; b: Register; xor: number | null }) {
  const comparable = xor !== null;
  const lanesA = lanesOf(a.d, a.bits, a.format);
  const lanesB = lanesOf(b.d, b.bits, b.format);
  return (
    <div className="compare-bits" data-testid="compare-bits">
      <p className="muted">
        {comparable
          ? xor === 0
            ? 'The registers are identical.'
            : `${differingBitCount(xor)} of ${a.bits} bits differ (marked).`
          : `Different registers (${a.format}${lanesA.length === 2 ? '×2' : ''} and ${b.format}${lanesB.length === 2 ? '×2' : ''}): their bits do not compare; their values do.`}
      </p>
      {lanesA.map((laneA, i) => {
        const laneB = lanesB[Math.min(i, lanesB.length - 1)]!;
        return (
          <div key={i} className="compare-lane">
            {lanesA.length === 2 && <h4>Lane {i}</h4>}
            <BitRow
              label={a.label}
              lane={laneA}
              format={a.format}
              other={comparable ? laneB : null}
            />
            {(i < lanesB.length || lanesB.length === 1) && (
              <BitRow
                label={b.label}
                lane={laneB}
                format={b.format}
                other={comparable ? laneA : null}
              />
            )}
          </div>
        );
      })}
    </div>
  );
}

function BitRow({
  label,
  lane,
  format,
  other,
}: {
  label: string;
  lane: number;
  format: FormatName;
  other: number | null;
}) {
  const groups = bitGroups(lane, format, other);
  return (
    <p className="bit-row">
      <span className="who">{label}</span>
      <code>
        {groups.map((g) => (
          <span key={g.field} className={`bit-group ${g.field}`}>
            {g.bits.map((b, i) =>
              b.differs ? (
                <mark key={i} className="bit-diff">
                  {b.value}
                </mark>
              ) : (
                <span key={i}>{b.value}</span>
              ),
            )}
          </span>
        ))}
      </code>
    </p>
  );
}
