import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test, type Page } from '@playwright/test';
import { noSidewaysScroll, sharedPageGroup } from './fixtures/shared-page';

/**
 * Issue 25, the states around a run, at a laptop (1400×900) and a phone (390×844): an agent never exercised
 * is a message (what happened, Edit, Try again, the JSON export for CI), not a report of skipped checks;
 * focus follows Run and Stop.
 */
const level = (page: Page) => page.getByRole('status', { name: 'Conformance level' });
const verdict = (page: Page) => page.getByRole('region', { name: 'Verdict' });
const verdictHeading = (page: Page) => verdict(page).getByRole('heading', { level: 2 }).first();
const runStatus = (page: Page) => page.getByText(/^Run:/);

async function demoUrl(page: Page, id: string): Promise<string> {
  const res = await page.request.get('/api/demo-agents');
  const list = (await res.json()) as { id: string; url: string; baseUrl?: string }[];
  const d = list.find((a) => a.id === id)!;
  return d.baseUrl ?? d.url;
}

async function startRun(page: Page, url: string) {
  const edit = page.getByRole('button', { name: 'Edit the run setup' });
  if (await edit.isVisible()) await edit.click();
  await page.getByLabel('Agent URL', { exact: true }).fill(url);
  await page.getByRole('button', { name: 'Run conformance' }).click();
}

/** Nothing of a report: no result grid, no failures, no category tiles, no charts or timeline, one export (JSON). */
async function isAMessageNotAReport(page: Page) {
  await expect(page.getByRole('table', { name: 'Results' })).toHaveCount(0);
  await expect(page.getByRole('table', { name: 'Failed tests' })).toHaveCount(0);
  await expect(page.getByRole('list', { name: 'Results by category' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /^Re-run / })).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'Charts' })).toHaveCount(0);
  const exports = page.getByRole('group', { name: 'Export report' }).getByRole('button');
  await expect(exports).toHaveCount(1);
  await expect(exports).toHaveText('Export JSON (for CI)');
  // No red anywhere in the verdict: the level is grey and dashed.
  const colours = await verdict(page).evaluate((el) => {
    const out: string[] = [];
    for (const n of [el, ...el.querySelectorAll('*')]) {
      const cs = getComputedStyle(n);
      out.push(cs.color, cs.backgroundColor, cs.borderLeftColor);
    }
    return out;
  });
  const reddish = colours.filter((c) => {
    const m = /rgba?\((\d+), (\d+), (\d+)/.exec(c);
    if (!m) return false;
    const [r, g, b] = [Number(m[1]), Number(m[2]), Number(m[3])];
    return r > 150 && r > g * 1.8 && r > b * 1.8;
  });
  expect(reddish, 'no red in the not-assessed state').toEqual([]);
}

let web: Server | undefined;
let webUrl = '';
test.beforeAll(async () => {
  // A plain web site: an HTML page at every path, the well-known card paths included (an SPA's fallback).
  web = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end('<!doctype html><html><head><title>Shop</title></head><body><h1>Welcome to the shop</h1></body></html>');
  });
  await new Promise<void>((resolve) => web!.listen(0, '127.0.0.1', resolve));
  webUrl = `http://127.0.0.1:${(web.address() as AddressInfo).port}/`;
});
test.afterAll(async () => {
  await new Promise((resolve) => web?.close(resolve));
});

