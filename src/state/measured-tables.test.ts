import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { findForm } from '../catalog/all-forms.ts';
import {
  MEASURED_BASE,
  loadMeasured,
  measuredNow,
  measuredOptionsNow,
  resetMeasured,
  type Fetch,
} from './measured-tables.ts';

/** Serves public/measured under MEASURED_BASE, as gzip files or already decompressed. */
function serve(mode: 'gzip' | 'content-encoding'): Fetch & { urls: string[] } {
  const urls: string[] = [];
  const root = new URL('../../public/measured/', import.meta.url);
  const fetchFn = async (url: string) => {
    urls.push(url);
    if (!url.startsWith(MEASURED_BASE)) return new Response(null, { status: 404 });
    let bytes: Uint8Array<ArrayBuffer> = new Uint8Array(
      readFileSync(new URL(url.slice(MEASURED_BASE.length), root)),
    );
    if (mode === 'content-encoding' && url.endsWith('.gz'))
      bytes = new Uint8Array(gunzipSync(bytes));
    return new Response(bytes);
  };
  return Object.assign(fetchFn, { urls });
}

const tanh = findForm('tanh.approx.f16')!;

describe('measured tables in the playground', () => {
  afterEach(resetMeasured);

  for (const mode of ['gzip', 'content-encoding'] as const) {
    it(`loads the H100 set for sm_90 once, whether the server sends .gz as it is or decoded (${mode})`, async () => {
      const fetchFn = serve(mode);
      expect(measuredOptionsNow('sm_90', tanh)).toBe('loading');
      const [first, second] = await Promise.all([
        loadMeasured('sm_90', fetchFn),
        loadMeasured('sm_90', fetchFn),
      ]);
      expect(second).toBe(first);
      if (first.status !== 'ready') throw new Error(JSON.stringify(first));
      expect(first.set).toMatchObject({
        device: 'NVIDIA H100 80GB HBM3',
        driver: '580.159.04',
        measuredOn: 'NVIDIA H100 80GB HBM3 (driver 580.159.04, CUDA 13.0)',
      });
      expect(Object.keys(first.set.tables).sort()).toEqual([
        'ex2.bf16',
        'ex2.f16',
        'tanh.bf16',
        'tanh.f16',
      ]);
      // tanh(1.0): the H100 gives 0x3A17 (the correctly rounded value is 0x3A18).
      expect(first.set.tables['tanh.f16']!.results[0x3c00]).toBe(0x3a17);
      expect(fetchFn.urls).toHaveLength(5); // the index and four tables, once
      const options = measuredOptionsNow('sm_90', tanh);
      expect(options).toEqual({ approxTables: first.set.tables });
      // Exact forms never use them.
      expect(measuredOptionsNow('sm_90', findForm('add.rn.f16')!)).toBeNull();
    });
  }

  it('gives no tables for a target nothing was measured on', async () => {
    expect(await loadMeasured('sm_100', serve('gzip'))).toEqual({ status: 'none' });
    expect(measuredOptionsNow('sm_100', tanh)).toBeNull();
  });

  it('remembers a failed load as an error, so the model is used and the UI can say why', async () => {
    const broken: Fetch = async () => new Response('no', { status: 500 });
    const state = await loadMeasured('sm_90a', broken);
    expect(state).toEqual({ status: 'error', message: 'index.json: HTTP 500' });
    expect(measuredNow('sm_90a')).toEqual(state);
    expect(measuredOptionsNow('sm_90a', tanh)).toBeNull();
  });

  it('rejects a table of the wrong size', async () => {
    const fetchFn = serve('gzip');
    const short: Fetch = async (url) =>
      url.endsWith('tanh.f16.bin.gz') ? new Response(new Uint8Array(10)) : fetchFn(url);
    const state = await loadMeasured('sm_90', short);
    expect(state).toEqual({
      status: 'error',
      message: 'sm_90/tanh.f16.bin.gz: 10 bytes, a table has 131072',
    });
  });
});
