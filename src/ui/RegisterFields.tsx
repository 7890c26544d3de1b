import { CommitField, type FieldParse } from './CommitField.tsx';
import type { StoredNote } from '../state/store.ts';

/**
 * A register's hex and binary fields, or, for the result (no `onChange`), its hex as output.
 * Bits are a number for the arithmetic's registers, a BigInt for cvt's (up to 64 bits).
 */
export function RegisterFields<T>({
  name,
  hex,
  binary,
  parse,
  onChange,
  wideHex,
}: {
  name: string;
  hex: string;
  /** The binary digits, without 0b. */
  binary: string;
  parse: (text: string) => FieldParse<T>;
  onChange?: (register: T, stored?: StoredNote) => void;
  wideHex?: boolean;
}) {
  return (
    <div className="register-fields">
      {onChange ? (
        <>
          <CommitField<T>
            label={`${name} hex`}
            value={hex}
            parse={parse}
            onCommit={onChange}
            testId={`${name}-hex`}
            wide={wideHex}
          />
          <CommitField<T>
            label={`${name} binary`}
            value={`0b${binary}`}
            parse={parse}
            onCommit={onChange}
            testId={`${name}-bin`}
            wide
          />
        </>
      ) : (
        <p className="result-hex">
          <span>{name} =</span>{' '}
          <output className="mono" data-testid="result-bits">
            {hex}
          </output>
        </p>
      )}
    </div>
  );
}
