import type { Browser, Page } from 'puppeteer-core';
import * as assert from 'uvu/assert';
import { createUser } from './accounts.js';
import { openPage } from './browser.js';
import { type ConsoleDaemon, startConsoleDaemon } from './console-daemon.js';
import type { TestApp } from './test-app.js';

/**
 * One console browser test: a daemon and a fresh page for `body`, both closed after it however it
 * ends. The page must have logged no error on the way (a CSP violation is one).
 */
export async function withConsole(
  browser: Browser,
  body: (d: ConsoleDaemon, page: Page) => Promise<void>,
): Promise<void> {
  const d = await startConsoleDaemon();
  const { page, errors, close } = await openPage(browser);
  try {
    await body(d, page);
    assert.equal(errors, []);
  } finally {
    await close();
    await d.close();
  }
}

/** A company-tier user who owns one Company (their only one, so the console picks it at login), and the headers that act in it. */
export async function companyOwner(t: TestApp, name = 'Acme') {
  const u = await createUser(t, { tier: 'company' });
  const company = (await t.post('/api/companies', { name }, u.auth)).body as { id: string; name: string };
  return { u, company, tenant: { ...u.auth, 'x-company': company.id } };
}

/**
 * The page fits `width` without a sideways scroll: its own scroll width is within the viewport, and
 * no button, link or field lies off-screen (an action the user could not reach).
 */
export async function assertFits(page: Page, width: number, what: string): Promise<void> {
  const { scrollWidth, offscreen } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    offscreen: [...document.querySelectorAll('button, a, input, select, textarea')]
      .filter((el) => {
        const r = el.getBoundingClientRect();
        return r.width > 0 && (r.right > window.innerWidth + 0.5 || r.left < -0.5) && !el.classList.contains('skip');
      })
      .map((el) => el.outerHTML.slice(0, 80)),
  }));
  assert.ok(scrollWidth <= width, `${what} at ${width} px lays out ${scrollWidth} px wide`);
  assert.equal(offscreen, [], `${what} at ${width} px has controls off-screen`);
}
