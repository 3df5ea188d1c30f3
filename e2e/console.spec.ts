import { expect, test, type Locator, type Page } from '@playwright/test';
import { axeScan } from './fixtures/axe';

/**
 * The console (issue 12) against the demo agents `npm start` serves: a round trip, a streamed slow task canceled
 * mid-way, an input-required task answered in the same task, the flawed agent's stream flagged inline, and
 * Open in console from a failed check of a real run, re-sent edited. Plus axe scans, light and dark.
 */

async function demoUrl(page: Page, id: string): Promise<string> {
  const res = await page.request.get('/api/demo-agents');
  const list = (await res.json()) as { id: string; url: string; baseUrl?: string }[];
  const d = list.find((a) => a.id === id);
  if (!d) throw new Error(`demo agent ${id} not served`);
  return d.baseUrl ?? d.url;
}

async function connect(page: Page, url: string) {
  await page.goto('/console');
  await page.getByLabel('Agent URL').fill(url);
  await page.getByRole('button', { name: 'Connect', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Connected to' })).toBeVisible();
}

async function send(page: Page, text: string, mode: 'Blocking' | 'Streaming' = 'Blocking') {
  const form = page.getByRole('form', { name: 'Compose a message' });
  await form.getByLabel('Message', { exact: true }).fill(text);
  await form.getByRole('radio', { name: new RegExp(`^${mode}`) }).check();
  await form.getByRole('button', { name: mode === 'Streaming' ? 'Send (streaming)' : 'Send', exact: true }).click();
}

const call = (page: Page, id: string): Locator => page.getByRole('article', { name: new RegExp(`^${id} `) });
const tasks = (page: Page) => page.getByRole('region', { name: /^Tasks/ });

test('echo round trip: the answer, its exchange on the timeline, no findings', async ({ page }) => {
  await connect(page, await demoUrl(page, 'v03'));
  await send(page, 'hello from the console');
  const c1 = call(page, 'c1');
  await expect(c1.getByRole('status')).toContainText('0 required finding(s)');
  await expect(c1).toContainText('message/send');
  // The task and its artifact (the echo), rendered as text.
  const task = tasks(page).getByRole('article', { name: /^Task / });
  await expect(task).toContainText('completed');
  await expect(task.getByRole('region', { name: /^Artifacts of task/ })).toContainText('hello from the console');
  // The same exchange in the run views' timeline and wire inspector.
  const timeline = page.getByRole('region', { name: 'Timeline' });
  await timeline.getByRole('button', { name: /message\/send/ }).click();
  await expect(page.getByRole('region', { name: 'Wire inspector' }).getByRole('region', { name: 'Request' })).toContainText('hello from the console');
});

test('a streamed slow task canceled mid-way: frames live, the cancel on the timeline, the stream ends canceled', async ({ page }) => {
  await connect(page, await demoUrl(page, 'v03'));
  await send(page, 'Prepare the slow report', 'Streaming');
  const c1 = call(page, 'c1');
  // Mid-way: the task is working and the call still streaming.
  await expect(c1.getByRole('region', { name: 'Events of call c1' })).toContainText('working');
  await expect(c1.getByRole('button', { name: 'Stop reading c1' })).toBeVisible();
  const task = tasks(page).getByRole('article', { name: /^Task / });
  await task.getByRole('button', { name: /^Cancel task / }).click();
  const c2 = call(page, 'c2');
  await expect(c2).toContainText('Cancel task');
  await expect(c2.getByRole('status')).toContainText('tasks/cancel');
  // The stream delivers the cancel and ends.
  await expect(c1.getByRole('status')).toContainText('message/stream');
  await expect(c1.getByRole('region', { name: 'Events of call c1' })).toContainText('canceled');
  await expect(task).toContainText('canceled');
  const timeline = page.getByRole('region', { name: 'Timeline' });
  await expect(timeline.getByRole('button', { name: /tasks\/cancel/ })).toBeVisible();
  await expect(timeline.getByRole('button', { name: /Task canceled/ }).first()).toBeVisible();
});

test('an input-required task answered in the same task', async ({ page }) => {
  await connect(page, await demoUrl(page, 'v03'));
  await send(page, 'Book a table for two');
  const task = tasks(page).getByRole('article', { name: /^Task / });
  await expect(task).toContainText('input-required');
  const name = (await task.getAttribute('aria-label')) ?? '';
  await task.getByRole('button', { name: /^Answer task / }).click();
  const form = page.getByRole('form', { name: 'Compose a message' });
  await expect(form.getByLabel('Message', { exact: true })).toBeFocused();
  await expect(form.getByRole('radio', { name: 'Continue a task or context' })).toBeChecked();
  await expect(form.getByLabel('Task id')).toHaveValue(name.replace(/^Task /, ''));
  await send(page, 'At 7 pm, please');
  const c2 = call(page, 'c2');
  await expect(c2).toContainText(`Answer task ${name.replace(/^Task /, '')}`);
  await expect(c2.getByRole('status')).toContainText('0 required finding(s)');
  // Still one task: the same one, now completed.
  await expect(tasks(page).getByRole('article', { name: /^Task / })).toHaveCount(1);
  await expect(tasks(page).getByRole('article', { name })).toContainText('completed');
});

test("the flawed agent's stream: the malformed end flagged inline on its event", async ({ page }) => {
  await connect(page, await demoUrl(page, 'flawed'));
  await page.getByRole('button', { name: 'Write a haiku about interoperability' }).click();
  await page
    .getByRole('form', { name: 'Compose a message' })
    .getByRole('radio', { name: /^Streaming/ })
    .check();
  await page.getByRole('button', { name: 'Send (streaming)' }).click();
  const events = call(page, 'c1').getByRole('region', { name: 'Events of call c1' });
  const flagged = events.getByRole('listitem', { name: /^Event \d+, 1 finding/ });
  await expect(flagged).toHaveCount(1);
  await expect(flagged.getByRole('list', { name: /^Findings of event/ })).toContainText('streaming.terminal');
  await expect(flagged).toContainText('completed');
  // The streamed haiku, reassembled from its chunks.
  await expect(tasks(page).getByRole('region', { name: /^Artifacts of task/ })).toContainText('Two agents exchange');
});

test('Open in console from a failed check of a run: the request loaded, edited and sent again', async ({ page }) => {
  const flawed = await demoUrl(page, 'flawed');
  await page.goto('/');
  await page.getByLabel('Agent URL', { exact: true }).fill(flawed);
  await page.getByRole('button', { name: 'Run conformance' }).click();
  await expect(page.getByText(/^Run:/)).toContainText('Completed', { timeout: 45_000 });
  const failed = page.getByRole('table', { name: 'Failed tests' });
  const row = failed.getByRole('row').filter({ hasText: 'errors.task-not-found' });
  await row.getByRole('button', { expanded: false }).click();
  await failed.getByRole('button', { name: /^Open in console: exchange / }).click();
  await expect(page).toHaveURL(/\/console\?exchange=/);
  const editor = page.getByRole('form', { name: 'Request editor' });
  await expect(editor.getByLabel('Request body')).toHaveValue(/tasks\/get/);
  await expect(page.getByRole('status').filter({ hasText: 'Connected to' })).toBeVisible();
  const body = await editor.getByLabel('Request body').inputValue();
  const edited = body.replace(/"id": "[^"]+"\n(\s*)\}/, '"id": "edited-in-the-console"\n$1}');
  expect(edited).toContain('edited-in-the-console');
  await editor.getByLabel('Request body').fill(edited);
  await editor.getByRole('button', { name: 'Send request again' }).click();
  // The answer lands where the user is looking: the new turn is in the viewport, without scrolling.
  await expect(page.getByRole('log', { name: 'Conversation' }).getByRole('article', { name: 'Turn c1' })).toBeInViewport();
  const c1 = call(page, 'c1');
  await expect(c1).toContainText('Re-send POST');
  await expect(c1.getByRole('status')).toContainText('tasks/get');
  await expect(c1).toContainText('-32602');
  await c1.getByRole('button', { name: /^Inspect exchange / }).click();
  await expect(page.getByRole('region', { name: 'Wire inspector' }).getByRole('region', { name: 'Request' })).toContainText('edited-in-the-console');
  // Kept like a run: after a reload the session is in History, and opens again in the console.
  await page.reload();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'History' }).click();
  const saved = page.getByRole('table', { name: 'Console sessions' });
  await saved.getByRole('row').nth(1).getByRole('link', { name: /^Open/ }).click();
  await expect(call(page, 'c1')).toContainText('Re-send POST');
  await expect(
    page
      .getByRole('region', { name: 'Timeline' })
      .getByRole('button', { name: /tasks\/get/ })
      .first(),
  ).toBeVisible();
});

