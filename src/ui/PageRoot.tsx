import { StrictMode, useEffect } from 'react';
import { App } from './App.tsx';
import { partCommitted } from './page-live.ts';

/**
 * The whole page, as the browser renders it (src/main.tsx) and the build prerenders it
 * (src/prerender.tsx): one element tree for both, so hydration meets the same components. Once
 * React has committed it and the parts that load with the evaluation (hydrated or rendered),
 * `#root` carries `data-live` (page-live.ts): from then on the page answers input.
 */
export function PageRoot() {
  useEffect(() => partCommitted('page'), []);
  return (
    <StrictMode>
      <App />
    </StrictMode>
  );
}
