import { useState } from 'react';
import { copyText } from './copy.ts';

export function CopyButton({
  text,
  label,
  testId,
  prepare,
}: {
  /** The text to copy, worked out on the click (a promise where it loads code first). */
  text: () => string | Promise<string>;
  label: string;
  testId?: string;
  /**
   * Fetches the code `text` needs when a pointer or the focus comes to the button, so that the
   * click finds it there: a browser may refuse a clipboard write made long after the click.
   */
  prepare?: () => void;
}) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  return (
    <button
      type="button"
      data-testid={testId}
      onPointerEnter={prepare}
      onFocus={prepare}
      onClick={async () => {
        const ok = await copyText(await text());
        setState(ok ? 'copied' : 'failed');
        setTimeout(() => setState('idle'), 1500);
      }}
    >
      {label}
      <span aria-live="polite" className="copy-state">
        {state === 'copied'
          ? ' ✓ copied'
          : state === 'failed'
            ? ' (copy failed: select and copy by hand)'
            : ''}
      </span>
    </button>
  );
}
