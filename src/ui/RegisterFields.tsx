import { useMemo } from 'react';
import { parseBitsText } from '../engine/bits-text.ts';
import { CommitField, type FieldParse } from './CommitField.tsx';
import type { StoredNote } from '../state/store.ts';

/**
 * A register's hex and binary fields, or, for the result (no `onChange`), its hex as output.
 * Each field reads digits of its own base, prefix optional (bits-text.ts): `1000` in the
 * hex field is 0x1000; values go in the value fields.
 */
export function RegisterFields({
  name,
  hex,
  binary,
  width,
  onChange,
  wideHex,
}: {
  name: string;
  hex: string;
  /** The binary digits, without 0b. */
  binary: string;
  /** The register's width in bits. */
  width: number;
  onChange?: (register: bigint, stored?: StoredNote) => void;
  wideHex?: boolean;
}) {
  const parseHex = useMemo(() => digitsParser(16, width), [width]);
  const parseBinary = useMemo(() => digitsParser(2, width), [width]);
  return (
    <div className="register-fields">
      {onChange ? (
        <>
          <CommitField
            label={`${name} hex`}
            value={hex}
            parse={parseHex}
            onCommit={onChange}
            testId={`${name}-hex`}
            wide={wideHex}
          />
          <CommitField
            label={`${name} binary`}
            value={`0b${binary}`}
            parse={parseBinary}
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

function digitsParser(base: 16 | 2, width: number): (text: string) => FieldParse {
  return (text) => {
    const r = parseBitsText(text, base, width, 'register');
    return r.ok ? { ok: true, bits: r.bits } : { ok: false, message: r.error.message };
  };
}
