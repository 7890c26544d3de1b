import { useId, useState } from 'react';

/**
 * A text field that shows the current value and commits an edit on Enter or when it loses
 * focus. Bad input shows the parser's message and keeps the previous value; Escape reverts, and
 * so does a change of the value from elsewhere.
 */
export function CommitField({
  label,
  value,
  parse,
  onCommit,
  testId,
  wide,
}: {
  label: string;
  value: string;
  parse: (text: string) => { ok: true; bits: number } | { ok: false; message: string };
  onCommit: (bits: number) => void;
  testId?: string;
  wide?: boolean;
}) {
  const [draft, setDraft] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  // When the value changes from elsewhere (a bit, a quick pick, another field, the URL), a draft
  // typed against the old value, and its error, no longer apply: show the new value.
  const [draftOf, setDraftOf] = useState(value);
  if (draftOf !== value) {
    setDraftOf(value);
    setDraft(null);
    setError(null);
  }
  const id = useId();
  const commit = () => {
    if (draft === null) return;
    const r = parse(draft);
    if (r.ok) {
      setError(null);
      setDraft(null);
      onCommit(r.bits);
    } else {
      setError(r.message);
    }
  };
  return (
    <div className={`field${wide ? ' wide' : ''}`}>
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        className="mono"
        spellCheck={false}
        autoComplete="off"
        data-testid={testId}
        value={draft ?? value}
        aria-invalid={error !== null}
        aria-describedby={error ? `${id}-err` : undefined}
        onChange={(e) => {
          setDraft(e.target.value);
          setError(null);
        }}
        onKeyDown={(e) => {
          if (e.key === 'Enter') commit();
          if (e.key === 'Escape') {
            setDraft(null);
            setError(null);
          }
        }}
        onBlur={() => {
          commit();
        }}
      />
      {error && (
        <p id={`${id}-err`} className="field-error" role="alert">
          {error}; kept {value}
        </p>
      )}
    </div>
  );
}
