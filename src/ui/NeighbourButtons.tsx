/**
 * The two buttons that step a value to its next neighbour down or up in its format; a button is
 * disabled where there is no such neighbour, titled with `whyNone` where that is given.
 */
export function NeighbourButtons({
  prefix,
  onDown,
  onUp,
  hasDown,
  hasUp,
  whyNone,
}: {
  /** Names the value in the buttons' labels ("a lane 0"). */
  prefix: string;
  onDown: () => void;
  onUp: () => void;
  hasDown: boolean;
  hasUp: boolean;
  whyNone?: (direction: 'up' | 'down') => string;
}) {
  return (
    <div className="step-buttons" role="group" aria-label={`${prefix}: step to a neighbour`}>
      <button
        type="button"
        onClick={onDown}
        disabled={!hasDown}
        title={hasDown ? undefined : whyNone?.('down')}
        aria-label={`${prefix}: next down`}
      >
        ▼ next down
      </button>
      <button
        type="button"
        onClick={onUp}
        disabled={!hasUp}
        title={hasUp ? undefined : whyNone?.('up')}
        aria-label={`${prefix}: next up`}
      >
        ▲ next up
      </button>
    </div>
  );
}
