import { useId, useState } from 'react';
import { FORMATS } from '../engine/format.ts';
import { shortestDecimal } from '../engine/stored-value.ts';
import { readValueList, type ListRead } from '../state/block-settings.ts';

/** A block as the text box shows it: each value's shortest decimal, eight to a line. */
export function blockText(values: readonly number[]): string {
  const lines: string[] = [];
  for (let i = 0; i < values.length; i += 8)
    lines.push(
      values
        .slice(i, i + 8)
        .map((b) => shortestDecimal(BigInt(b >>> 0), FORMATS.f32))
        .join(', '),
    );
  return lines.join(',\n');
}

/** What a typed list lacks, in one line per problem (none: it is a block of `size` values). */
function listProblems(read: ListRead, size: number): string[] {
  if (!read.ok) return read.errors.map((e) => `Item ${e.item} (${e.text}): ${e.message}`);
  if (read.bits.length !== size) return [`${read.bits.length} values; the block takes ${size}.`];
  return [];
}

/**
 * A block typed as a list: values (0.1, -2, 1e-3) or binary32 bits (0x3dcccccd), separated by
 * commas, spaces or line breaks. It is taken when it reads as exactly `size` values; until then
 * each problem is listed with the item it is in.
 */
export function BlockValues({
  label,
  testId,
  values,
  size,
  onValues,
}: {
  label: string;
  testId: string;
  values: readonly number[];
  size: number;
  onValues: (values: number[]) => void;
}) {
  const [text, setText] = useState(() => blockText(values));
  const [shown, setShown] = useState(values);
  // The block changed from outside (a link, the scheme, the what-if): show it.
  if (shown !== values) {
    setShown(values);
    setText(blockText(values));
  }
  const read = readValueList(text);
  const problems = listProblems(read, size);
  const id = useId();
  return (
    <div className="block-values">
      <label htmlFor={id}>{label}</label>
      <textarea
        id={id}
        data-testid={testId}
        rows={5}
        spellCheck={false}
        value={text}
        aria-invalid={problems.length > 0}
        onChange={(event) => {
          const next = event.target.value;
          setText(next);
          const r = readValueList(next);
          if (r.ok && r.bits.length === size) {
            const bits = [...r.bits];
            setShown(bits);
            onValues(bits);
          }
        }}
      />
      {problems.length > 0 ? (
        <ul className="block-problems" role="alert" data-testid={`${testId}-problems`}>
          {problems.map((p) => (
            <li key={p}>{p}</li>
          ))}
        </ul>
      ) : (
        read.ok &&
        read.rounded.length > 0 && (
          <p className="muted">
            Rounded to binary32 (nearest even): items {read.rounded.map((i) => i + 1).join(', ')}.
          </p>
        )
      )}
    </div>
  );
}
