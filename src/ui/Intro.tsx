import type { MouseEvent } from 'react';
import { useStore } from '../state/store.ts';
import { loadUrlLink } from '../state/url-sync.ts';
import { GLOSSARY } from './glossary.ts';

/** Three cases worth seeing first, each a share link of the playground itself. */
export const EXAMPLES: readonly { id: string; query: string; title: string; text: string }[] = [
  {
    id: 'tie',
    query: '?v=2&instr=add.rn.f16&target=sm_90&ptx=8.6&a=0x3c00&b=0x1000',
    title: 'A tie, rounded to even',
    text: '1 + 2⁻¹¹ lies exactly halfway between two .f16 values; .rn keeps the even one, 1.',
  },
  {
    id: 'fma',
    query: '?v=2&instr=fma.rn.f16&target=sm_90&ptx=8.6&a=0x3c01&b=0x3c01&c=0xbc02',
    title: 'fma rounds once',
    text: '(1 + 2⁻¹⁰)² − (1 + 2⁻⁹) is 2⁻²⁰; mul then add rounds twice and gets 0.',
  },
  {
    id: 'nan',
    query: '?v=2&instr=min.f16&target=sm_90&ptx=8.6&a=0x7e00&b=0x3c00',
    title: 'A NaN rule',
    text: 'min(NaN, 1) is 1: min ignores a NaN; tick .NaN and the result is the canonical NaN.',
  },
];

/** The first screen's way in: what this is, what to try first, and the words it uses. */
export function Intro() {
  const applyUrlState = useStore((s) => s.applyUrlState);
  const setUrlNotices = useStore((s) => s.setUrlNotices);
  // An example opens in place, as one history entry; a new tab or window gets the plain link.
  const open = (e: MouseEvent<HTMLAnchorElement>, query: string) => {
    if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    // The codec is a chunk of its own; where it cannot load, the plain link opens the example.
    loadUrlLink().then(
      ({ read }) => {
        applyUrlState({ ...read(query).state, tab: null }, 'push');
        setUrlNotices([]);
        document.getElementById('main')?.scrollIntoView({ block: 'start' });
      },
      () => window.location.assign(query),
    );
  };
  return (
    <section className="intro" aria-labelledby="intro-h" data-testid="intro">
      <h2 id="intro-h" className="intro-line">
        See what an NVIDIA PTX floating-point instruction computes, bit for bit, and why — the
        half-precision arithmetic and cvt to FP8, FP6, FP4 and the other formats: pick an
        instruction, edit the operands&apos; bits or type a value, read the steps, and compare it
        with another way of computing it.
      </h2>
      <ul className="examples">
        {EXAMPLES.map((x) => (
          <li key={x.id}>
            <a href={x.query} onClick={(e) => open(e, x.query)} data-testid={`example-${x.id}`}>
              {x.title}
            </a>{' '}
            <span className="muted">{x.text}</span>
          </li>
        ))}
      </ul>
      <details className="glossary" data-testid="glossary">
        <summary>Words used here</summary>
        <dl>
          {GLOSSARY.map((g) => (
            <div key={g.id} id={`glossary-${g.id}`}>
              <dt>{g.term}</dt>
              <dd>
                {g.text}{' '}
                <a href={g.spec.href} target="_blank" rel="noreferrer">
                  PTX ISA §{g.spec.section}
                </a>
              </dd>
            </div>
          ))}
        </dl>
      </details>
    </section>
  );
}
