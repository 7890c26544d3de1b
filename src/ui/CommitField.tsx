import { useId, useState } from 'react';
import { useStore, type StoredNote } from '../state/store.ts';

/** A field's reading of its text: bits, and what a value stored; or why it cannot be read. */
export type FieldParse<T = bigint> =
  | { readonly ok: true; readonly bits: T; readonly stored?: string }
  | { readonly ok: false; readonly message: string };

/**
 * A text field that shows the current value and commits an edit on Enter or when it loses
 * focus. Bad input shows the parser's message and keeps the previous value; Escape reverts, and
 * so does a change of the value from elsewhere, or a commit in any other field (the message
 * is about a draft the person has left). A value that was not bits is answered with what was
 * stored ("stored 0x3e00 = 1.5") under the field, until the next edit. With `keepTyped` (a value
 * field), a committed text stays as typed while it still reads as the bits the field shows, in
 * every format alike ("0.1" in f16 and in bf16).
 */
export function CommitField<T = bigint>({
  label,
  value,
  parse,
  onCommit,
  testId,
  wide,
  keepTyped = false,
}: {
  label: string;
  value: string;
  parse: (text: string) => FieldParse<T>;
  /** The bits read (a register's or an element's, up to 64 of them). */
  onCommit: (bits: T, stored?: StoredNote) => void;
  testId: string;
  wide?: boolean;
  keepTyped?: boolean;
}) {
  const [draft, setDraft] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  // The last text committed, and the value it is shown for while it reads as the same bits.
  const [typed, setTyped] = useState<{ text: string; value: string | null } | null>(null);
  const registers = useStore((s) => s.registers);
  const note = useStore((s) => (s.storedNote?.field === testId ? s.storedNote.text : null));
  // When the value changes from elsewhere (a bit, a quick pick, another field, the URL), a draft
  // typed against the old value, and its error, no longer apply: show the new value.
  const [draftOf, setDraftOf] = useState(value);
  if (draftOf !== value) {
    setDraftOf(value);
    setDraft(null);
    setError(null);
    if (typed !== null) setTyped(sameBits(parse, typed.text, value) ? { ...typed, value } : null);
  }
  // Another field committed while this one shows an error: the error was left behind.
  const [registersSeen, setRegistersSeen] = useState(registers);
  if (registersSeen !== registers) {
    setRegistersSeen(registers);
    if (error !== null) {
      setDraft(null);
      setError(null);
    }
  }
  const id = useId();
  const commit = () => {
    if (draft === null) return;
    const r = parse(draft);
    if (r.ok) {
      setError(null);
      setDraft(null);
      setTyped(
        keepTyped ? { text: draft, value: sameBits(parse, draft, value) ? value : null } : null,
      );
      onCommit(r.bits, r.stored ? { field: testId, text: r.stored } : undefined);
    } else {
      setError(r.message);
    }
  };
  const describedBy = error ? `${id}-err` : note ? `${id}-note` : undefined;
  return (
    <div className={`field${wide ? ' wide' : ''}`}>
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        className="mono"
        spellCheck={false}
        autoComplete="off"
        data-testid={testId}
        value={draft ?? (typed !== null && typed.value === value ? typed.text : value)}
        aria-invalid={error !== null}
        aria-describedby={describedBy}
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
        <p id={`${id}-err`} className="field-error" role="alert" data-testid={`${testId}-error`}>
          {label}: {error}; kept {value}
        </p>
      )}
      {!error && note && (
        <p id={`${id}-note`} className="field-note" role="status" data-testid={`${testId}-stored`}>
          {note}
        </p>
      )}
    </div>
  );
}

/** Whether two texts read as the same bits. */
function sameBits<T>(parse: (text: string) => FieldParse<T>, a: string, b: string): boolean {
  const x = parse(a);
  const y = parse(b);
  return x.ok && y.ok && Object.is(x.bits, y.bits);
}