for (const viewport of [
  { name: 'laptop', width: 1400, height: 900 },
  { name: 'phone', width: 390, height: 844 },
]) {
  test.describe(`${viewport.name} ${viewport.width}x${viewport.height}`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } });

    test('nothing listening: a message with Edit and Try again, no report', async ({ page }) => {
      await page.goto('/');
      await startRun(page, 'http://127.0.0.1:9/agent');
      await expect(level(page)).toContainText('not assessed (unreachable)', { timeout: 60_000 });
      await expect(verdict(page).getByRole('heading', { name: 'Nothing is listening at 127.0.0.1:9 — check the port' })).toBeVisible();
      // Focus followed the run to its outcome (never left on <body>).
      await expect(verdict(page).getByRole('heading', { name: /Nothing is listening/ })).toBeFocused();
      await expect(verdict(page)).toContainText(/nothing answered at http:\/\/127\.0\.0\.1:9\/agent/);
      await isAMessageNotAReport(page);
      await noSidewaysScroll(page);
      await page.screenshot({ path: `test-results/issue25-unreachable-${viewport.name}.png` });
      // Try again runs the same URL again; Edit opens the form with focus in the URL field.
      await verdict(page).getByRole('button', { name: 'Try again' }).click();
      await expect(verdict(page).getByRole('heading', { name: /Nothing is listening/ })).toBeVisible({ timeout: 60_000 });
      await verdict(page).getByRole('button', { name: 'Edit' }).click();
      await expect(page.getByLabel('Agent URL', { exact: true })).toBeFocused();
      await expect(page.getByLabel('Agent URL', { exact: true })).toHaveValue('http://127.0.0.1:9/agent');
    });

    test('a web page: "This is a web page, not an A2A agent", no red failure', async ({ page }) => {
      await page.goto('/');
      await startRun(page, webUrl);
      await expect(level(page)).toContainText('not assessed (not an A2A agent)', { timeout: 60_000 });
      await expect(verdict(page).getByRole('heading', { name: 'This is a web page, not an A2A agent' })).toBeVisible();
      await expect(page.getByText(/critical/)).toHaveCount(0);
      await isAMessageNotAReport(page);
      await noSidewaysScroll(page);
      await page.screenshot({ path: `test-results/issue25-web-page-${viewport.name}.png` });
    });

    test('focus: Enter runs and focus is on the verdict heading; one Tab to "Skip to first failure"; after Stop, Run again', async ({ page }) => {
      await page.goto('/');
      const field = page.getByLabel('Agent URL', { exact: true });
      await field.fill(await demoUrl(page, 'flawed'));
      await field.press('Enter');
      await expect(verdictHeading(page)).toBeFocused();
      await expect(runStatus(page)).toContainText('Completed', { timeout: 120_000 });
      await expect(verdictHeading(page)).toBeFocused();
      await page.keyboard.press('Tab');
      const skip = page.getByRole('navigation', { name: 'Jump to' }).getByRole('link', { name: 'Skip to first failure' });
      await expect(skip).toBeFocused();
      await page.screenshot({ path: `test-results/issue25-focus-skip-${viewport.name}.png` });
      await page.keyboard.press('Enter');
      const first = page.getByRole('table', { name: 'Failed tests' }).locator('.row-toggle').first();
      await expect(first).toBeFocused();
      await expect(first).toBeInViewport();
      // Stop: focus goes to the button that runs again, once it can be pressed.
      await page.getByRole('button', { name: 'Run again' }).click();
      await expect(verdictHeading(page)).toBeFocused();
      await page.getByRole('button', { name: 'Stop', exact: true }).click();
      await expect(page.getByRole('button', { name: 'Run again' })).toBeEnabled({ timeout: 30_000 });
      await expect(page.getByRole('button', { name: 'Run again' })).toBeFocused();
    });

    test('nothing failed: no "Skip to first failure", no "Failed tests" link that goes nowhere', async ({ page }) => {
      await page.goto('/');
      await startRun(page, await demoUrl(page, 'legacy'));
      await expect(runStatus(page)).toContainText('Completed', { timeout: 120_000 });
      await expect(level(page)).toContainText('full');
      const nav = page.getByRole('navigation', { name: 'Jump to' });
      await expect(nav.getByRole('link', { name: 'Results' })).toBeVisible();
      await expect(nav.getByRole('link', { name: 'Failed tests' })).toHaveCount(0);
      await expect(nav.getByRole('link', { name: 'Skip to first failure' })).toHaveCount(0);
    });

    // One run of the flawed agent, read by two tests in turn (a run costs 5-10 s in CI).
    test.describe('a run of the flawed agent', () => {
      const flawedPage = sharedPageGroup(viewport);

      test('Open exchange: a side pane over the page, no jump; Escape closes it and focus returns to the failure', async () => {
        const page = flawedPage();
        await page.goto('/');
        await startRun(page, await demoUrl(page, 'flawed'));
        await expect(runStatus(page)).toContainText('Completed', { timeout: 120_000 });
        const failed = page.getByRole('table', { name: 'Failed tests' });
        const toggle = failed.locator('tr.failure-row').first().locator('.row-toggle');
        await toggle.click();
        const open = failed.locator('tr.failure-details').getByRole('button', { name: 'Open exchange' });
        await open.scrollIntoViewIfNeeded();
        const before = await page.evaluate(() => window.scrollY);
        const openerTop = (await open.boundingBox())!.y;
        await open.click();
        const pane = page.getByRole('region', { name: 'Wire inspector' });
        await expect(pane.getByRole('heading', { name: 'Wire inspector' })).toBeFocused();
        await expect(pane.locator('.status-line')).toBeVisible();
        // Over the page, whole in the viewport; the page did not move (the failure is still where it was).
        const box = (await pane.boundingBox())!;
        expect(box.y).toBeGreaterThanOrEqual(0);
        expect(box.y + box.height).toBeLessThanOrEqual(viewport.height + 1);
        expect(await page.evaluate(() => window.scrollY)).toBe(before);
        await page.screenshot({ path: `test-results/issue25-inspector-${viewport.name}.png` });
        await page.keyboard.press('Escape');
        await expect(page.locator('.inspector-open')).toHaveCount(0);
        await expect(open).toBeFocused();
        expect(Math.abs((await open.boundingBox())!.y - openerTop)).toBeLessThan(2);
        // Folded again for the next test of the group, which opens the failure it re-runs.
        await toggle.click();
        await expect(failed.locator('tr.failure-details')).toHaveCount(0);
      });

      test('a re-run keeps its row, its evidence and the counts until the new result lands, with a spinner', async () => {
        // The flawed agent's finished run, from the test before (its failures folded).
        const page = flawedPage();
        await expect(runStatus(page)).toContainText('Completed');
        const failed = page.getByRole('table', { name: 'Failed tests' });
        // A check that takes a while (it reads a stream), so the re-run lasts long enough to be seen.
        const row = failed.locator('tr.failure-row').filter({ hasText: 'streaming.terminal' });
        await row.locator('.row-toggle').click();
        const details = failed.locator('tr.failure-details').first();
        await expect(details).toBeVisible();
        const rows = await failed.locator('tr.failure-row').count();
        const line = (await verdict(page).locator('.verdict-line').textContent())!;
        // Sample every animation frame during the re-run: the failure rows, the open evidence, the verdict line.
        await page.evaluate(() => {
          const w = window as unknown as { __rerunSeen: { rows: number; open: number; line: string }[]; __stop?: boolean };
          w.__rerunSeen = [];
          const tick = () => {
            w.__rerunSeen.push({
              rows: document.querySelectorAll('table.failed-table tr.failure-row').length,
              open: document.querySelectorAll('table.failed-table tr.failure-details').length,
              line: document.querySelector('.verdict-card .verdict-line')?.textContent ?? '',
            });
            if (!w.__stop) requestAnimationFrame(tick);
          };
          requestAnimationFrame(tick);
          // Every DOM change, however short the re-run: was a spinner ever shown in the open failure?
          new MutationObserver(() => {
            if (document.querySelector('table.failed-table tr.failure-details .spinner')) (w as unknown as { __spun: boolean }).__spun = true;
          }).observe(document.body, { childList: true, subtree: true });
        });
        await details.getByRole('button', { name: /^Re-run / }).click();
        await expect(details.getByRole('status')).toHaveText(/^Re-run: /, { timeout: 60_000 });
        const seen = await page.evaluate(() => {
          const w = window as unknown as { __rerunSeen: { rows: number; open: number; line: string }[]; __stop?: boolean };
          w.__stop = true;
          return w.__rerunSeen;
        });
        expect(seen.length).toBeGreaterThan(5);
        expect(await page.evaluate(() => (window as unknown as { __spun?: boolean }).__spun), 'a spinner while it re-ran').toBe(true);
        expect(new Set(seen.map((x) => x.rows)), 'the failure rows never changed during the re-run').toEqual(new Set([rows]));
        expect(
          seen.every((x) => x.open >= 1),
          'the evidence stayed open',
        ).toBe(true);
        expect(new Set(seen.map((x) => x.line)), 'the counts stayed frozen').toEqual(new Set([line]));
      });
    });

    test('wording: Settings has an h1; the Agent URL placeholder reads as an example', async ({ page }) => {
      await page.goto('/settings');
      await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
      await page.goto('/');
      await expect(page.getByLabel('Agent URL', { exact: true })).toHaveAttribute('placeholder', /^e\.g\. http/);
    });
  });
}
