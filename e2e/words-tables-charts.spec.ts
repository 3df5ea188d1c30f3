import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { axeScan } from './fixtures/axe';
import { noSidewaysScroll, sharedPageGroup } from './fixtures/shared-page';

/**
 * Issue 25, the rest of items 6, 8 and 9, at a laptop (1400×900) and a phone (390×844): the verdict counts what
 * lowers the level and names the worst first; a URL without a scheme is completed; demo buttons run; category tiles
 * count "not run" apart and filter the results; charts label latency by operation with round ticks and whole labels;
 * the HTML report folds the requirement and stacks cards on a phone; the registry never exports a version it has not
 * seen; Registry and History tables are cards on a phone; "Send request again" lands in view. Axe-clean at each step.
 */
const SHOTS = process.env.SHOTS_DIR ?? 'test-results';
const level = (page: Page) => page.getByRole('status', { name: 'Conformance level' });
const verdict = (page: Page) => page.getByRole('region', { name: 'Verdict' });
const runStatus = (page: Page) => page.getByText(/^Run:/);

interface Demo {
  id: string;
  label: string;
  url: string;
  baseUrl?: string;
}
async function demo(page: Page, id: string): Promise<Demo> {
  const res = await page.request.get('/api/demo-agents');
  return ((await res.json()) as Demo[]).find((a) => a.id === id)!;
}
const base = (d: Demo) => d.baseUrl ?? d.url;

async function startRun(page: Page, url: string) {
  const edit = page.getByRole('button', { name: 'Edit the run setup' });
  if (await edit.isVisible()) await edit.click();
  await page.getByLabel('Agent URL', { exact: true }).fill(url);
  await page.getByRole('button', { name: 'Run conformance' }).click();
}

async function axeClean(page: Page, what: string) {
  const r = await axeScan(page);
  const bad = r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(
    bad.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
    `axe, ${what}`,
  ).toEqual([]);
}

/** Rows of the Results table shown for a status and level (the table's own filters). */
async function resultRows(page: Page, status: string, lvl: string): Promise<number> {
  const filters = page.getByRole('group', { name: 'Filter results' });
  await filters.getByLabel('Status').selectOption(status);
  await filters.getByLabel('Level').selectOption(lvl);
  const n = await page.getByRole('table', { name: 'Results' }).locator('tr.result-row').count();
  await filters.getByLabel('Status').selectOption('all');
  await filters.getByLabel('Level').selectOption('all');
  return n;
}

