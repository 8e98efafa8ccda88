/**
 * Issue 16 in the browser: the built page runs under its own Content-Security-Policy (the meta tag
 * of dist/index.html) with every format, and a link's regular expression cannot freeze the tab.
 */
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { dropBinary, dropFiles, openApp, waitForCaptures } from './support.ts';

test('the page works under its Content-Security-Policy: demo, NVTXT, Nsight SQLite (WebAssembly)', async ({ page }) => {
  const violations: string[] = [];
  page.on('console', (m) => {
    if (/Content.Security.Policy|Refused to/i.test(m.text())) violations.push(m.text());
  });
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => console.error(`Refused to: CSP ${e.violatedDirective} ${e.blockedURI}`));
  });
  await openApp(page, '?demo');
  await waitForCaptures(page, 1);
  const csp = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
  expect(csp).toContain("script-src 'self' 'wasm-unsafe-eval' 'sha256-");
  await dropBinary(page, 'cnn.sqlite', new Uint8Array(readFileSync('../shared/fixtures/nsys/cnn-h100-nsys2025.3.sqlite')));
  await waitForCaptures(page, 2, 60_000);
  // The inline theme script ran (its hash is allowed): the theme is set before the app starts.
  expect(await page.evaluate(() => document.documentElement.dataset.theme)).toMatch(/^(light|dark)$/);
  expect(violations).toEqual([]);
});

test('a link with a catastrophic regular expression does not freeze the tab', async ({ page }) => {
  await openApp(page);
  const evil = 'a'.repeat(40) + '!';
  await dropFiles(page, [{ name: 'evil.nvtxt', text: `RangePush, 1, ns, 1, 2, 0, 0, "${evil}", 0\nRangePop, 5, ns, 1, 2\nMarker, 3, ns, 1, 2, 0, 0, "aaa", 0\n` }]);
  await waitForCaptures(page, 1);
  // The link's view (issue 16's probe: ^(a+)+$ as a regular expression) arrives.
  await page.evaluate(() => {
    window.location.hash = '#v=1&c=evil.nvtxt&q=^(a%2B)%2B$&qo=r';
  });
  await expect(page.getByTestId('search-bar')).toBeVisible();
  // The page answers at once while the expression runs in its worker, and says it gave up.
  const t0 = Date.now();
  expect(await page.evaluate(() => 1 + 1)).toBe(2);
  expect(Date.now() - t0).toBeLessThan(1000);
  await expect(page.getByTestId('search-status')).toHaveText(/Too slow: stopped after 1 s/, { timeout: 10_000 });
  // A sane expression afterwards matches in a fresh worker.
  await page.getByRole('search').getByRole('textbox').fill('^a+$');
  await expect(page.getByTestId('search-status')).toHaveText(/1 match/, { timeout: 10_000 });
});
