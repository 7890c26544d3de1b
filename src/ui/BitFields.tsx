import { useRef } from 'react';

/** One labelled run of bits: a field of the value, or padding beside it. */
export interface BitRun {
  readonly name: 'sign' | 'exponent' | 'mantissa' | 'padding' | 'random';
  /** The run's label, where it is not its name ("for a" for an element's random bits). */
  readonly label?: string;
  /** Bit positions within the slot, most significant first (from >= to). */
  readonly from: number;
  readonly to: number;
}

/**
 * Bits in labelled runs (padding, sign, exponent, mantissa), for any width up to 64 (BigInt): an
 * arithmetic lane, a cvt element's slot, cvt's rbits. Each bit is a toggle button showing 0 or 1;
 * press and drag paints the pressed bit's new value over the others; arrow keys move between bits
 * (one tab stop per group). Without `onChange` the bits are read-only.
 */
export function BitFields({
  label,
  bits,
  width,
  runs,
  onChange,
  firstBit = 0,
}: {
  label: string;
  bits: bigint;
  width: number;
  runs: readonly BitRun[];
  onChange?: (bits: bigint) => void;
  /** The register position of bit 0, for the bits' names ("a bit 13"). */
  firstBit?: number;
}) {
  // A drag in progress: the value it paints, the bit it painted last and the bits it has written
  // (the next pointer event may come before the re-render that shows them).
  const paint = useRef<{ value: 0 | 1; last: number; bits: bigint } | null>(null);
  const group = useRef<HTMLDivElement>(null);
  const bitAt = (b: bigint, i: number): 0 | 1 => Number((b >> BigInt(i)) & 1n) as 0 | 1;
  const painted = (start: bigint, from: number, to: number, v: 0 | 1): bigint => {
    let next = start;
    for (let i = Math.min(from, to); i <= Math.max(from, to); i++)
      next = v ? next | (1n << BigInt(i)) : next & ~(1n << BigInt(i));
    return next;
  };
  const focusBit = (i: number) => {
    const clamped = Math.max(0, Math.min(width - 1, i));
    group.current?.querySelector<HTMLElement>(`[data-bit="${clamped}"]`)?.focus();
  };
  const stopPaint = () => {
    paint.current = null;
    window.removeEventListener('pointerup', stopPaint);
  };
  return (
    <div className="bitfields" ref={group} role="group" aria-label={`${label} bits`}>
      {runs.map((run) => (
        <div key={`${run.name}-${run.from}`} className={`bitfield ${run.name}`}>
          <span className="field-label">
            {run.label ?? run.name}
            <span className="muted"> ({run.from - run.to + 1})</span>
          </span>
          <div className="bits">
            {Array.from({ length: run.from - run.to + 1 }, (_, k) => run.from - k).map((i) => {
              const v = bitAt(bits, i);
              const aria = `${label} ${run.name} bit ${i + firstBit}`;
              if (!onChange)
                return (
                  <span key={i} className={`bit v${v}`} aria-label={`${aria}: ${v}`} role="img">
                    {v}
                  </span>
                );
              return (
                <button
                  key={i}
                  type="button"
                  className={`bit v${v}`}
                  data-bit={i}
                  tabIndex={i === width - 1 ? 0 : -1}
                  aria-pressed={v === 1}
                  aria-label={aria}
                  onPointerDown={(e) => {
                    if (e.button !== 0) return;
                    (e.currentTarget as HTMLElement).releasePointerCapture?.(e.pointerId);
                    const value = v ? 0 : 1;
                    const next = painted(bits, i, i, value);
                    paint.current = { value, last: i, bits: next };
                    onChange(next);
                    window.addEventListener('pointerup', stopPaint);
                  }}
                  onPointerEnter={() => {
                    const p = paint.current;
                    if (p === null) return;
                    // A fast drag skips buttons: paint the whole run since the last one.
                    const next = painted(p.bits, p.last, i, p.value);
                    paint.current = { ...p, last: i, bits: next };
                    if (next !== p.bits) onChange(next);
                  }}
                  onClick={(e) => {
                    // Pointer presses toggle on pointerdown; this is the keyboard's Enter/Space.
                    if (e.detail === 0) onChange(painted(bits, i, i, v ? 0 : 1));
                  }}
                  onKeyDown={(e) => {
                    const move = { ArrowLeft: i + 1, ArrowRight: i - 1, Home: width - 1, End: 0 }[
                      e.key
                    ];
                    if (move !== undefined) {
                      e.preventDefault();
                      focusBit(move);
                    }
                  }}
                >
                  {v}
                </button>
              );
            })}
          </div>
        </div>
      ))}
    </div>
  );
}
