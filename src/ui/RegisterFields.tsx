import { useMemo } from 'react';
import { parseRegisterDigits, type RegisterBase } from '../engine/register-digits.ts';
import { CommitField, type FieldParse } from './CommitField.tsx';
import type { StoredNote } from '../state/store.ts';

/**
 * A register's hex and binary fields, or, for the result (no `onChange`), its hex as output.
 * Each field reads digits of its own base, prefix optional (register-digits.ts): `1000` in the
 * hex field is 0x1000; values go in the value fields. Bits are a number for the arithmetic's
 * registers, a BigInt for cvt's (up to 64 bits): `fromBits` makes one from the digits read.
 */
export function RegisterFields<T>({
  name,
  hex,
  binary,
  width,
  fromBits,
  onChange,
  wideHex,
}: {
  name: string;
  hex: string;
  /** The binary digits, without 0b. */
  binary: string;
  /** The register's width in bits. */
  width: number;
  fromBits: (bits: bigint) => T;
  onChange?: (register: T, stored?: StoredNote) => void;
  wideHex?: boolean;
}) {
  const parseHex = useMemo(() => digitsParser('hex', width, fromBits), [width, fromBits]);
  const parseBinary = useMemo(() => digitsParser('binary', width, fromBits), [width, fromBits]);
  return (
    <div className="register-fields">
      {onChange ? (
        <>
          <CommitField<T>
            label={`${name} hex`}
            value={hex}
            parse={parseHex}
            onCommit={onChange}
            testId={`${name}-hex`}
            wide={wideHex}
          />
          <CommitField<T>
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

function digitsParser<T>(
  base: RegisterBase,
  width: number,
  fromBits: (bits: bigint) => T,
): (text: string) => FieldParse<T> {
  return (text) => {
    const r = parseRegisterDigits(text, base, width);
    return r.ok ? { ok: true, bits: fromBits(r.bits) } : r;
  };
}
