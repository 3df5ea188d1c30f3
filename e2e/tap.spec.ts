import { expect, test, type Page } from '@playwright/test';
import { axeScan } from './fixtures/axe';

/**
 * The Tap page (issue 26): a tap in front of an agent, a client talking through it, the conversation and both sides'
 * findings live. The clients: the demo orchestrator (agent A, the official SDK's client) through the page's demo
 * button, and this test itself with a request that has a client defect.
 */

async function demoUrl(page: Page, id: string): Promise<string> {
  const list = (await (await page.request.get('/api/demo-agents')).json()) as { id: string; baseUrl: string }[];
  return list.find((a) => a.id === id)!.baseUrl;
}

/** Serious or critical axe violations, light and dark, and any sideways scroll. */
async function a11yProblems(page: Page, label: string): Promise<string[]> {
  const found: string[] = [];
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
    const r = await axeScan(page);
    for (const v of r.violations)
      if (v.impact === 'serious' || v.impact === 'critical')
        found.push(
          `[${label} ${scheme}] ${v.id}: ${v.help}: ${v.nodes
            .map((n) => n.target.join(' '))
            .slice(0, 4)
            .join('; ')}`,
        );
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    if (overflow > 0) found.push(`[${label} ${scheme}] the page scrolls sideways by ${overflow} px`);
  }
  await page.emulateMedia({ colorScheme: 'light' });
  return found;
}

const tapUrlOf = async (page: Page) => {
  const code = page.getByRole('region', { name: 'Give this URL to your client' }).locator('code').first();
  await expect(code).toHaveText(/^http:\/\/127\.0\.0\.1:\d+\/tap\/[^/]+\/$/);
  return (await code.textContent())!;
};