for (const viewport of [
  { name: 'laptop', width: 1400, height: 900 },
  { name: 'phone', width: 390, height: 844 },
]) {
  test.describe(`${viewport.name} ${viewport.width}x${viewport.height}`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } });

    // One run of the flawed agent, read by three tests in turn (a run costs 5-10 s in CI; the tests only read it).
    test.describe('a run of the flawed agent', () => {
      const flawedPage = sharedPageGroup(viewport);

      test('a demo button runs; the verdict counts what lowers the level by strength and names the worst first; tiles filter the results', async () => {
        const page = flawedPage();
        await page.goto('/');
        const flawed = await demo(page, 'flawed');
        // One click: the form is filled and the run starts (no second "Run conformance").
        await page.getByRole('button', { name: `Run demo agent ${flawed.label}` }).click();
        await expect(level(page)).toHaveText('Running');
        await expect(runStatus(page)).toContainText('Completed', { timeout: 120_000 });
        await expect(page.locator('.run-bar-url')).toHaveText(base(flawed));

        const line = (await verdict(page).locator('.verdict-line').textContent())!;
        expect(line).not.toMatch(/required failure/);
        const m = /^(\d+) lowers? the level: (?:(\d+) MUST)?(?:, )?(?:(\d+) SHOULD)?(?:; (\d+) critical)? · /.exec(line);
        expect(m, line).not.toBeNull();
        const n = (i: number) => Number(m![i] ?? 0);
        const [total, must, should, critical] = [n(1), n(2), n(3), n(4)];
        // The counts are the run's: the failed tests listed, and the Results filtered by status and level.
        const failedRows = await page.getByRole('table', { name: 'Failed tests' }).locator('tr.failure-row').count();
        expect(total).toBe(failedRows);
        expect(must + should).toBe(total);
        expect(await resultRows(page, 'fail', 'MUST')).toBe(must);
        expect(await resultRows(page, 'fail', 'SHOULD')).toBe(should);
        // The reason names the worst first: with critical failures, they lead it.
        const reason = (await verdict(page).locator('.level-reason').textContent())!;
        if (critical) expect(reason).toMatch(/^Critical \(fix first\): /);
        else expect(reason).not.toMatch(/Critical/);

        // A tile with a failure shows its category's results: the Results are filtered to it, in view.
        const tiles = page.getByRole('list', { name: 'Results by category' });
        const tile = tiles.getByRole('button', { name: /\d+ fail/ }).first();
        await expect(tile).toHaveAccessibleDescription(/Shows only this category in the Results table/);
        const category = (await tile.locator('.cat-name').textContent())!.trim();
        await tile.click();
        await expect(tiles.getByRole('button', { pressed: true })).toHaveCount(1);
        const results = page.getByRole('table', { name: 'Results' });
        await expect(page.getByRole('heading', { name: 'Results', exact: true })).toBeInViewport();
        await expect(results.locator('tbody')).toHaveCount(1);
        await expect(results.locator('tbody')).toHaveAttribute('aria-label', category);
        await expect(page.getByRole('group', { name: 'Filter results' }).getByLabel('Category')).not.toHaveValue('all');
        await page.screenshot({ path: `${SHOTS}/issue25-tile-filter-${viewport.name}.png` });
        await axeClean(page, 'verdict and results filtered by a tile');
        // Pressed again: every category again.
        await tiles.getByRole('button', { pressed: true }).click();
        await expect(tiles.getByRole('button', { pressed: true })).toHaveCount(0);
        expect(await results.locator('tbody').count()).toBeGreaterThan(1);
        await noSidewaysScroll(page);
        await page.evaluate(() => window.scrollTo(0, 0));
        await page.screenshot({ path: `${SHOTS}/issue25-verdict-words-${viewport.name}.png` });
      });

      test('the HTML report: requirement folded, failures as cards on a phone, no doubled quotes, no mid-word breaks', async () => {
        // The flawed agent's finished run, from the first test of this group; the report opens in a page of its own.
        const app = flawedPage();
        await expect(runStatus(app)).toContainText('Completed');
        const [download] = await Promise.all([
          app.waitForEvent('download'),
          app.getByRole('group', { name: 'Export report' }).getByRole('button', { name: 'Export HTML' }).click(),
        ]);
        const html = readFileSync((await download.path())!, 'utf8');
        const page = await app.context().newPage();
        await page.setContent(html);
        const failed = page.getByRole('region', { name: 'Failed tests' });
        const rows = failed.locator('tbody tr');
        expect(await rows.count()).toBeGreaterThan(2);
        for (const row of await rows.all()) {
          const details = row.locator('details');
          await expect(details).toHaveCount(1);
          await expect(details).not.toHaveAttribute('open');
          // Folded: the requirement takes one summary line, never the height of the row.
          const req = (await details.boundingBox())!.height;
          expect(req, 'the requirement is one summary line while folded').toBeLessThan(60);
        }
        for (const q of await page.locator('blockquote.req').allTextContents()) expect(q).not.toMatch(/""|“"|"”/);
        // On a phone each row is a card: one column, every cell named, no word broken mid-letter, nothing sideways.
        const layout = await page.evaluate(() => {
          const row = document.querySelector('table.failed tbody tr')!;
          const cells = [...row.children] as HTMLElement[];
          const msg = row.querySelector('td.msg') as HTMLElement;
          return {
            display: getComputedStyle(row).display,
            lefts: [...new Set(cells.map((c) => Math.round(c.getBoundingClientRect().left)))].length,
            wrap: getComputedStyle(msg).overflowWrap,
            label: getComputedStyle(msg, '::before').content,
            scroll: document.documentElement.scrollWidth,
            inner: window.innerWidth,
          };
        });
        expect(layout.wrap).toBe('break-word');
        expect(layout.scroll).toBeLessThanOrEqual(layout.inner);
        if (viewport.width < 600) {
          expect(layout.display).toBe('block');
          expect(layout.lefts).toBe(1);
          expect(layout.label).toBe('"Message: "');
        } else expect(layout.display).toBe('table-row');
        // The timing section (issue 23): the time to verdict and every observation window the run used, with its size.
        const timing = page.getByRole('region', { name: 'Timing' });
        await expect(timing).toContainText('Time to verdict');
        const windows = timing.getByRole('table', { name: 'Observation windows the run used' }).locator('tbody tr');
        expect(await windows.count()).toBeGreaterThan(0);
        await expect(windows.first().locator('td[data-label="Size"]')).toHaveText(/^\d+ ms$/);
        if (viewport.width < 600) await expect(windows.first()).toHaveCSS('display', 'block');
        await rows.first().locator('summary').click();
        await expect(rows.first().locator('blockquote.req').first()).toBeVisible();
        await page.screenshot({ path: `${SHOTS}/issue25-html-report-${viewport.name}.png`, fullPage: false });
        await failed.scrollIntoViewIfNeeded();
        await page.screenshot({ path: `${SHOTS}/issue25-html-report-failed-${viewport.name}.png` });
        await axeClean(page, 'HTML report');
        await page.close();
      });

      test('"Send request again" from a failed check: the newest turn is in the viewport', async () => {
        const page = flawedPage();
        // The flawed agent's finished run, from the first test of this group.
        await expect(runStatus(page)).toContainText('Completed');
        const failed = page.getByRole('table', { name: 'Failed tests' });
        await failed.getByRole('row').filter({ hasText: 'errors.task-not-found' }).getByRole('button', { expanded: false }).click();
        await failed.getByRole('button', { name: /^Open in console: exchange / }).click();
        await expect(page).toHaveURL(/\/console\?exchange=/);
        await expect(page.getByRole('status').filter({ hasText: 'Connected to' })).toBeVisible();
        const editor = page.getByRole('form', { name: 'Request editor' });
        const send = editor.getByRole('button', { name: 'Send request again' });
        await send.scrollIntoViewIfNeeded();
        await send.click();
        const turn = page.getByRole('log', { name: 'Conversation' }).getByRole('article', { name: 'Turn c1' });
        await expect(turn).toBeInViewport();
        await expect(turn).toContainText(/-32602|-32001|tasks\/get/);
        await page.screenshot({ path: `${SHOTS}/issue25-send-again-${viewport.name}.png` });
        await axeClean(page, 'console after Send request again');
      });
    });

    // The URL test's run of the legacy agent is the History row the registry test reads (same browser context).
    test.describe('a run of the legacy agent', () => {
      const urlPage = sharedPageGroup(viewport);

      test('a URL typed without http:// is completed (http:// for this machine) and runs; shown to the user', async () => {
        const page = urlPage();
        await page.goto('/');
        const legacy = base(await demo(page, 'legacy'));
        const bare = legacy.replace(/^http:\/\//, '');
        const field = page.getByLabel('Agent URL', { exact: true });
        await field.fill(bare);
        await expect(field).toHaveAccessibleDescription(`No scheme typed: runs ${legacy} (http:// added).`);
        await expect(field).toHaveAttribute('aria-invalid', 'false');
        await axeClean(page, 'run form, URL completed');
        await page.getByRole('button', { name: 'Run conformance' }).click();
        await expect(runStatus(page)).toContainText('Completed', { timeout: 120_000 });
        await expect(level(page)).toContainText('full');
        await expect(page.locator('.run-bar-url')).toHaveText(new RegExp(`^${legacy.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/?$`));
        await page.getByRole('button', { name: 'Edit the run setup' }).click();
        await expect(field).toHaveValue(legacy);
      });

      test('registry: a legacy entry is warned before it is exported as 1.0, with "Export as legacy card"; Registry and History as cards on a phone', async () => {
        const page = urlPage();
        await page.goto('/registry');
        const legacyUrl = base(await demo(page, 'legacy'));
        const card = (await (await page.request.get(`${legacyUrl}/.well-known/agent.json`)).json()) as Record<string, unknown>;
        expect(card).not.toHaveProperty('protocolVersion');
        await page.getByLabel('Card JSON', { exact: true }).fill(JSON.stringify(card));
        await page.getByRole('button', { name: 'Import pasted JSON' }).click();
        const table = page.getByRole('table', { name: 'Registered agents' });
        const row = table
          .getByRole('row')
          .filter({ hasText: String(card.name) })
          .first();
        await expect(row).toBeVisible();
        await row.getByRole('button', { name: /^Export card of / }).click();
        const warning = page.getByRole('region', { name: /would (claim a protocol version never seen|fail our card checks)$/ });
        await expect(warning).toBeVisible();
        await expect(warning).toContainText('protocolVersion: "1.0"');
        await page.screenshot({ path: `${SHOTS}/issue25-registry-legacy-${viewport.name}.png` });
        await axeClean(page, 'registry export warning (legacy)');
        const [download] = await Promise.all([page.waitForEvent('download'), warning.getByRole('button', { name: 'Export as legacy card' }).click()]);
        expect(download.suggestedFilename()).toMatch(/\.legacy\.agent-card\.json$/);
        const exported = JSON.parse(readFileSync((await download.path())!, 'utf8')) as Record<string, unknown>;
        expect(exported).not.toHaveProperty('protocolVersion');
        expect(exported).not.toHaveProperty('supportedInterfaces');
        expect(exported.url).toBe(card.url);

        // The table: at 1400 px a table whose cells share each row's line; at 390 px one card per agent, nothing clipped.
        await checkRows(page, table, viewport.width);
        await page.screenshot({ path: `${SHOTS}/issue25-registry-table-${viewport.name}.png` });

        // History: the URL test's run of the legacy agent (same browser context) is its row; the same checks.
        await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'History' }).click();
        const history = page.getByRole('table', { name: 'Past runs' });
        await expect(history.getByRole('row').nth(1)).toBeVisible();
        await checkRows(page, history, viewport.width);
        await page.screenshot({ path: `${SHOTS}/issue25-history-table-${viewport.name}.png` });
        await axeClean(page, 'history');
      });
    });

    test('a stopped run: tiles say "not run", never "skipped", for what never ran', async ({ page }) => {
      await page.goto('/');
      await startRun(page, base(await demo(page, 'flawed')));
      await expect(level(page)).toHaveText('Running');
      await page.getByRole('button', { name: 'Stop', exact: true }).click();
      await expect(runStatus(page)).toContainText('Interrupted', { timeout: 60_000 });
      const tiles = page.getByRole('list', { name: 'Results by category' });
      await expect(tiles).toContainText('not run');
      const counts = await tiles.locator('.cat-counts').allTextContents();
      const notRun = counts.reduce((n, t) => n + Number(/(\d+) not run/.exec(t)?.[1] ?? 0), 0);
      const skipped = counts.reduce((n, t) => n + Number(/(\d+) skipped/.exec(t)?.[1] ?? 0), 0);
      expect(notRun).toBeGreaterThan(0);
      // The Skipped count and the tiles' "skipped" agree, and neither holds a not-run check.
      const dd = Number(await verdict(page).locator('dl.counts > div').filter({ hasText: 'Skipped' }).locator('dd').textContent());
      expect(skipped).toBe(dd);
      await page.screenshot({ path: `${SHOTS}/issue25-not-run-tiles-${viewport.name}.png` });
      await axeClean(page, 'stopped run, tiles with not run');
    });

    test('charts: latency by operation name (no UUID), round ticks, labels whole', async ({ page }) => {
      await page.goto('/');
      // The v1.0 demo also serves HTTP+JSON: its binding checks call routes with task ids in the path.
      await startRun(page, base(await demo(page, 'v1')));
      await expect(runStatus(page)).toContainText('Completed', { timeout: 120_000 });
      await page.getByRole('heading', { name: 'Charts' }).scrollIntoViewIfNeeded();
      const figure = page.getByRole('figure', { name: 'Latency per operation' });
      // Tick labels: the y axis's are anchored at their end (the operation names), the x axis's in their middle (times).
      await expect(figure.locator('text.recharts-cartesian-axis-tick-value[text-anchor="end"]').first()).toBeVisible({ timeout: 30_000 });
      await figure.scrollIntoViewIfNeeded();
      const geometry = await figure.evaluate((fig) => {
        const svg = fig.querySelector('.recharts-wrapper > svg.recharts-surface')!.getBoundingClientRect();
        const ticks = [...fig.querySelectorAll('text.recharts-cartesian-axis-tick-value')];
        const y = ticks
          .filter((t) => t.getAttribute('text-anchor') === 'end')
          .map((t) => ({ text: t.textContent ?? '', left: t.getBoundingClientRect().left, lines: t.querySelectorAll('tspan').length }));
        const x = ticks.filter((t) => t.getAttribute('text-anchor') === 'middle').map((t) => t.textContent ?? '');
        return { svgLeft: svg.left, y, x };
      });
      expect(geometry.y.length).toBeGreaterThan(2);
      for (const t of geometry.y) {
        expect(t.left, `label "${t.text}" starts inside the chart`).toBeGreaterThanOrEqual(geometry.svgLeft - 0.5);
        expect(t.lines, `label "${t.text}" on one line`).toBeLessThanOrEqual(1);
        expect(t.text).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}/);
      }
      // Round ticks: 0 then equal steps, said as "250 ms" or "1.5 s".
      const ms = geometry.x.map((s) => (s === '0' ? 0 : s.endsWith(' ms') ? Number(s.slice(0, -3)) : Number(s.slice(0, -2)) * 1000));
      expect(
        geometry.x.every((s) => /^(0|\d+ ms|\d+(\.\d+)? s)$/.test(s)),
        geometry.x.join(' | '),
      ).toBe(true);
      expect(ms[0]).toBe(0);
      expect(new Set(ms.slice(1).map((v, i) => v - ms[i]!)).size).toBe(1);
      await page.screenshot({ path: `${SHOTS}/issue25-charts-${viewport.name}.png` });
      // The table view: one row per operation, REST calls named by their operation, never a task id.
      await page.getByRole('button', { name: 'Show Latency per operation as table' }).click();
      const ops = await page.getByRole('table', { name: 'Latency per operation' }).locator('tbody th').allTextContents();
      expect(ops.length).toBeGreaterThan(2);
      expect(new Set(ops).size).toBe(ops.length);
      for (const op of ops) expect(op).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-|[0-9a-f]{16,}/);
      expect(ops).toEqual(expect.arrayContaining(['SendMessage', 'GetTask']));
      await axeClean(page, 'charts, latency table');
    });

    test('console: "the card declares N interfaces" counts what it lists (a v0.3 card repeats its main url)', async ({ page }) => {
      await page.goto('/console');
      await page.getByLabel('Agent URL').fill(base(await demo(page, 'v03')));
      await page.getByRole('button', { name: 'Connect', exact: true }).click();
      await expect(page.getByRole('status').filter({ hasText: 'Connected to' })).toBeVisible();
      const note = page.getByText(/^The card declares \d+ interfaces: /);
      await expect(note).toBeVisible();
      const text = (await note.textContent())!;
      const m = /^The card declares (\d+) interfaces: (.*)\. Choose one above/.exec(text);
      expect(m, text).not.toBeNull();
      // Each kind once, with how many URLs share it: the count said is the sum of what is listed.
      const listed = m![2]!.split(', ').reduce((n, k) => n + Number(/\((\d+) URLs\)$/.exec(k)?.[1] ?? 1), 0);
      expect(Number(m![1])).toBe(listed);
      expect(listed).toBe(2);
      await note.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${SHOTS}/issue25-console-interfaces-${viewport.name}.png` });
      await axeClean(page, 'console connected, interfaces listed');
    });
  });
}

/** Rows line up at 1400 px (every cell of a row starts on the row's top); on a phone each row is a card inside the viewport. */
async function checkRows(page: Page, table: ReturnType<Page['getByRole']>, width: number) {
  const geo = await table.evaluate((t) =>
    [...t.querySelectorAll('tbody tr')].map((tr) => {
      const r = tr.getBoundingClientRect();
      const cells = [...tr.children].map((c) => c.getBoundingClientRect());
      const inner = [...tr.querySelectorAll('.level-chip, button, a')].map((e) => e.getBoundingClientRect());
      return {
        display: getComputedStyle(tr).display,
        row: { left: r.left, right: r.right, top: r.top },
        tops: cells.map((c) => Math.round(c.top)),
        inner: inner.map((e) => ({ left: e.left, right: e.right })),
      };
    }),
  );
  expect(geo.length).toBeGreaterThan(0);
  const vw = await page.evaluate(() => window.innerWidth);
  for (const r of geo) {
    if (width >= 600) {
      expect(r.display).toBe('table-row');
      expect(new Set(r.tops).size, 'every cell of a row starts on one line').toBe(1);
    } else {
      expect(r.display).toBe('block');
      expect(r.row.right).toBeLessThanOrEqual(vw + 0.5);
      // Chips, links and buttons (the Actions included) inside the card and the viewport: nothing clipped.
      for (const e of r.inner) {
        expect(e.left).toBeGreaterThanOrEqual(r.row.left - 0.5);
        expect(e.right).toBeLessThanOrEqual(Math.min(r.row.right, vw) + 0.5);
      }
    }
  }
  await noSidewaysScroll(page);
}
