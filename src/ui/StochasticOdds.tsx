import { useMemo } from 'react';
import type { EvalResult } from '../engine/steps.ts';
import { stochasticOddsLines } from '../present/odds-text.ts';
import { useStore } from '../state/store.ts';
import { useForm } from '../state/form.ts';
import { Term } from './Term.tsx';

/** 32 fresh random bits for rbits, from the browser's cryptographic generator. */
function randomBits32(): bigint {
  const word = new Uint32Array(1);
  crypto.getRandomValues(word);
  return BigInt(word[0]!);
}

/**
 * Beside a .rs result: how likely each neighbour is over every pattern of the random bits (the
 * result is one draw), and a button that draws new random bits into rbits — one edit, one
 * history entry, in the link like any operand.
 */
export function StochasticOdds({ result }: { result: EvalResult }) {
  const lines = useMemo(() => stochasticOddsLines(result), [result]);
  const form = useForm();
  const loadRegisters = useStore((s) => s.loadRegisters);
  const hasRbits = form.registers.some((r) => r.name === 'rbits');
  if (!hasRbits) return null;
  return (
    <div className="stochastic-odds" data-testid="rs-odds">
      <p>
        <Term id="rs">.rs</Term> rounds by the random bits in <code>rbits</code>:{' '}
        {lines.length === 0 ? (
          'every element is exact, so they change nothing.'
        ) : lines.length === 1 ? (
          <span data-testid="rs-odds-line">{lines[0]}.</span>
        ) : (
          'each element’s neighbours and how likely each is:'
        )}
      </p>
      {lines.length > 1 && (
        <ul>
          {lines.map((line) => (
            <li key={line} data-testid="rs-odds-line">
              {line}
            </li>
          ))}
        </ul>
      )}
      <button
        type="button"
        data-testid="draw-rbits"
        onClick={() => loadRegisters({ rbits: randomBits32() })}
      >
        Draw new random bits
      </button>
    </div>
  );
}