// The demo runs with agent A on each SDK client (and B on the matching demo agent), one per viewport.
for (const viewport of [
  { name: 'laptop', width: 1400, height: 900, client: '1.x', peer: 'v1', peerName: 'Demo agent (v1.0 SDK)' },
  { name: 'phone', width: 390, height: 844, client: '0.3', peer: 'v03', peerName: 'Demo agent (v0.3 SDK)' },
]) {
  test.describe(`Tap page, ${viewport.name} ${viewport.width}x${viewport.height}`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } });

    test('the two-agent demo: the orchestrator (A) talks to a demo agent (B) through the tap, judged live', async ({ page }) => {
      await page.goto('/tap');
      await expect(page.getByRole('heading', { level: 1, name: 'Tap' })).toBeVisible();
      await expect(page.getByRole('link', { name: 'Tap' })).toHaveAttribute('aria-current', 'page');
      await page.getByLabel('Agent B').selectOption(viewport.peer);
      await page.getByLabel("Agent A's client").selectOption(viewport.client);
      await page.getByRole('button', { name: 'Orchestrator -> demo agent' }).click();
      const tapUrl = await tapUrlOf(page);
      await expect(page.getByRole('button', { name: 'Copy the tap URL' })).toBeEnabled();

      // A's traffic to B, as a conversation: B's card (read by the SDK's client), then the two questions.
      const log = page.getByRole('log', { name: 'Conversation' });
      await expect(log.getByRole('article').filter({ hasText: 'GET the agent card' }).first()).toBeVisible();
      // v0.3: message/send; v1.0: SendMessage.
      const sends = log.getByRole('article').filter({ hasText: /POST (message\/send|SendMessage)/ });
      await expect(sends).toHaveCount(2);
      await expect(sends.filter({ hasText: 'Prepare the slow report' })).toContainText('task completed');
      await expect(sends.filter({ hasText: 'Write a haiku about interoperability' })).toContainText('task completed');
      // What the orchestrator made of it: B's answers, through the tap.
      const replies = page.getByRole('list', { name: 'What the orchestrator answered' });
      await expect(replies.getByRole('listitem')).toHaveCount(2);
      await expect(replies).toContainText(`${viewport.peerName} answered`);

      // The seed's two-agent checks, judged from what the tap saw.
      const checks = page.getByRole('region', { name: 'Two-agent checks (A -> B)' });
      for (const title of ["A discovers B's card", 'A sends B a task', 'B answers', 'Concurrent tasks do not interfere'])
        await expect(checks.getByRole('listitem', { name: title }).locator('.chip').first(), title).toHaveText('Pass');
      await expect(checks.getByRole('listitem', { name: 'Concurrent tasks do not interfere' })).toContainText('answered separately');
      // The official SDK's client gets no client finding.
      await expect(page.getByRole('listitem', { name: 'Client verdict' })).toContainText('Pass');
      await expect(page.getByRole('listitem', { name: 'Client verdict' })).toContainText('no finding');

      // The run view's timeline and wire inspector show the same exchanges.
      const timeline = page.getByRole('region', { name: 'Timeline' });
      await expect(timeline.getByRole('button', { name: /Lane (message\/send|SendMessage)/ })).toBeVisible();
      await sends
        .first()
        .getByRole('button', { name: /^Inspect exchange / })
        .click();
      const inspector = page.getByRole('region', { name: 'Wire inspector' });
      await expect(inspector).toContainText(tapUrl);
      await page.screenshot({ path: `test-results/tap-demo-inspector-${viewport.name}.png` });
      await page.keyboard.press('Escape');

      await page.getByRole('region', { name: 'Two-agent checks (A -> B)' }).scrollIntoViewIfNeeded();
      await page.screenshot({ path: `test-results/tap-demo-${viewport.name}.png`, fullPage: viewport.name === 'laptop' });
      expect(await a11yProblems(page, `demo ${viewport.name}`)).toEqual([]);

      // The JSON export: the tap's report with the two-agent results.
      const download = page.waitForEvent('download');
      await page.getByRole('group', { name: "Export the tap's report" }).getByRole('button', { name: 'Export JSON' }).click();
      const file = await (await download).path();
      const report = JSON.parse(await (await import('node:fs/promises')).readFile(file, 'utf8')) as {
        tool: string;
        exchanges: unknown[];
        twoAgents: { id: string; status: string }[];
      };
      expect(report.tool).toBe('a2a-interop tap');
      expect(report.exchanges.length).toBeGreaterThanOrEqual(3);
      expect(report.twoAgents.map((r) => r.status)).toEqual(['pass', 'pass', 'pass', 'pass']);
      // HAR 1.2: the conversation for browsers' developer tools and Postman.
      const harDownload = page.waitForEvent('download');
      await page.getByRole('group', { name: "Export the tap's report" }).getByRole('button', { name: 'Export HAR' }).click();
      const har = JSON.parse(await (await import('node:fs/promises')).readFile(await (await harDownload).path(), 'utf8')) as {
        log: { version: string; entries: { request: { url: string } }[] };
      };
      expect(har.log.version).toBe('1.2');
      expect(har.log.entries.length).toBe(report.exchanges.length);

      await page.getByRole('button', { name: 'Stop tap' }).click();
      await expect(page.getByRole('heading', { name: 'The tap was here' })).toBeVisible();
      await expect(sends).toHaveCount(2);
    });

    test("a client's defect is the client's finding, with the sentence behind it; an injected 503 shows as a fault", async ({ page }) => {
      await page.goto('/tap');
      await page.getByLabel('Agent URL').fill(await demoUrl(page, 'v03'));
      await page.getByLabel('Fail the next request once').selectOption('503');
      await page.getByRole('button', { name: 'Start tap' }).click();
      const tapUrl = await tapUrlOf(page);
      // Focus (and the view) goes to the URL to give the client, below the form on a phone.
      const urlHeading = page.getByRole('heading', { name: 'Give this URL to your client' });
      await expect(urlHeading).toBeFocused();
      await expect(urlHeading).toBeInViewport();
      await expect(page.getByRole('listitem', { name: 'Client verdict' })).toContainText('Not observed');

      // The client: this test, reading the tap's card and calling the endpoint it names.
      const card = (await (await page.request.get(`${tapUrl}.well-known/agent-card.json`)).json()) as { url: string };
      expect(card.url.startsWith(tapUrl)).toBe(true);
      const message = (messageId?: string) => ({
        jsonrpc: '2.0',
        id: messageId ?? 'no-id',
        method: 'message/send',
        params: { message: { kind: 'message', role: 'user', ...(messageId ? { messageId } : {}), parts: [{ kind: 'text', text: 'Hello <b>agent</b>' }] } },
      });
      const first = await page.request.post(card.url, { data: message('m-1') });
      expect(first.status()).toBe(503);
      const second = await page.request.post(card.url, { data: message() });
      expect(second.status()).toBe(200);

      const log = page.getByRole('log', { name: 'Conversation' });
      await expect(log.getByRole('article').filter({ hasText: 'POST message/send' })).toHaveCount(2);
      await expect(log.getByText(/^Fault injected/)).toBeVisible();
      const findings = page.getByRole('region', { name: /^Findings \(\d+\)$/ });
      const missing = findings.getByRole('listitem').filter({ hasText: 'client.message-id' });
      await expect(missing).toHaveCount(1);
      await expect(missing.locator('.side-badge')).toHaveText('client');
      await missing.getByText(/^Why/).click();
      await expect(missing.locator('blockquote')).not.toBeEmpty();
      await expect(page.getByRole('listitem', { name: 'Client verdict' })).toContainText('Fail');
      // Agent text stays text.
      await expect(log.getByText('Hello <b>agent</b>').first()).toBeVisible();
      await expect(page.locator('.tap-page b')).toHaveCount(0);

      await findings.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `test-results/tap-client-defect-${viewport.name}.png` });
      expect(await a11yProblems(page, `client defect ${viewport.name}`)).toEqual([]);
      await page.getByRole('button', { name: 'Stop tap' }).click();
      await expect(page.getByRole('heading', { name: 'The tap was here' })).toBeVisible();
    });
  });
}
