import { expect, test, type Page } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { startHostile, type RunningHostileAgent } from '../src/testing/hostile';
import { isCardPath } from '../src/testing/hostile/server';
import { noSidewaysScroll, sharedPageGroup } from './fixtures/shared-page';

/**
 * Issue 11, "Results first", at a laptop (1400×900) and a phone (390×844): the verdict on the first screen,
 * one click from a failure to its evidence and to its exchange, the inspector's header split and Copy as
 * cURL, re-run outcomes, no red while running, not-assessed outcomes, no sideways scroll on a phone.
 */
interface Demo {
  id: string;
  label: string;
  url: string;
  baseUrl?: string;
}
const base = (d: Demo) => d.baseUrl ?? d.url;

async function demos(page: Page): Promise<Demo[]> {
  const res = await page.request.get('/api/demo-agents');
  expect(res.ok()).toBe(true);
  const body = (await res.json()) as Demo[] | { agents: Demo[] };
  return Array.isArray(body) ? body : body.agents;
}

const level = (page: Page) => page.getByRole('status', { name: 'Conformance level' });
const runStatus = (page: Page) => page.getByText(/^Run:/);
const verdict = (page: Page) => page.getByRole('region', { name: 'Verdict' });
const inspector = (page: Page) => page.getByRole('region', { name: 'Wire inspector' });

async function openForm(page: Page) {
  const edit = page.getByRole('button', { name: 'Edit the run setup' });
  if (await edit.isVisible()) await edit.click();
}

/** Starts a run of `url` from the form; resolves once it has started. */
async function startRun(page: Page, url: string) {
  await openForm(page);
  await page.getByLabel('Agent URL', { exact: true }).fill(url);
  await page.getByRole('button', { name: 'Run conformance' }).click();
}

/** Opens the exchange that fetched the agent card, from the card view's discovery attempts. */
async function openCardExchange(page: Page) {
  const attempts = page.getByRole('region', { name: 'Agent card' }).getByRole('button', { name: /^Open exchange \S+ in the wire inspector$/ });
  await attempts.last().click();
  await expect(inspector(page).locator('.exchange-line')).toContainText(/GET \S+\/\.well-known\/agent(-card)?\.json/);
}

