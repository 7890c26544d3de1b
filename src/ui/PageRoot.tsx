import { StrictMode, useEffect } from 'react';
import { App } from './App.tsx';

/**
 * The whole page, as the browser renders it (src/main.tsx) and the build prerenders it
 * (src/prerender.tsx): one element tree for both, so hydration meets the same components. Once
 * React has committed it (hydrated or rendered), `#root` carries `data-live`: from then on the
 * page answers input.
 */
export function PageRoot() {
  useEffect(() => {
    document.getElementById('root')?.setAttribute('data-live', '');
  }, []);
  return (
    <StrictMode>
      <App />
    </StrictMode>
  );
}
