import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import * as assert from 'uvu/assert';
import type { Page } from 'puppeteer-core';

/**
 * Drives the console the way a person does: fields are found by their visible label and filled
 * by typing, buttons by their text. A page that drops a label breaks these helpers, on purpose.
 */
export async function fill(page: Page, label: string, value: string): Promise<void> {
  const id = await page.waitForFunction(
    (text) => [...document.querySelectorAll('label')].find((l) => l.textContent?.trim() === text)?.htmlFor || null,
    {},
    label,
  );
  const selector = `[id="${await id.jsonValue()}"]`;
  await page.$eval(selector, (el) => ((el as HTMLInputElement).value = ''));
  await page.focus(selector);
  // React tracks the value it set: clear through a real edit so onChange sees an empty field.
  await page.keyboard.down('Control');
  await page.keyboard.press('A');
  await page.keyboard.up('Control');
  await page.keyboard.press('Backspace');
  await page.type(selector, value);
}

/**
 * Clicks the enabled button (or link) whose text, or accessible label, is exactly `text`. A button
 * wins over a link of the same name (the nav's "Log in" link and the form's "Log in" button).
 */
export async function press(page: Page, text: string): Promise<void> {
  const handle = await page.waitForFunction(
    (t) =>
      [...document.querySelectorAll('button'), ...document.querySelectorAll('a')].find(
        (b) =>
          (b.getAttribute('aria-label') === t || b.textContent?.trim() === t) && !(b as HTMLButtonElement).disabled,
      ) ?? null,
    {},
    text,
  );
  await (handle as unknown as { click(): Promise<void> }).click();
}

export async function waitForText(page: Page, text: string): Promise<void> {
  await page
    .waitForFunction((t) => document.body.innerText.includes(t), {}, text)
    .catch(async (err) => {
      throw new Error(
        `"${text}" never showed; the page says:\n${(await page.evaluate(() => document.body.innerText)).slice(0, 1500)}\n${err}`,
      );
    });
}

export async function waitForHeading(page: Page, text: string): Promise<void> {
  await page
    .waitForFunction((t) => document.querySelector('h1')?.textContent === t, {}, text)
    .catch(async (err) => {
      throw new Error(
        `heading "${text}" never showed; the page says:\n${(await page.evaluate(() => document.body.innerText)).slice(0, 1500)}\n${err}`,
      );
    });
}

/** Every field has a label and every button a name: what a keyboard or screen-reader user needs. */
export async function assertLabelled(page: Page): Promise<void> {
  const unnamed = await page.evaluate(() => {
    const bad: string[] = [];
    for (const el of document.querySelectorAll('input, select, textarea')) {
      const id = el.getAttribute('id');
      if (!(id && document.querySelector(`label[for="${CSS.escape(id)}"]`)) && !el.getAttribute('aria-label'))
        bad.push(el.outerHTML.slice(0, 80));
    }
    for (const b of document.querySelectorAll('button'))
      if (!b.textContent?.trim() && !b.getAttribute('aria-label')) bad.push(b.outerHTML.slice(0, 80));
    return bad;
  });
  assert.equal(unnamed, [], 'unlabelled controls');
}

/** With SVC_SCREENSHOTS_DIR set (npm run screenshots), saves the page for docs/console.md. */
export async function screenshot(page: Page, name: string, options: { keepScroll?: boolean } = {}): Promise<void> {
  const dir = process.env.SVC_SCREENSHOTS_DIR;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  await page.evaluate((keep) => {
    (document.activeElement as HTMLElement | null)?.blur();
    if (!keep) window.scrollTo(0, 0);
  }, Boolean(options.keepScroll));
  await page.screenshot({ path: join(dir, `${name}.png`) as `${string}.png`, fullPage: false });
}

/** Logs in on the console's password tab (answering the TOTP step when `totp` gives a code). */
export async function logInWithPassword(
  page: Page,
  url: string,
  email: string,
  password: string,
  totp?: () => string,
): Promise<void> {
  await page.goto(url);
  await waitForHeading(page, 'Log in');
  await fill(page, 'E-mail', email);
  await fill(page, 'Password', password);
  await press(page, 'Log in');
  if (totp) {
    await waitForText(page, 'Enter the code from your authenticator app');
    await fill(page, 'Authenticator code', totp());
    await press(page, 'Verify');
  }
  await waitForHeading(page, 'Profile');
}

/** Picks `value` in the select whose visible (or screen-reader) label is exactly `label`. */
export async function choose(page: Page, label: string, value: string): Promise<void> {
  const id = await page.waitForFunction(
    (text) => [...document.querySelectorAll('label')].find((l) => l.textContent?.trim() === text)?.htmlFor || null,
    {},
    label,
  );
  await page.select(`[id="${await id.jsonValue()}"]`, value);
}
