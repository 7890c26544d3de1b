/**
 * A read-only array built the first time anything reads it: its length, an element, a method,
 * iteration. The catalog's complete form lists (all-forms.ts) are such lists, so that importing
 * the catalog generates nothing — the page generates the forms of the opcodes it shows, the CLI
 * and the tests the whole list when they first read it — while every reader keeps an ordinary
 * array's API (`FORMS.filter(…)`, `for (const f of ALL_FORMS)`, `[...MATRIX_FORMS]`).
 */
export function lazyList<T>(build: () => readonly T[]): readonly T[] {
  let built: readonly T[] | null = null;
  const list = () => (built ??= build());
  // The target is an empty array only so that Array.isArray says true; every read goes to the
  // built list (an array target's `length` is writable, so reporting the built length is allowed).
  return new Proxy([] as T[], {
    // Methods run on the proxy itself (`this`), so that `push` or `sort` meets `set` below.
    get: (_, key) => Reflect.get(list(), key),
    has: (_, key) => Reflect.has(list(), key),
    ownKeys: () => Reflect.ownKeys(list()),
    getOwnPropertyDescriptor: (_, key) => Reflect.getOwnPropertyDescriptor(list(), key),
    set: () => false,
    defineProperty: () => false,
    deleteProperty: () => false,
  });
}
