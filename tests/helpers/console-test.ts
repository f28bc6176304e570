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