test('axe: the console with a session, light and dark, wide and phone: no serious or critical violations, no sideways scroll at 390 px', async ({ page }) => {
  await connect(page, await demoUrl(page, 'flawed'));
  await send(page, 'Write a haiku about interoperability', 'Streaming');
  await expect(call(page, 'c1').getByRole('status')).toContainText('required finding');
  // Everything open: an event's data, the push configs form, the wire inspector on the stream's exchange.
  await call(page, 'c1').getByText('Event data').first().click();
  await page.getByText(/^Push notification configs of/).click();
  await call(page, 'c1')
    .getByRole('button', { name: /^Inspect exchange / })
    .first()
    .click();
  await expect(page.getByRole('region', { name: 'Wire inspector' }).getByRole('region', { name: 'SSE events' })).toBeVisible();
  const found: string[] = [];
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
    for (const width of [1400, 390]) {
      await page.setViewportSize({ width, height: 900 });
      const r = await axeScan(page);
      for (const v of r.violations) {
        if (v.impact === 'serious' || v.impact === 'critical')
          found.push(
            `[${scheme} ${width}] ${v.id}: ${v.help}: ${v.nodes
              .map((n) => n.target.join(' '))
              .slice(0, 4)
              .join('; ')}`,
          );
      }
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      if (overflow > 0) found.push(`[${scheme} ${width}] the page scrolls sideways by ${overflow} px`);
    }
  }
  expect(found, found.join('\n')).toEqual([]);
});

