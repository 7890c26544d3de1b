import { useEffect, useId, useRef, useState } from 'react';
import { useStore } from '../state/store.ts';
import { bringIntoViewOnNarrow } from './narrow.ts';
import { setVs } from '../state/edits.ts';

/**
 * The controls that choose B in compare mode:
 * one-click variants, B typed, and the way out of comparing. What B may be is the caller's:
 * `read` turns typed text into B's canonical text, or says why it cannot be one.
 */

export function QuickVariants({
  quick,
}: {
  quick: readonly { readonly variant: string; readonly label: string }[];
}) {
  const vs = useStore((s) => s.vs);
  if (quick.length === 0) return null;
  return (
    <div className="quick-variants" role="group" aria-label="Quick variants">
      {quick.map((q) => (
        <button
          key={q.variant}
          type="button"
          aria-pressed={vs === q.variant}
          title={q.variant === 'unfused' ? undefined : q.variant}
          data-testid={`vs-quick-${q.variant}`}
          onClick={() => {
            const next = vs === q.variant ? null : q.variant;
            setVs(next);
            // On a phone the comparison lies above, out of view: bring it to the tap.
            if (next !== null)
              bringIntoViewOnNarrow(
                '[data-testid="compare"]',
                'start',
                '[data-testid="compare-verdict"]',
              );
          }}
        >
          {q.label}
        </button>
      ))}
    </div>
  );
}

/** B typed; a text B reads as is committed at once, one history entry per typing session. */
export function VariantText({
  read,
  label,
  placeholder,
}: {
  read: (text: string) => { readonly vs: string } | { readonly error: string };
  label: string;
  placeholder: string;
}) {
  const vs = useStore((s) => s.vs);
  const [draft, setDraft] = useState(vs ?? '');
  const id = useId();
  // One history entry per typing session, as for the instruction's own field.
  const typedSinceFocus = useRef(false);
  // Follow picks made elsewhere, unless the draft already says the same variant.
  useEffect(() => {
    setDraft((d) => {
      const r = read(d);
      return 'vs' in r && r.vs === vs ? d : (vs ?? '');
    });
  }, [vs, read]);
  const parsed = draft.trim() === '' ? null : read(draft);
  const error = parsed && 'error' in parsed ? parsed.error : null;
  return (
    <div className="instr-text">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        className="mono"
        spellCheck={false}
        autoComplete="off"
        placeholder={placeholder}
        value={draft}
        aria-invalid={error !== null}
        aria-describedby={error ? `${id}-err` : undefined}
        data-testid="vs-text"
        onChange={(e) => {
          setDraft(e.target.value);
          const r = read(e.target.value);
          if ('vs' in r && r.vs !== vs) {
            setVs(r.vs, typedSinceFocus.current ? 'replace' : 'push');
            typedSinceFocus.current = true;
          }
        }}
        onFocus={() => {
          typedSinceFocus.current = false;
        }}
      />
      {error && (
        <p id={`${id}-err`} className="field-error" role="alert" data-testid="vs-error">
          {error}
          {vs !== null ? '; still comparing with ' : ''}
          {vs !== null && <code>{vs}</code>}
        </p>
      )}
    </div>
  );
}

export function StopComparing() {
  const vs = useStore((s) => s.vs);
  if (vs === null) return null;
  return (
    <button type="button" data-testid="vs-stop" onClick={() => setVs(null)}>
      Stop comparing
    </button>
  );
}
