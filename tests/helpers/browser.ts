import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'puppeteer-core';

/** Where a Chromium may be: $SVC_CHROMIUM (`none` turns the browser tests off), then the Debian package's and the usual names. */
export function findChromium(env = process.env): string | null {
  if (env.SVC_CHROMIUM === 'none') return null;
  const candidates = [
    env.SVC_CHROMIUM,
    '/usr/bin/chromium',
    '/usr/bin/chromium-browser',
    '/usr/bin/google-chrome',
    '/usr/bin/google-chrome-stable',
  ];
  return candidates.find((p): p is string => Boolean(p && existsSync(p))) ?? null;
}

let shared: Promise<Browser> | null = null;
let told = false;

/**
 * The one headless Chromium every browser test shares (started on first use, closed when the
 * test process exits). Null, after ONE printed line for the whole run, when none is installed:
 * the browser tests then skip and the rest of the suite runs (.ci/run installs chromium).
 */
export async function sharedBrowser(): Promise<Browser | null> {
  const executablePath = findChromium();
  if (!executablePath) {
    if (!told)
      process.stdout.write(
        'browser tests skipped: no Chromium found (apt-get install -y chromium, or set SVC_CHROMIUM)\n',
      );
    told = true;
    return null;
  }
  shared ??= (async () => {
    const { launch } = await import('puppeteer-core');
    const browser = await launch({
      executablePath,
      headless: true,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--disable-dev-shm-usage',
      ],
      userDataDir: mkdtempSync(join(tmpdir(), 'svc-chromium-')),
    });
    process.once('exit', () => browser.process()?.kill('SIGKILL'));
    return browser;
  })();
  return shared;
}

/** A fresh incognito-like context and page, collecting the page's errors (a CSP violation is one). */
export async function openPage(browser: Browser): Promise<{ page: Page; errors: string[]; close(): Promise<void> }> {
  const context = await browser.createBrowserContext();
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  await page.setViewport({ width: 1000, height: 680 });
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(String((err as Error).message ?? err)));
  page.on('console', (msg) => msg.type() === 'error' && errors.push(msg.text()));
  return { page, errors, close: () => context.close() };
}
