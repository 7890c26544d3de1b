import { expect, test, type Page } from '@playwright/test';

/**
 * A shared link must never run what it smuggles in. Each test page gets a tripwire before any of
 * its own scripts run: `alert`/`confirm`/`prompt` and a global `__pwned` record any call, and
 * every Content-Security-Policy violation is collected. The payloads only try to call those.
 */

interface Tripwire {
  pwned: string[];
  violations: string[];
}

declare global {
  interface Window {
    __tripwire: Tripwire;
    __pwned: (how: string) => void;
  }
}

const PARAMS = ['v', 'instr', 'target', 'ptx', 'a', 'b', 'c', 'tab', 'oob', 'form', 'sm'];

const PAYLOADS = [
  `<script>__pwned('script tag')</script>`,
  `"><img src=x onerror="__pwned('img onerror')">`,
  `'><svg onload=__pwned('svg onload')>`,
  `javascript:__pwned('javascript url')`,
  `{{constructor.constructor('__pwned("template")')()}}`,
  `\${__pwned('template literal')}`,
  `');__pwned('quote break');//`,
  `%3Cscript%3E__pwned('double encoded')%3C%2Fscript%3E`,
  `<iframe srcdoc="<script>parent.__pwned('srcdoc')</script>">`,
  `data:text/html,<script>__pwned('data url')</script>`,
];

/** Query string with `payload` as the value of every parameter, and as a parameter name. */
function poisoned(payload: string): string {
  const q = new URLSearchParams();
  for (const key of PARAMS) q.append(key, payload);
  q.append(payload, payload);
  // Prototype-pollution shapes, should anything ever turn query keys into object paths.
  q.append('__proto__[polluted]', 'yes');
  q.append('constructor[prototype][polluted]', 'yes');
  return `?${q.toString()}#${encodeURIComponent(payload)}`;
}

async function armTripwire(page: Page): Promise<{ dialogs: string[]; errors: string[] }> {
  await page.addInitScript(() => {
    const tripwire: Tripwire = { pwned: [], violations: [] };
    window.__tripwire = tripwire;
    window.__pwned = (how) => tripwire.pwned.push(how);
    for (const name of ['alert', 'confirm', 'prompt'] as const) {
      Object.defineProperty(window, name, {
        value: (...args: unknown[]) => {
          tripwire.pwned.push(`${name}(${args.join(',')})`);
          return null;
        },
      });
    }
    document.addEventListener('securitypolicyviolation', (e) =>
      tripwire.violations.push(`${e.violatedDirective} blocked ${e.blockedURI} (${e.sourceFile})`),
    );
  });
  const dialogs: string[] = [];
  const errors: string[] = [];
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(e.message));
  return { dialogs, errors };
}

async function tripwire(page: Page): Promise<Tripwire & { polluted: unknown }> {
  return page.evaluate(() => ({
    ...window.__tripwire,
    polluted: ({} as Record<string, unknown>).polluted,
  }));
}

