import type { ReactNode } from 'react';
import type { BitSegment, Line, Part } from '../present/word-parts.ts';
import { readableDecimal } from '../engine/decimal-text.ts';
import { Term } from './Term.tsx';

/**
 * A line of words (src/present/word-parts.ts) as the page draws it: values with their bits in
 * code, exact values with every digit one click away, glossary words as buttons, marked bits in
 * colour. The words themselves are src/present's; nothing here composes any.
 */
export function LineView({ line }: { line: Line }) {
  return (
    <>
      {line.map((part, i) => (
        <PartView key={i} part={part} />
      ))}
    </>
  );
}

function PartView({ part }: { part: Part }): ReactNode {
  switch (part.kind) {
    case 'text':
      return part.text;
    case 'code':
      return <code>{part.text}</code>;
    case 'cite':
      return <span className="citation">{part.text}</span>;
    case 'term':
      return <Term id={part.term}>{part.text}</Term>;
    case 'value':
      return (
        <span className="value">
          <span className="mono">{part.value}</span>{' '}
          <span className="muted">
            (<span className="mono">{part.view.format}</span> <code>{part.view.bits}</code>
            {part.note && (
              <>
                ,{' '}
                {part.note.term ? (
                  <Term id={part.note.term}>{part.note.text}</Term>
                ) : (
                  part.note.text
                )}
              </>
            )}
            )
          </span>
        </span>
      );
    case 'exact':
      return (
        <>
          <Decimal value={part} />
          {part.binary && (
            <>
              {' '}
              = <span className="mono">{part.binary}</span>
            </>
          )}
        </>
      );
    case 'bits':
      return <BitsView segments={part.segments} />;
  }
}

/**
 * An exact decimal: as it is when short; otherwise its first digits, with every digit one
 * click away.
 */
function Decimal({ value }: { value: Extract<Part, { kind: 'exact' }> }) {
  const all = value.value.kind === 'finite' ? value.value.decimal : value.decimal;
  const readable = readableDecimal(all);
  if (!readable.shortened) return <span className="mono exact">{value.decimal}</span>;
  return (
    <details className="long-decimal">
      <summary>
        <span className="mono exact">{readable.text}</span>{' '}
        <span className="muted">(all {readable.digits} digits)</span>
      </summary>
      <span className="mono exact all-digits">{all}</span>
    </details>
  );
}

const SEGMENT_CLASS: Readonly<Record<BitSegment['mark'], string>> = {
  kept: 'kept',
  guard: 'g',
  round: 'r',
  sticky: 's',
  random: 'random',
  discarded: 'discarded',
  carry: 'carry',
  sum: 'sum',
  padding: 'padding',
  value: 'value',
  zero: 'zero',
};

const SEGMENT_WORDS: Readonly<Record<BitSegment['mark'], string>> = {
  kept: 'kept bits',
  guard: 'guard',
  round: 'round',
  sticky: 'sticky',
  random: 'random bits',
  discarded: 'dropped bits',
  carry: 'carry',
  sum: 'sum',
  padding: 'padding',
  value: 'value bits',
  zero: 'zero bits',
};

/** Marked bits: each run in its colour, named for a screen reader ("kept bits 1000, guard 1, …"). */
function BitsView({ segments }: { segments: readonly BitSegment[] }) {
  const grs = segments.some((s) => s.mark === 'guard');
  const label = segments.map((s) => `${SEGMENT_WORDS[s.mark]} ${s.bits}`).join(', ');
  return (
    <span
      className={`mono bits-run${grs ? ' grs' : ''}`}
      role="img"
      aria-label={label}
      data-testid={grs ? 'grs' : undefined}
    >
      {segments.map((s, i) => (
        <span key={i} className={SEGMENT_CLASS[s.mark]} title={SEGMENT_WORDS[s.mark]}>
          {s.bits}
        </span>
      ))}
    </span>
  );
}
