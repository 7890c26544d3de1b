import { modifierTerm } from './glossary.ts';
import { Term } from './Term.tsx';

/** What the picker knows of one modifier flag of the current form. */
export interface FlagState {
  on: boolean;
  /** On, and the form cannot be had without it. */
  mandatory: boolean;
  /** Why the target or PTX version rejects it, or null. */
  limit: string | null;
}

/**
 * A form's modifier flags as checkboxes: each with why it is required or out of reach on the
 * target, and its glossary term beside it.
 */
export function ModifierFlags<M extends string>({
  legend,
  flags,
  target,
  stateOf,
  onToggle,
  testIdOf,
}: {
  legend: string;
  flags: readonly M[];
  target: string;
  stateOf: (flag: M) => FlagState;
  onToggle: (flag: M, on: boolean) => void;
  testIdOf?: (flag: M) => string;
}) {
  return (
    <fieldset className="modifiers">
      <legend>{legend}</legend>
      {flags.map((m) => {
        const { on, mandatory, limit } = stateOf(m);
        const term = modifierTerm(m);
        return (
          <span key={m} className="modifier">
            <label className={limit ? 'limited' : undefined}>
              <input
                type="checkbox"
                checked={on}
                disabled={mandatory}
                data-testid={testIdOf?.(m)}
                onChange={() => onToggle(m, on)}
              />
              <code>.{m}</code>
              {mandatory && <span className="why"> (required by this form)</span>}
              {limit && (
                <span className="why">
                  {' '}
                  ({target}: {limit})
                </span>
              )}
            </label>
            {/* Beside the label, not in it: a tap on it explains, it does not toggle. */}
            {term && <Term id={term} icon />}
          </span>
        );
      })}
    </fieldset>
  );
}