test.describe('locked-down page', () => {
  test('the page a user opens has no test hooks (nothing to crash or hang its worker)', async ({
    page,
  }) => {
    await page.goto('./?v=1&instr=add.f16&a=0x3c00&b=0x3c00');
    await expect(page.getByTestId('result-bits')).toHaveText('0x4000');
    expect(await page.evaluate(() => '__ptxfTest' in window)).toBe(false);
  });

  test('the worker the page starts has no way to crash or hang itself', async ({ page }) => {
    // The fault specs append their faults to the worker script as they serve it
    // (e2e/test-hooks.ts); the script the site serves has none, nor does the engine's contract.
    const scripts: string[] = [];
    page.on('response', async (r) => {
      if (/engine\.worker-[^/]*\.js$/.test(new URL(r.url()).pathname)) scripts.push(await r.text());
    });
    await page.goto('./?v=2&instr=add.f16&a=0x3c00&b=0x3c00&tab=corners');
    await expect(page.getByTestId('corner-table')).toBeVisible();
    await expect.poll(() => scripts.length).toBe(1);
    expect(scripts[0]).toContain('Comlink');
    expect(scripts[0]).not.toMatch(/test hook|ptxfFault|\bcrash\b|\bhang\b/);
  });

  test('the built page carries a strict Content-Security-Policy', async ({ page }) => {
    const response = await page.goto('./');
    const header = response!.headers()['content-security-policy'] ?? '';
    // vite.config.ts sets it (preview.headers); a preview server started before that must restart.
    expect(header, 'Content-Security-Policy header from vite preview').not.toBe('');
    const meta =
      (await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content')) ??
      '';
    for (const policy of [meta, header]) {
      expect(policy).toContain("default-src 'self'");
      expect(policy).toContain("script-src 'self'");
      expect(policy).toContain("style-src 'self'");
      expect(policy).toContain("worker-src 'self'");
      expect(policy).toContain("object-src 'none'");
      expect(policy).toContain("base-uri 'none'");
      expect(policy).not.toMatch(/unsafe-inline|unsafe-eval|https?:|\*/);
    }
    // frame-ancestors only works (and is only allowed) in the header.
    expect(header).toContain("frame-ancestors 'none'");
    expect(meta).not.toContain('frame-ancestors');
    // Nothing inline in the delivered HTML: every script and style comes from a file.
    const html = await response!.text();
    expect(html).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>/);
    expect(html).not.toMatch(/<style[\s>]|\sstyle=|\son[a-z]+=/i);
  });

  test('the policy is enforced: an inline script added to the page does not run', async ({
    page,
  }) => {
    await armTripwire(page);
    await page.goto('./');
    await expect(page.getByTestId('result-bits')).toBeVisible();
    await page.evaluate(() => {
      const s = document.createElement('script');
      s.textContent = "__pwned('inline script')";
      document.body.append(s);
    });
    await expect
      .poll(async () => (await tripwire(page)).violations.join('\n'))
      .toContain('script-src');
    expect((await tripwire(page)).pwned).toEqual([]);
  });

  for (const payload of PAYLOADS) {
    test(`a link with ${JSON.stringify(payload).slice(0, 40)} in every parameter runs nothing`, async ({
      page,
    }) => {
      const { dialogs, errors } = await armTripwire(page);
      await page.goto(`./${poisoned(payload)}`);

      // The playground renders with the default instruction and says what it ignored.
      await expect(page.getByTestId('instr-text')).toHaveValue('fma.rn.f16');
      await expect(page.getByTestId('result-bits')).toHaveText('0x4280'); // 1.5 * 2 + 0.25 = 3.25
      const notices = page.getByTestId('url-notices');
      await expect(notices).toContainText('Parts of the link were ignored');
      await expect(notices).toContainText("unknown parameter '");
      await expect(notices).toContainText('schema version v=');
      // The payload is shown as text, never parsed as markup.
      const decoded = new URLSearchParams(`instr=${encodeURIComponent(payload)}`).get('instr')!;
      await expect(notices).toContainText(`instr '${decoded}'`);

      // Let anything deferred (image errors, timers, the worker) have its chance.
      await page.waitForTimeout(300);
      const t = await tripwire(page);
      expect(t.pwned).toEqual([]);
      expect(dialogs).toEqual([]);
      expect(t.violations).toEqual([]);
      expect(t.polluted).toBeUndefined();
      expect(errors).toEqual([]);
      // No element from the payload reached the DOM.
      await expect(page.locator('img, svg[onload], iframe, object, embed')).toHaveCount(0);
      await expect(page.locator('script:not([src])')).toHaveCount(0);
      // The address bar now holds the clean, re-encoded state.
      expect(new URL(page.url()).search).toBe(
        '?v=3&instr=fma.rn.f16&target=sm_90&ptx=8.6&a=0x3e00&b=0x4000&c=0x3400',
      );
    });
  }
});
