/**
 * How long the app takes to decode the share links people hold: every fixture of
 * tests/fixtures/share-urls.json (the 100 KB ones included) through `decodeUrl`, next to the
 * browser's own `URLSearchParams` reading every parameter of the same strings in the same run
 * (the least any decoder of these links must do). Part of `npm run bench:ui`; runs in Node.
 */
import { readFileSync } from 'node:fs';
import { decodeUrl } from '../src/state/url-codec.ts';
import { median } from './ui-bench-lib.ts';

const FIXTURES = new URL('../tests/fixtures/share-urls.json', import.meta.url);
const WARMUP = 3;
const REPEATS = 15;

export interface ShareUrlBench {
  readonly links: number;
  readonly characters: number;
  /** One pass of decodeUrl over every link, median of the repeats. */
  readonly decodeMs: number;
  /** One pass of URLSearchParams (every value read) over the same links. */
  readonly urlSearchParamsMs: number;
  /** decodeMs / urlSearchParamsMs. */
  readonly ratio: number;
}

/** A fixture URL writes `{c*N}` for the character c repeated N times (see the fixtures' test). */
function expand(url: string): string {
  return url.replace(/\{(.)\*(\d+)\}/g, (_, ch: string, n: string) => ch.repeat(Number(n)));
}

function passMs(links: readonly string[], decode: (link: string) => unknown): number {
  const times: number[] = [];
  for (let r = 0; r < WARMUP + REPEATS; r++) {
    const t0 = performance.now();
    for (const link of links) decode(link);
    if (r >= WARMUP) times.push(performance.now() - t0);
  }
  return median(times);
}

export function benchShareUrls(): ShareUrlBench {
  const fixtures = JSON.parse(readFileSync(FIXTURES, 'utf8')) as readonly { url: string }[];
  const links = fixtures.map((f) => expand(f.url));
  const decodeMs = passMs(links, decodeUrl);
  const urlSearchParamsMs = passMs(links, (link) => {
    let length = 0;
    for (const [key, value] of new URLSearchParams(link)) length += key.length + value.length;
    return length;
  });
  const round = (x: number) => Math.round(x * 100) / 100;
  return {
    links: links.length,
    characters: links.reduce((sum, l) => sum + l.length, 0),
    decodeMs: round(decodeMs),
    urlSearchParamsMs: round(urlSearchParamsMs),
    ratio: Math.round((decodeMs / urlSearchParamsMs) * 10) / 10,
  };
}