/** While running: neutral progress, no level word, nothing red. Sampled on every animation frame in the page. */
async function watchLevelWhileRunning(page: Page) {
  await page.evaluate(() => {
    const w = window as unknown as { __levelSeen: string[] };
    w.__levelSeen = [];
    const tick = () => {
      const el = document.querySelector('[role="status"][aria-label="Conformance level"]');
      const running = /Running/.test(document.querySelector('.run-status')?.textContent ?? '');
      if (el && running) w.__levelSeen.push(`${el.className}|${el.textContent}|${getComputedStyle(el).backgroundColor}|${getComputedStyle(el).color}`);
      if (running || !el) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
  return () => page.evaluate(() => (window as unknown as { __levelSeen: string[] }).__levelSeen);
}

const RED = /rgb\((207, 34, 46|248, 81, 73)\)/;

for (const viewport of [
  { width: 1400, height: 900 },
  { width: 390, height: 844 },
]) {
  test.describe(`at ${viewport.width}×${viewport.height}`, () => {
    test.use({ viewport });

    // The demo agents' runs of the first test leave a verdict on the page, which the malformed-URL test clears.
    test.describe('a page with a verdict', () => {
      const runsPage = sharedPageGroup(viewport);

      test('after Run on each demo agent the verdict card is on the first screen; while running it shows neutral progress and no red level', async () => {
        const page = runsPage();
        await page.goto('/');
        for (const d of await demos(page)) {
          // The OAuth demo needs its client credentials to get a level (run.spec.ts runs it with them).
          if (d.id === 'oauth') continue;
          await page.evaluate(() => window.scrollTo(0, 0));
          await startRun(page, base(d));
          const seen = await watchLevelWhileRunning(page);
          await expect(level(page)).toHaveText('Running');
          await expect(page.getByRole('progressbar', { name: /^Checks finished: \d+ of \d+$/ })).toBeVisible();
          await expect(runStatus(page)).toContainText('Completed', { timeout: 120_000 });
          const samples = await seen();
          expect(samples.length, `${d.id}: sampled while running`).toBeGreaterThan(0);
          for (const s of samples) {
            expect(s, `${d.id}: no level while running`).toMatch(/^level level-running\|Running\|/);
            expect(s, `${d.id}: nothing red while running`).not.toMatch(RED);
          }
          await expect(level(page)).toContainText(/full|partial|minimal|non-conformant/);
          // The verdict is on the first screen, without scrolling: the level badge whole, the card's top in view.
          expect(await page.evaluate(() => window.scrollY)).toBe(0);
          const badge = (await level(page).boundingBox())!;
          const card = (await verdict(page).boundingBox())!;
          expect(badge.y + badge.height, `${d.id}: level badge inside the first viewport`).toBeLessThanOrEqual(viewport.height);
          expect(card.y, `${d.id}: verdict card starts inside the first viewport`).toBeLessThan(viewport.height / 2);
          // Failures counted by what lowers the level (issue 25 item 6): MUST and SHOULD apart, the critical ones named.
          await expect(verdict(page)).toContainText(/(Nothing lowers the level|\d+ lowers? the level: \d+ (MUST|SHOULD)[^·]*) · \d+ advisor/);
          // Five conformance categories and the (informational) security review.
          await expect(verdict(page).getByRole('list', { name: 'Results by category' }).getByRole('listitem')).toHaveCount(6);
          await noSidewaysScroll(page);
        }
      });

      test('a malformed URL: its error once, focus on the field, the previous verdict cleared', async () => {
        // The previous verdict: the last demo agent's finished run, from the test before.
        const page = runsPage();
        await expect(runStatus(page)).toContainText('Completed');
        await expect(verdict(page)).toBeVisible();
        // A URL without a scheme is completed now (e2e/words-tables-charts.spec.ts); a scheme other than http(s) is refused.
        await startRun(page, 'ftp://localhost:3000');
        const field = page.getByLabel('Agent URL', { exact: true });
        await expect(field).toBeFocused();
        await expect(page.getByText(/must start with http:\/\/ or https:\/\//)).toHaveCount(1);
        await expect(field).toHaveAttribute('aria-invalid', 'true');
        await expect(verdict(page)).toHaveCount(0);
        await noSidewaysScroll(page);
      });
    });

    test('the flawed agent: first failure opens its evidence and then its exchange in one click each; re-run says the outcome', async ({ page }) => {
      await page.goto('/');
      const flawed = (await demos(page)).find((d) => d.id === 'flawed')!;
      await startRun(page, base(flawed));
      await expect(runStatus(page)).toContainText('Completed', { timeout: 120_000 });
      await expect(level(page)).toContainText('non-conformant');
      const failed = page.getByRole('table', { name: 'Failed tests' });
      const firstRow = failed.getByRole('row').nth(1);
      // Status first (phone: stacked card, status on top).
      await expect(firstRow.locator('.chip').first()).toHaveText('fail');
      const toggle = firstRow.getByRole('button', { expanded: false });
      const title = (await toggle.textContent())!.replace(/^[▸▾]\s*/, '').trim();
      await toggle.click(); // click 1: the evidence, in place
      const details = failed.locator('tr.failure-details');
      await expect(details).toContainText('What the spec says');
      await expect(details).toContainText('Evidence');
      await expect(details.locator('blockquote.requirement').first()).toBeVisible();
      await details.getByRole('button', { name: 'Open exchange' }).click(); // click 2: the exchange
      await expect(inspector(page).getByRole('heading', { name: 'Wire inspector' })).toBeFocused();
      await expect(inspector(page).locator('.status-line')).toContainText(/^\d{3}.* · .*(ms|s) · .*B/);
      await expect(inspector(page).getByRole('table', { name: 'Response headers' })).toBeVisible();
      // The inspector links back to the check: opened from its failure, back is that failure (issue 25: never the
      // Results row, never a page jump), the pane closed at every width.
      const back = inspector(page).locator('.inspector-check').getByRole('button');
      await back.click();
      await expect(details.getByRole('button', { name: 'Open exchange' })).toBeFocused();
      await expect(page.locator('.inspector-open')).toHaveCount(0);
      // Re-run from the failure: it says what changed and flashes the row.
      await details.scrollIntoViewIfNeeded();
      await details.getByRole('button', { name: `Re-run ${title}` }).click();
      await expect(details.getByRole('status')).toHaveText('Re-run: still fails', { timeout: 60_000 });
      await expect(firstRow).toHaveClass(/flash-[ab]/);
      await noSidewaysScroll(page);
    });

    test('an unreachable agent is not assessed, shown as its own state', async ({ page }) => {
      await page.goto('/');
      await startRun(page, 'http://127.0.0.1:9/agent');
      // A message, not a report (issue 25): no run status line, the level in grey.
      await expect(level(page)).toContainText('not assessed', { timeout: 60_000 });
      await expect(level(page)).toHaveClass(/level-not-assessed/);
      await expect(verdict(page)).toContainText(/nothing answered|unreachable/i);
      await expect(verdict(page)).not.toContainText(/required failure/);
      await noSidewaysScroll(page);
    });
  });
}

test.describe('wire inspector', () => {
  test.use({ viewport: { width: 1400, height: 900 } });
  let agent: RunningHostileAgent | undefined;
  test.afterAll(async () => {
    await agent?.close();
  });

  test('shows the agent’s own headers apart from what our proxy added, even when the proxy would change them', async ({ page }) => {
    // A test agent whose card response carries headers the proxy appends to (Vary, Server-Timing,
    // Content-Security-Policy), sets (X-Content-Type-Options) or that a same-origin proxy passes as is (CORS).
    agent = await startHostile('proxy-amended-headers', {
      description: 'Sends response headers our proxy appends to or replaces.',
      side: 'card',
      make: (kit) => async (r, res) => {
        if (!isCardPath(r.path)) return kit.forward(r, res);
        const body = JSON.stringify(await kit.card());
        res.writeHead(200, {
          'content-type': 'application/json',
          vary: 'Accept-Encoding',
          'server-timing': 'app;dur=7',
          'content-security-policy': "default-src 'self'",
          'x-content-type-options': 'agent-value',
          'access-control-allow-origin': '*',
          'x-agent-header': 'from-the-agent',
        });
        res.end(body);
      },
    });
    await page.goto('/');
    await startRun(page, agent.url);
    await expect(runStatus(page)).toContainText('Completed', { timeout: 120_000 });
    await openCardExchange(page);
    const own = inspector(page).getByRole('table', { name: 'Response headers' });
    const row = (name: string) => own.getByRole('row').filter({ has: page.getByRole('rowheader', { name, exact: true }) });
    await expect(row('vary').getByRole('cell')).toHaveText('Accept-Encoding');
    await expect(row('server-timing').getByRole('cell')).toHaveText('app;dur=7');
    await expect(row('content-security-policy').getByRole('cell')).toHaveText("default-src 'self'");
    await expect(row('access-control-allow-origin').getByRole('cell')).toHaveText('*');
    await expect(row('x-agent-header').getByRole('cell')).toHaveText('from-the-agent');
    await expect(own).not.toContainText('x-proxy-');
    await expect(own).not.toContainText('nosniff');
    // What the proxy added sits apart, collapsed.
    const added = inspector(page).getByRole('table', { name: 'Headers added by our proxy' });
    await expect(added).toBeHidden();
    await inspector(page)
      .getByText(/^Added by our proxy \(\d+\)$/)
      .click();
    await expect(added).toContainText('x-proxy-upstream-status');
    await expect(added.getByRole('row').filter({ hasText: /^vary/ })).toContainText('Origin');
    await expect(added.getByRole('row').filter({ hasText: /^server-timing/ })).toContainText('proxy;dur=');
    await expect(added.getByRole('row').filter({ hasText: /^x-content-type-options/ })).toContainText('nosniff');
    // The body comes first, pretty-printed.
    await expect(inspector(page).locator('pre.body').first()).toContainText('\n  "name": ');
  });

  // One run of the v0.3 demo agent, read by two tests in turn.
  test.describe('a run of the v0.3 demo agent', () => {
    const v03Page = sharedPageGroup({ width: 1400, height: 900 });

    test('Copy as cURL reproduces the exchange against the demo agent; credentials masked unless asked', async () => {
      const page = v03Page();
      await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
      await page.goto('/');
      const v03 = (await demos(page)).find((d) => d.id === 'v03')!;
      await openForm(page);
      await page.getByLabel('Agent URL', { exact: true }).fill(base(v03));
      await page.getByLabel('Credential type').selectOption('bearer');
      await page.getByLabel('Bearer token').fill('e2e-curl-secret');
      await page.getByRole('button', { name: 'Run conformance' }).click();
      await expect(runStatus(page)).toContainText('Completed', { timeout: 120_000 });
      const timeline = page.getByRole('region', { name: 'Timeline' });
      const copied = async () => page.evaluate(() => navigator.clipboard.readText());
      const sh = (cmd: string) => execFileSync('sh', ['-c', cmd], { encoding: 'utf8', timeout: 20_000 });

      // The card: the same bytes as the inspector shows.
      await openCardExchange(page);
      await inspector(page).getByRole('button', { name: 'Copy as cURL' }).click();
      await expect(inspector(page).getByRole('status')).toHaveText('cURL command copied.');
      const cardCmd = await copied();
      expect(cardCmd).toMatch(/^curl -sS 'http:\/\/127\.0\.0\.1:\d+\/demo\/v03\/\.well-known\/agent-card\.json'/);
      const shown = JSON.parse((await inspector(page).locator('pre.body').first().textContent())!) as unknown;
      expect(JSON.parse(sh(cardCmd))).toEqual(shown);

      // A JSON-RPC call: the copied command gets the same kind of answer (a new task, same shape).
      await timeline
        .getByRole('button', { name: /^HTTP message\/send · POST / })
        .first()
        .click();
      await inspector(page).getByRole('button', { name: 'Copy as cURL' }).click();
      const rpcCmd = await copied();
      expect(rpcCmd).toContain("-H 'authorization: Bearer [REDACTED]'");
      expect(rpcCmd).not.toContain('e2e-curl-secret');
      const recorded = JSON.parse((await inspector(page).locator('pre.body').first().textContent())!) as { jsonrpc: string; result?: { kind?: string } };
      const again = JSON.parse(sh(rpcCmd)) as { jsonrpc: string; result?: { kind?: string } };
      expect(again.jsonrpc).toBe('2.0');
      expect(Object.keys(again).sort()).toEqual(Object.keys(recorded).sort());
      expect(again.result?.kind).toBe(recorded.result?.kind);
      // Only when asked: the credentials in clear.
      await inspector(page).getByLabel('Include credentials in cURL').check();
      await inspector(page).getByRole('button', { name: 'Copy as cURL' }).click();
      expect(await copied()).toContain("-H 'authorization: Bearer e2e-curl-secret'");
      // Copy JSON: the exchange as shown (redacted).
      await inspector(page).getByRole('button', { name: 'Copy JSON' }).click();
      const json = JSON.parse(await copied()) as { request: { method: string }; response: { status: number } };
      expect(json.request.method).toBe('POST');
      expect(json.response.status).toBe(200);
      expect(JSON.stringify(json)).not.toContain('e2e-curl-secret');
    });

    test('an SSE event opens the inspector at that event, highlighted and scrolled to; the timeline filters by kind and check', async () => {
      // The v0.3 demo agent's finished run, from the test before.
      const page = v03Page();
      await expect(runStatus(page)).toContainText('Completed');
      const timeline = page.getByRole('region', { name: 'Timeline' });
      await timeline.getByRole('checkbox', { name: 'HTTP' }).uncheck();
      await timeline.getByRole('checkbox', { name: 'State' }).uncheck();
      const sse = timeline.getByRole('button', { name: /^SSE SSE #/ });
      await expect(sse.first()).toBeVisible();
      const names = await timeline.locator('.tl-item').allTextContents();
      expect(names.every((n) => n.startsWith('SSE'))).toBe(true);
      const last = sse.last();
      const seq = /#(\d+)/.exec((await last.textContent())!)![1];
      await last.click();
      const current = inspector(page).locator('.sse-list li[aria-current="true"]');
      await expect(current).toHaveCount(1);
      await expect(current).toContainText(`#${seq} `);
      await expect(current).toBeInViewport();
      // Filter by check: only that check's items remain.
      const checkSelect = timeline.getByLabel('Check', { exact: true });
      const option = (await checkSelect.locator('option').nth(1).getAttribute('value'))!;
      await checkSelect.selectOption(option);
      await timeline.getByRole('button', { name: 'Clear timeline filters' }).click();
      await expect(timeline.getByRole('checkbox', { name: 'HTTP' })).toBeChecked();
    });
  });

  test('the card view keeps the card’s own field order, marks failing fields with their check, and has a raw JSON view', async ({ page }) => {
    await page.goto('/');
    const flawed = (await demos(page)).find((d) => d.id === 'flawed')!;
    await startRun(page, base(flawed));
    await expect(runStatus(page)).toContainText('Completed', { timeout: 120_000 });
    const card = page.getByRole('group', { name: 'Agent card as received' });
    const served = (await (await page.request.get(`${base(flawed)}/.well-known/agent-card.json`)).json()) as Record<string, unknown>;
    const keys = await card.locator(':scope > .json-obj > li > .json-key').allTextContents();
    expect(keys).toEqual(Object.keys(served));
    const failing = card.locator('li.field-fail').filter({ has: page.locator(':scope > .json-key', { hasText: /^capabilities$/ }) });
    await expect(failing).toHaveCount(1);
    await failing
      .getByRole('button', { name: /^Show check card\.capabilities\.shape/ })
      .first()
      .click();
    await expect(page.getByRole('table', { name: 'Results' }).locator('tr[data-check="card.capabilities.shape"] .row-toggle')).toBeFocused();
    await page.getByRole('button', { name: 'Raw JSON' }).first().click();
    await expect(page.getByRole('region', { name: 'Agent card as raw JSON' })).toContainText('"capabilities": [');
  });
});