for (const viewport of [
  { name: 'laptop', width: 1400, height: 900 },
  { name: 'phone', width: 390, height: 844 },
]) {
  test.describe(`the conversation, ${viewport.name} ${viewport.width}x${viewport.height}`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } });

    test('after Send the newest turn is in the viewport, as a conversation, and announced', async ({ page }) => {
      await connect(page, await demoUrl(page, 'v03'));
      const log = page.getByRole('log', { name: 'Conversation' });
      for (const [i, text] of ['hello from the console', 'and a second message'].entries()) {
        await send(page, text);
        const turn = log.getByRole('article', { name: `Turn c${i + 1}` });
        await expect(turn).toBeInViewport();
        // The user's words, then the agent's: the echo (its artifact), a status change as a separator.
        await expect(turn.locator('.bubble-you')).toContainText(text);
        await expect(turn.locator('.bubble-agent')).toContainText('answered');
        await expect(turn.locator('.turn-sep')).toContainText('completed');
        await expect(turn.locator('.turn-artifact')).toContainText(text);
        await expect(turn.getByRole('button', { name: `Show c${i + 1} in the call log` })).toBeVisible();
      }
      await page.screenshot({ path: `test-results/issue25-console-${viewport.name}.png` });
      await page.emulateMedia({ colorScheme: 'dark' });
      await page.screenshot({ path: `test-results/issue25-console-${viewport.name}-dark.png` });
      // Task actions: short labels, the id in the accessible name; one line each on a phone.
      const task = tasks(page)
        .getByRole('article', { name: /^Task / })
        .first();
      const id = ((await task.getAttribute('aria-label')) ?? '').replace(/^Task /, '');
      const get = task.getByRole('button', { name: `Get task ${id}` });
      await expect(get).toHaveText('Get');
      const resub = task.getByRole('button', { name: `Resubscribe (the task has ended) to task ${id}` });
      await expect(resub).toHaveText('Resubscribe');
      const box = await resub.boundingBox();
      expect(box!.height, 'one line').toBeLessThan(44);
      // The call log is one click away from the turn.
      await log.getByRole('button', { name: 'Show c1 in the call log' }).click();
      await expect(page.locator('#call-c1-h')).toBeFocused();
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow, 'no sideways scroll').toBeLessThanOrEqual(0);
    });

    test('a stream the user stops says "stopped by you", never "answered" or "error"', async ({ page }) => {
      await connect(page, await demoUrl(page, 'v03'));
      await send(page, 'Prepare the slow report', 'Streaming');
      const turn = page.getByRole('log', { name: 'Conversation' }).getByRole('article', { name: 'Turn c1' });
      await expect(turn.locator('.turn-sep').first()).toBeVisible();
      await turn.getByRole('button', { name: 'Stop reading c1' }).click();
      await expect(turn.locator('.bubble-agent .chip')).toHaveText('stopped by you');
      const c1 = call(page, 'c1');
      await expect(c1.getByRole('status')).toContainText('stopped by you');
      await expect(c1.getByRole('status')).not.toContainText('answered');
      await expect(c1.getByRole('region', { name: 'Events of call c1' }).getByRole('heading')).toContainText('stream stopped by you');
      await expect(c1).not.toContainText(/stream error/);
    });
  });
}
