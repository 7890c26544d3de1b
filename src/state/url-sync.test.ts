import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setInstr } from './edits.ts';
import { useStore } from './store.ts';
import { URL_LINK, type UrlLink } from './url-link.ts';
import { DEFAULT_STATE } from './url-state.ts';
import { startUrlSync, type UrlSync } from './url-sync.ts';

/**
 * The address bar and the store in step, with the codec (url-link.ts) a chunk loaded on first
 * use: a page opened without a query string never loads it until an edit is written; writes
 * asked for before it is there are made once it is, in their order, each with its own state.
 */

const initial = useStore.getState();

/** A window with only what url-sync reads: the address, history and popstate. */
function fakeWindow(search: string) {
  const writes: { mode: 'push' | 'replace'; search: string }[] = [];
  const listeners: (() => void)[] = [];
  const location = { search, pathname: '/', hash: '', origin: 'https://example.test' };
  const history = (mode: 'push' | 'replace') => (_: unknown, __: string, url: string) => {
    location.search = url.slice(1);
    writes.push({ mode, search: location.search });
  };
  const win = {
    location,
    history: { pushState: history('push'), replaceState: history('replace') },
    addEventListener: (_: string, f: () => void) => listeners.push(f),
    removeEventListener: () => {},
  };
  /** Back or forward to `to`. */
  const pop = (to: string) => {
    location.search = to;
    for (const f of listeners) f();
  };
  return { win: win as unknown as Window, writes, pop };
}

/** A codec loader that counts its calls and answers when told to. */
function heldLoader() {
  let release: (link: UrlLink) => void = () => {};
  const loaded = new Promise<UrlLink>((resolve) => (release = resolve));
  const load = vi.fn(() => loaded);
  return { load, release: () => release(URL_LINK) };
}

const tick = () => new Promise((r) => setTimeout(r, 0));

describe('startUrlSync', () => {
  let sync: UrlSync | null = null;
  beforeEach(() => useStore.setState(initial, true));
  afterEach(() => {
    sync?.stop();
    sync = null;
  });

  it('reads no link and loads no codec for a page opened without a query string', async () => {
    const { win, writes } = fakeWindow('');
    const load = vi.fn(() => Promise.resolve(URL_LINK));
    sync = startUrlSync(win, load);
    expect(await sync.linkRead).toBeNull();
    await tick();
    expect(load).not.toHaveBeenCalled();
    expect(writes).toEqual([]);
    expect(useStore.getState()).toBe(initial);
    expect(useStore.getState().instr).toBe(DEFAULT_STATE.instr);
  });

  it('loads the codec with the first write, and writes the picks in order, each its own state', async () => {
    const { win, writes } = fakeWindow('');
    const { load, release } = heldLoader();
    sync = startUrlSync(win, load);
    await sync.linkRead;
    setInstr('add.f16');
    useStore.getState().setTarget('sm_80');
    expect(load).toHaveBeenCalledTimes(1);
    expect(writes).toEqual([]);
    release();
    await tick();
    expect(writes).toEqual([
      { mode: 'push', search: '?v=3&instr=add.f16&target=sm_90&ptx=8.6&a=0x3e00&b=0x4000' },
      { mode: 'push', search: '?v=3&instr=add.f16&target=sm_80&ptx=8.6&a=0x3e00&b=0x4000' },
    ]);
    // Loaded: from now on a pick is written at once.
    useStore.getState().setPtx('8.7');
    expect(writes.at(-1)).toEqual({
      mode: 'push',
      search: '?v=3&instr=add.f16&target=sm_80&ptx=8.7&a=0x3e00&b=0x4000',
    });
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('reads a link once the codec is there, with its notices, and normalises the address', async () => {
    const { win, writes } = fakeWindow('?v=3&instr=add.rn.f16&a=1.5&banana=1');
    const { load, release } = heldLoader();
    sync = startUrlSync(win, load);
    expect(load).toHaveBeenCalledTimes(1);
    expect(useStore.getState().instr).toBe(DEFAULT_STATE.instr);
    release();
    expect(await sync.linkRead).toBe(URL_LINK);
    expect(useStore.getState().instr).toBe('add.rn.f16');
    expect(useStore.getState().urlNotices).toEqual(["unknown parameter 'banana'"]);
    expect(useStore.getState().urlStored).toHaveLength(1);
    expect(writes).toEqual([
      { mode: 'replace', search: '?v=3&instr=add.rn.f16&target=sm_90&ptx=8.6&a=0x3e00&b=0x4000' },
    ]);
  });

  it('restores the state on back/forward once the codec has read it', async () => {
    const { win, pop } = fakeWindow('');
    const { load, release } = heldLoader();
    sync = startUrlSync(win, load);
    await sync.linkRead;
    pop('?v=3&instr=mul.f16&a=0x4000&b=0x4000');
    expect(useStore.getState().instr).toBe(DEFAULT_STATE.instr);
    release();
    await tick();
    expect(useStore.getState().instr).toBe('mul.f16');
    expect(useStore.getState().historyIntent).toBe('none');
  });

  it('says so where the codec does not load, and keeps the default state', async () => {
    const { win, writes } = fakeWindow('?v=3&instr=add.rn.f16');
    const load = vi.fn(() => Promise.reject(new Error('chunk failed')));
    sync = startUrlSync(win, load);
    expect(await sync.linkRead).toBeNull();
    expect(useStore.getState().instr).toBe(DEFAULT_STATE.instr);
    expect(useStore.getState().urlNotices).toEqual([
      expect.stringContaining('the code that reads links could not be fetched'),
    ]);
    expect(writes).toEqual([]);
  });
});
