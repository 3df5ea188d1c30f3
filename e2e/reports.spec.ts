import { expect, test } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { writeReport } from './fixtures/reports';

test.describe('opening a saved report', () => {
  test('a flawed agent’s report shows the level, the failures with recommendations, and the card', async ({ page }) => {
    const file = writeReport('flawed', { runId: 'e2e-flawed', flawed: true, toolError: true });
    await page.goto('/');
    await page.getByLabel('Open a JSON report').setInputFiles(file);
    await expect(page).toHaveURL(/\/runs\/e2e-flawed$/);
    const level = page.getByRole('status', { name: 'Conformance level' });
    await expect(level).toContainText('minimal');
    await expect(level).toContainText('provisional');
    const failed = page.getByRole('table', { name: 'Failed tests' });
    await expect(failed.getByRole('row')).toHaveCount(4);
    await expect(failed).toContainText('Throw TaskNotFoundError (-32001) when the task store has no such task.');
    await expect(failed).toContainText('Set final: true on the last status-update and close the stream.');
    // Our tool's error is reported as ours.
    await expect(page.getByText(/The proxy could not reach the agent \(connect_failed\)/).first()).toBeVisible();
    await expect(failed).not.toContainText('tasks/resubscribe reattaches');

    const results = page.getByRole('table', { name: 'Results' });
    await page.getByLabel('Status', { exact: true }).selectOption('fail');
    await expect(results.getByRole('button', { name: /^Re-run / })).toHaveCount(3);
    await page.getByLabel('Category', { exact: true }).selectOption('interop');
    await results.getByRole('button', { name: 'The endpoint answers CORS preflight requests', exact: true }).click();
    await expect(results).toContainText('Answer OPTIONS with Access-Control-Allow-Origin');
    await expect(results).toContainText('v0.3.0 §3.1');
    // Evidence links open the exchange in the wire inspector and move focus there.
    await results.getByRole('button', { name: /^Open exchange x\d+ in the wire inspector$/ }).click();
    const inspector = page.getByRole('region', { name: 'Wire inspector' });
    await expect(inspector.getByRole('heading', { name: 'Wire inspector' })).toBeFocused();
    await expect(inspector).toContainText('OPTIONS http://127.0.0.1:9999/a2a');

    await expect(page.getByRole('heading', { name: 'Agent card' })).toBeVisible();
    await expect(page.getByRole('group', { name: 'Agent card as received' })).toContainText('Synthetic Echo Agent');

    // The inspector is a side pane over the page (issue 25): Escape closes it, then the page is whole again.
    await page.keyboard.press('Escape');
    await expect(page.locator('.inspector-open')).toHaveCount(0);
    // The "Jump to" links move focus to the part of the page they name.
    const jump = page.getByRole('navigation', { name: 'Jump to' });
    await jump.getByRole('link', { name: 'Results' }).click();
    await expect(page.getByRole('heading', { name: 'Results', exact: true })).toBeFocused();
    await jump.getByRole('link', { name: 'Agent card' }).click();
    await expect(page.getByRole('heading', { name: 'Agent card' })).toBeFocused();
  });

  test('Export JSON downloads a report that opens again', async ({ page }) => {
    const file = writeReport('roundtrip', { runId: 'e2e-roundtrip' });
    await page.goto('/history');
    await page.getByLabel('Open a JSON report').setInputFiles(file);
    await expect(page.getByRole('status', { name: 'Conformance level' })).toContainText('full');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export JSON' }).click()]);
    const body = JSON.parse(readFileSync((await download.path())!, 'utf8')) as { runId: string; conformanceLevel: string; events?: unknown[] };
    expect(body.runId).toBe('e2e-roundtrip');
    expect(body.conformanceLevel).toBe('full');
    expect(body.events?.length).toBeGreaterThan(100);
  });

  test('each export button downloads its format, built in the browser', async ({ page }) => {
    const file = writeReport('formats', { runId: 'e2e-formats', flawed: true });
    await page.goto('/');
    await page.getByLabel('Open a JSON report').setInputFiles(file);
    await expect(page.getByRole('status', { name: 'Conformance level' })).toContainText('minimal');
    const expectations: [string, RegExp, string][] = [
      ['Export Markdown', /\.md$/, '| Test | Category | Message | Recommendation |'],
      ['Export JUnit', /\.xml$/, '<testsuite'],
      ['Export HTML', /\.html?$/, 'minimal'],
      ['Export SARIF', /\.sarif$/, '"version": "2.1.0"'],
    ];
    for (const [button, ext, content] of expectations) {
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: button }).click()]);
      expect(download.suggestedFilename()).toMatch(ext);
      expect(readFileSync((await download.path())!, 'utf8')).toContain(content);
    }
    // No fallback note: every format was built, not replaced by raw JSON.
    await expect(page.getByRole('group', { name: 'Export report' }).getByRole('note')).toHaveCount(0);
  });

  test('the HTML report opens on the verdict (badge, verdict line, agent, category strip) at 1400×900 and 390×844, and prints light', async ({
    page,
    browser,
  }) => {
    const file = writeReport('html-first-screen', { runId: 'e2e-html', flawed: true });
    await page.goto('/');
    await page.getByLabel('Open a JSON report').setInputFiles(file);
    await expect(page.getByRole('status', { name: 'Conformance level' })).toContainText('minimal');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export HTML' }).click()]);
    const html = readFileSync((await download.path())!, 'utf8');
    for (const [width, height, colorScheme] of [
      [1400, 900, 'light'],
      [390, 844, 'dark'],
    ] as const) {
      const ctx = await browser.newContext({ viewport: { width, height }, colorScheme });
      const p = await ctx.newPage();
      await p.setContent(html);
      const overview = p.getByRole('region', { name: 'Overview' });
      const badge = overview.locator('.level-badge');
      await expect(badge).toHaveText('minimal');
      await expect(overview.locator('.verdict-line')).toHaveText(
        /^minimal · (Nothing lowers the level|\d+ lowers? the level: \d+ (MUST|SHOULD)[^·]*) · \d+ advisor(y|ies)$/,
      );
      // The five conformance categories: this fixture report has no security-review results, so that tile is left out.
      await expect(overview.getByRole('list', { name: 'Checks per category' }).getByRole('listitem')).toHaveCount(5);
      // The badge and the verdict line are inside the first viewport; nothing scrolls sideways.
      for (const el of [badge, overview.locator('.verdict-line')]) {
        const box = (await el.boundingBox())!;
        expect(box.y + box.height, `${width}px`).toBeLessThanOrEqual(height);
      }
      expect(await p.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      await p.screenshot({ path: test.info().outputPath(`html-report-${width}.png`) });
      // Print: light paper even when the reader's system is dark.
      await p.emulateMedia({ media: 'print', colorScheme: 'dark' });
      expect(await p.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(255, 255, 255)');
      expect(await p.evaluate(() => getComputedStyle(document.querySelector('.verdict')!).backgroundColor)).toBe('rgb(255, 255, 255)');
      expect(await p.evaluate(() => getComputedStyle(document.querySelector('thead')!).display)).toBe('table-header-group');
      await ctx.close();
    }
  });

  test('a file that is not a report gets a clear error', async ({ page }) => {
    await page.goto('/');
    await page.getByLabel('Open a JSON report').setInputFiles({ name: 'bad.json', mimeType: 'application/json', buffer: Buffer.from('{"hello": 1}') });
    await expect(page.getByRole('alert')).toContainText('bad.json');
    await page.getByLabel('Open a JSON report').setInputFiles({ name: 'broken.json', mimeType: 'application/json', buffer: Buffer.from('{not json') });
    await expect(page.getByRole('alert')).toContainText('broken.json');
  });
});

test('a card whose fields contain HTML and script is rendered inert', async ({ page }) => {
  const file = writeReport('hostile', { runId: 'e2e-hostile', hostile: true });
  const dialogs: string[] = [];
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  await page.goto('/');
  await page.getByLabel('Open a JSON report').setInputFiles(file);
  const card = page.getByRole('group', { name: 'Agent card as received' });
  await expect(card).toContainText('<script>window.__pwned=1</script>');
  await expect(card).toContainText('<svg onload="window.__pwned=1">');
  await expect(card.locator('script, img, iframe, svg, b')).toHaveCount(0);
  await expect(card.getByRole('link', { name: 'javascript:alert(document.cookie)' })).toHaveCount(0);
  await expect(card.getByRole('link', { name: 'https://example.com', exact: true })).toHaveAttribute('rel', /noopener/);
  // History shows the hostile agent name as text too.
  await page.getByRole('link', { name: 'History', exact: true }).click();
  await expect(page.getByRole('table', { name: 'Past runs' })).toContainText('Evil <img src=x');
  expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
  expect(dialogs).toEqual([]);
});
