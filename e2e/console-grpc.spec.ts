import { expect, test, type Locator, type Page } from '@playwright/test';

/**
 * The console over gRPC in a browser (issue 21): the page speaks gRPC through the local server's bridge
 * (src/grpc/bridge.ts, /grpc-bridge) to the v1.0 demo agent, which serves gRPC on its own 127.0.0.1 port because
 * playwright.config.ts starts the server with DEMO_GRPC=1. The interface is chosen in the picker by its label, as a
 * user would; a message is answered, a task streamed, and each call judged by the engine's judges. The v1.0 SDK agent
 * passes the send and stream checks of a run over gRPC (src/grpc/dashboard.test.ts), so the console's verdict on the
 * same exchanges must be "0 required finding(s)" too.
 */

async function v1Url(page: Page): Promise<string> {
  const list = (await (await page.request.get('/api/demo-agents')).json()) as { id: string; url: string; baseUrl?: string }[];
  const v1 = list.find((a) => a.id === 'v1');
  if (!v1) throw new Error('demo agent v1 not served');
  const url = v1.baseUrl ?? v1.url;
  // Without DEMO_GRPC the card declares no gRPC interface (a server reused from outside the config, for instance).
  const card = (await (await page.request.get(`${url}/.well-known/agent-card.json`, { headers: { 'A2A-Version': '1.0' } })).json()) as {
    supportedInterfaces?: { protocolBinding: string }[];
  };
  expect(
    card.supportedInterfaces?.map((i) => i.protocolBinding),
    'the v1.0 demo serves gRPC only with DEMO_GRPC=1 (playwright.config.ts)',
  ).toContain('GRPC');
  return url;
}

async function send(page: Page, text: string, mode: 'Blocking' | 'Streaming') {
  const form = page.getByRole('form', { name: 'Compose a message' });
  await form.getByLabel('Message', { exact: true }).fill(text);
  await form.getByRole('radio', { name: new RegExp(`^${mode}`) }).check();
  await form.getByRole('button', { name: mode === 'Streaming' ? 'Send (streaming)' : 'Send', exact: true }).click();
}

const call = (page: Page, id: string): Locator => page.getByRole('article', { name: new RegExp(`^${id} `) });

test('the console over gRPC: the interface picked by name, a message answered, a task streamed, both judged', async ({ page }) => {
  const url = await v1Url(page);
  await page.goto('/console');
  const connect = page.getByRole('form', { name: 'Connect to an agent' });
  await connect.getByLabel('Agent URL').fill(url);
  await connect.getByRole('combobox', { name: 'Binding' }).selectOption({ label: 'gRPC (v1.0)' });
  await connect.getByRole('button', { name: 'Connect', exact: true }).click();
  // Connected over gRPC, at the host:port the card declares (not the HTTP URL typed).
  const connected = page.getByRole('status').filter({ hasText: 'Connected to' });
  await expect(connected).toContainText('A2A v1.0 over GRPC');
  await expect(connected.locator('code')).toHaveText(/^127\.0\.0\.1:\d+$/);

  await send(page, 'hello over gRPC', 'Blocking');
  const c1 = call(page, 'c1');
  await expect(c1.getByRole('status')).toContainText('SendMessage');
  await expect(c1.getByRole('status')).toContainText('0 required finding(s)');
  const tasksPanel = page.getByRole('region', { name: /^Tasks/ });
  // The state as the agent sent it (v1.0 spells it TASK_STATE_COMPLETED), and the echo in the task's artifact.
  const task = tasksPanel.getByRole('article', { name: /^Task / }).first();
  await expect(task).toContainText('TASK_STATE_COMPLETED');
  await expect(task.getByRole('region', { name: /^Artifacts of task/ })).toContainText('You said: hello over gRPC');

  await send(page, 'Write a haiku about interoperability', 'Streaming');
  const c2 = call(page, 'c2');
  await expect(c2.getByRole('status')).toContainText('SendStreamingMessage');
  await expect(c2.getByRole('status')).toContainText('0 required finding(s)');
  const events = c2.getByRole('region', { name: 'Events of call c2' });
  await expect(events.getByRole('listitem').first()).toBeVisible();
  await expect(events).toContainText('TASK_STATE_COMPLETED');
  // No event flagged: the stream's findings agree with the call's verdict.
  await expect(events.getByRole('listitem', { name: /finding/ })).toHaveCount(0);
  // The haiku, reassembled from its streamed chunks.
  await expect(tasksPanel).toContainText('Two agents exchange');
});
