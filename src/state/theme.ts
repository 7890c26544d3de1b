import { useStore, type Theme } from './store.ts';

const KEY = 'ptxf-theme';

/** Applies the chosen theme to <html data-theme> and remembers it; 'system' follows the OS. */
export function startTheme(): void {
  let saved: string | null = null;
  try {
    saved = localStorage.getItem(KEY);
  } catch {
    // storage may be disabled; the theme then lasts for the session
  }
  if (saved === 'light' || saved === 'dark') useStore.getState().setTheme(saved);
  const apply = (theme: Theme) => {
    if (theme === 'system') delete document.documentElement.dataset.theme;
    else document.documentElement.dataset.theme = theme;
  };
  apply(useStore.getState().theme);
  useStore.subscribe((s, prev) => {
    if (s.theme === prev.theme) return;
    apply(s.theme);
    try {
      if (s.theme === 'system') localStorage.removeItem(KEY);
      else localStorage.setItem(KEY, s.theme);
    } catch {
      // see above
    }
  });
}
