import { expect, test, type Page } from '@playwright/test';
import { HOSTILE_CARD_TEXT, startHostileAgent, type HostileName, type RunningHostileAgent } from '../src/testing/hostile';

/**
 * Issue 7: the nastiest hostile agents, run from the dashboard (browser host → local CORS proxy → agent).
 * The agents are started here, on 127.0.0.1, by the test itself. The page must stay responsive, end with
 * a verdict, and render the agent's text inert.
 */
const agents: RunningHostileAgent[] = [];
test.afterAll(async () => {
  await Promise.all(agents.map((a) => a.close()));
});

const level = (page: Page) => page.getByRole('status', { name: 'Conformance level' });
const runStatus = (page: Page) => page.getByText(/^Run:/);

/** Watches the page's main thread: the longest task, and how late a 50 ms heartbeat ever fired. */
async function watchMainThread(page: Page) {
  await page.evaluate(() => {
    const w = window as unknown as { __longest: number; __lag: number };
    w.__longest = 0;
    w.__lag = 0;
    new PerformanceObserver((list) => list.getEntries().forEach((e) => (w.__longest = Math.max(w.__longest, e.duration)))).observe({ type: 'longtask' });
    let last = performance.now();
    setInterval(() => {
      const now = performance.now();
      w.__lag = Math.max(w.__lag, now - last - 50);
      last = now;
    }, 50);
  });
  return () => page.evaluate(() => ({ longest: (window as unknown as { __longest: number }).__longest, lag: (window as unknown as { __lag: number }).__lag }));
}

async function runAgainst(page: Page, name: HostileName): Promise<{ longest: number; lag: number }> {
  const agent = await startHostileAgent(name);
  agents.push(agent);
  const dialogs: string[] = [];
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  await page.goto('/');
  const measure = await watchMainThread(page);
  await page.getByLabel('Agent URL', { exact: true }).fill(agent.url);
  await page.getByLabel('Per-task timeout (seconds)').fill('3');
  await page.getByRole('button', { name: 'Run conformance' }).click();
  // Responsive while the hostile agent is at work: opening the form and typing into a field is reflected (within 5 s:
  // a frozen page never reflects it; 2 s was tight for a headless browser on a busy 2-core machine).
  await page.getByRole('button', { name: 'Edit the run setup' }).click({ timeout: 5_000 });
  const peer = page.getByLabel('Peer agent URL (optional)');
  await peer.fill('http://127.0.0.1:9/still-typing');
  await expect(peer).toHaveValue('http://127.0.0.1:9/still-typing', { timeout: 5_000 });
  await expect(runStatus(page)).toContainText('Completed', { timeout: 60_000 });
  await expect(level(page)).toContainText(/full|partial|minimal|non-conformant|not assessed/);
  const main = await measure();
  console.log(`${name}: longest main-thread task ${Math.round(main.longest)} ms, worst heartbeat lag ${Math.round(main.lag)} ms`);
  // Worst lag measured at load 7-10 on the 2-core machine: 478 ms (the 50 MB card), 978 ms (the flood: the former 1 s
  // bound nearly failed). A freeze is seconds long; the bound leaves a busy machine room and still catches one.
  expect(main.lag, 'the main thread never froze for two seconds').toBeLessThan(2_000);
  expect(dialogs).toEqual([]);
  expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
  return main;
}

test.describe('hostile agents from the dashboard', () => {
  test('a 50 MB card: read up to the limit, judged, page responsive', async ({ page }) => {
    await runAgainst(page, 'card-50mb');
    // Our read limit ended before the card did: not assessed (never blamed on the agent), and says why.
    await expect(level(page)).toContainText('not assessed (our budget ran out)');
    await expect(page.getByRole('region', { name: 'Verdict' })).toContainText(/card is larger than this tool reads \(\d+ bytes/);
  });

  test('a stream that never ends: cut at the task budget, the rest of the run goes on', async ({ page }) => {
    await runAgainst(page, 'sse-never-ends');
    await expect(level(page)).toContainText('partial');
    await expect(page.getByRole('table', { name: 'Failed tests' })).toContainText(/still open when the 3000 ms budget ran out/);
  });

  test('a flood of 100,000+ events per second: bounded, rendered, page responsive', async ({ page }) => {
    await runAgainst(page, 'sse-flood');
    // Never full. Either the task was seen ended while 'working' kept coming (a failure, naming our cap), or our
    // 2000-event cap came before the task ended (a busy machine): then the check was not judged, and the level says so.
    await expect(level(page)).toContainText('partial');
    const caught = page.getByRole('table', { name: 'Failed tests' }).getByText(/more than 2000 events/);
    const capped = page.getByRole('region', { name: 'Verdict' }).getByText(/could not be judged within our stream limits \([^)]*streaming\.terminal/);
    await expect(caught.or(capped).first()).toBeVisible();
    // The timeline stays virtualized however many events arrived.
    const items = await page.getByRole('region', { name: 'Timeline' }).getByRole('listitem').count();
    expect(items).toBeGreaterThan(0);
    expect(items).toBeLessThan(200);
  });

  test('a card with HTML, script and javascript: URLs is shown as inert text', async ({ page }) => {
    await runAgainst(page, 'card-html-script');
    // A javascript: URL in the card is an advisory (listed apart from the failures, never lowering the level).
    await expect(page.locator('section.advisories')).toContainText('card.urls.other');
    const card = page.getByRole('group', { name: 'Agent card as received' });
    await expect(card).toContainText(HOSTILE_CARD_TEXT.name);
    await expect(card).toContainText(HOSTILE_CARD_TEXT.skillName);
    await expect(card.locator('script, img, iframe, svg, b, i')).toHaveCount(0);
    await expect(page.locator('a[href^="javascript:" i]')).toHaveCount(0);
    // The agent name heads the run as text too.
    await expect(page.getByText(HOSTILE_CARD_TEXT.name).first()).toBeVisible();
  });
});
