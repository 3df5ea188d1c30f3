import { expect, test, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { HOSTILE_CARD_TEXT, startHostileAgent, type RunningHostileAgent } from '../src/testing/hostile';

/**
 * The agent registry (docs/conformance-procedure.md#card-mapper) from the dashboard: the v0.3 demo agent served by `npm start` is added by
 * URL (discovery through the local proxy), exported as a v1.0 card, edited, re-imported and deleted.
 * Each test gets a fresh browser context, so the registry (IndexedDB) starts empty.
 */
const agents: RunningHostileAgent[] = [];
test.afterAll(async () => {
  await Promise.all(agents.map((a) => a.close()));
});

const registered = (page: Page) => page.getByRole('table', { name: 'Registered agents' });
const mapperLog = (page: Page) => page.getByRole('table', { name: 'Mapper log' });
const regStatus = (page: Page) => page.getByRole('status', { name: 'Registry status' });

async function addByUrl(page: Page, url: string) {
  await page.getByLabel('Agent or card URL').fill(url);
  await page.getByRole('button', { name: 'Add agent by URL' }).click();
}

test('the v0.3 demo agent: add by URL, export (warned: the v1.0 card fails our checks; v0.3 card offered), edit local fields, re-add keeping them, mapper log, run now, delete', async ({
  page,
}) => {
  await page.goto('/');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Registry' }).click();
  await expect(page).toHaveURL(/\/registry$/);
  await expect(page.getByRole('region', { name: 'Registry' })).toBeVisible();
  await expect(mapperLog(page)).toContainText('No export or import recorded yet.');
  // The example URL is built from this page's origin (not a fixed port).
  await expect(page.getByLabel('Agent or card URL')).toHaveAttribute('placeholder', new URL('/demo/v03', page.url()).toString());

  const v03 = new URL('/demo/v03', page.url()).toString();
  const cardUrl = `${v03}/.well-known/agent-card.json`;
  await addByUrl(page, v03);
  const row = registered(page).getByRole('row').filter({ hasText: 'Demo agent (v0.3 SDK)' });
  await expect(row).toHaveCount(1);
  await expect(row.getByRole('cell').nth(1)).toHaveText('v0.3'); // Generation
  await expect(row).toContainText('agent:127.0.0.1.demo-agent-v0-3-sdk@');
  await expect(row.getByRole('link', { name: `${v03}/jsonrpc` })).toBeVisible();

  // Export: every interface of this agent serves 0.3, so its v1.0 card would be read as a v0.3 card and fail
  // our card checks. The page says so before downloading anything and offers the v0.3 card.
  await row.getByRole('button', { name: /^Export card of / }).click();
  const warning = page.getByRole('region', { name: /would fail our card checks$/ });
  await expect(warning.getByRole('list', { name: 'Card checks the v1.0 card fails' })).toContainText('card.required-fields');
  await expect(warning).toContainText(/its v0\.3 card passes every card check that applies/);
  const [v03Download] = await Promise.all([page.waitForEvent('download'), warning.getByRole('button', { name: 'Export v0.3 card' }).click()]);
  expect(v03Download.suggestedFilename()).toBe('agent-127-0-0-1-demo-agent-v0-3-sdk.v0.3.agent-card.json');
  const v03Card = JSON.parse(readFileSync((await v03Download.path())!, 'utf8')) as Record<string, unknown>;
  expect(v03Card).toMatchObject({ protocolVersion: '0.3.0', url: `${v03}/jsonrpc`, preferredTransport: 'JSONRPC', name: 'Demo agent (v0.3 SDK)' });
  expect((v03Card.additionalInterfaces as { transport: string }[]).map((i) => i.transport)).toContain('HTTP+JSON');
  await expect(warning).toHaveCount(0);

  // The v1.0 card anyway (supportedInterfaces, no v0.x fields or kind discriminators).
  await row.getByRole('button', { name: /^Export card of / }).click();
  const [download] = await Promise.all([page.waitForEvent('download'), warning.getByRole('button', { name: 'Export v1.0 card anyway' }).click()]);
  expect(download.suggestedFilename()).toBe('agent-127-0-0-1-demo-agent-v0-3-sdk.agent-card.json');
  const text = readFileSync((await download.path())!, 'utf8');
  const card = JSON.parse(text) as Record<string, unknown>;
  const interfaces = card.supportedInterfaces as { url: string; protocolBinding: string; protocolVersion: string }[];
  expect(interfaces.length).toBeGreaterThan(0);
  expect(interfaces[0]).toMatchObject({ url: `${v03}/jsonrpc`, protocolBinding: 'JSONRPC' });
  expect(interfaces.map((i) => i.protocolBinding)).toContain('HTTP+JSON');
  expect(text).not.toMatch(/"kind"\s*:/);
  for (const v0Field of ['url', 'protocolVersion', 'preferredTransport', 'additionalInterfaces']) expect(card).not.toHaveProperty(v0Field);
  expect(card.name).toBe('Demo agent (v0.3 SDK)');

  // The selected agent's exported card, with the engine's card checks on it.
  const preview = page.getByRole('region', { name: 'Exported card' });
  await expect(preview.getByLabel('Exported card JSON')).toContainText('"supportedInterfaces"');
  await expect(preview.getByRole('status', { name: 'Card checks' })).toContainText(/\d+ of \d+ card checks pass/);

  // Edit the local fields; invalid JSON is explained and nothing typed is lost.
  await row.getByRole('button', { name: /^Edit / }).click();
  let form = page.getByRole('form', { name: /^Edit / });
  await form.getByLabel('Local fields').fill('{"team": "e2e",');
  await form.getByRole('button', { name: 'Save agent' }).click();
  await expect(form.getByRole('alert')).toContainText('Local fields are not valid JSON');
  await expect(form.getByLabel('Local fields')).toHaveValue('{"team": "e2e",');
  await form.getByLabel('Local fields').fill('{"team": "e2e", "rack": 7}');
  await form.getByRole('button', { name: 'Save agent' }).click();
  await expect(form).toHaveCount(0);
  await expect(regStatus(page)).toContainText('Saved Demo agent (v0.3 SDK)');

  // Re-add by URL: the agent exists, keeping its local fields is the default.
  await addByUrl(page, v03);
  const ask = page.getByRole('form', { name: 'Agent already registered' });
  await expect(ask.getByLabel('Keep its local fields')).toBeChecked();
  await ask.getByRole('button', { name: 'Import card' }).click();
  await expect(regStatus(page)).toContainText('local fields kept');
  await expect(registered(page).getByRole('row')).toHaveCount(2); // header + the one agent

  // The local fields survived the re-import (and a reload: the registry is in IndexedDB).
  await page.reload();
  await row.getByRole('button', { name: /^Edit / }).click();
  form = page.getByRole('form', { name: /^Edit / });
  expect(JSON.parse(await form.getByLabel('Local fields').inputValue())).toEqual({ team: 'e2e', rack: 7 });
  await form.getByRole('button', { name: 'Cancel' }).click();

  // The mapper log lists both imports and both exports, newest first, with how each went.
  const rows = mapperLog(page).getByRole('row');
  await expect(rows).toHaveCount(5);
  const cells = async (i: number) => (await rows.nth(i).getByRole('cell').allTextContents()).slice(1);
  const id = expect.stringMatching(/^agent:127\.0\.0\.1\.demo-agent-v0-3-sdk@/);
  expect(await cells(1)).toEqual(['import', 'A2A v0.3', id, 'a2a-mapper.v1', cardUrl, 'ok']);
  expect(await cells(2)).toEqual([
    'export',
    'A2A v1.0',
    id,
    'a2a-mapper.v1',
    `${v03}/jsonrpc`,
    expect.stringMatching(/^\d+ warnings?card\.required-fields \(fail\)/),
  ]);
  expect(await cells(3)).toEqual(['export', 'A2A v0.3', id, 'a2a-mapper.v1', `${v03}/jsonrpc`, 'ok']);
  expect(await cells(4)).toEqual(['import', 'A2A v0.3', id, 'a2a-mapper.v1', cardUrl, 'ok']);

  // No run of this agent yet.
  await expect(row.getByRole('cell').nth(3)).toHaveText('Never run here');

  // Run now: the Run view opens with the agent filled in and starts the run (run=1 leaves the address).
  await row.getByRole('link', { name: /^Run now on / }).click();
  await expect(page).toHaveURL(/\/\?agent=[^&]+$/);
  const level = page.getByRole('status', { name: 'Conformance level' });
  // partial: @a2a-js/sdk 0.3.14 answers get/cancel without an id with TaskNotFound, not -32602 (sdk-agents.test.ts).
  await expect(level).toContainText('partial', { timeout: 60_000 });

  // Back in the registry, the agent shows that run's level, linked to the run.
  await page.getByRole('link', { name: 'Registry', exact: true }).click();
  await expect(row.getByRole('cell').nth(3)).toContainText('partial');
  await expect(row.getByRole('link', { name: /^Open the last run of / })).toHaveAttribute('href', /^\/runs\//);

  // Delete.
  await row.getByRole('button', { name: /^Delete / }).click();
  await row.getByRole('button', { name: 'Confirm delete' }).click();
  await expect(row).toHaveCount(0);
  await expect(registered(page)).toContainText('No agents yet.');
  await expect(mapperLog(page).getByRole('row')).toHaveCount(5); // the log outlives the agent
});

test('adding by URL explains a wrong URL and a server without a card', async ({ page }) => {
  await page.goto('/registry');
  await addByUrl(page, 'localhost:3000');
  await expect(page.getByRole('alert')).toContainText('must start with http:// or https://');
  const missing = new URL('/no-agent-here', page.url()).toString();
  await addByUrl(page, missing);
  await expect(page.getByRole('alert')).toContainText('No agent card found', { timeout: 20_000 });
  await expect(registered(page)).toContainText('No agents yet.');
  // Both failed adds are in the mapper log, newest first.
  const rows = mapperLog(page).getByRole('row');
  await expect(rows).toHaveCount(3);
  expect((await rows.nth(1).getByRole('cell').allTextContents()).slice(1)).toEqual([
    'import',
    '–',
    '–',
    'a2a-mapper.v1',
    missing,
    expect.stringMatching(/^failed: .*No agent card found/),
  ]);
  expect((await rows.nth(2).getByRole('cell').allTextContents()).slice(1)).toEqual([
    'import',
    '–',
    '–',
    'a2a-mapper.v1',
    'localhost:3000',
    expect.stringMatching(/^failed: .*must start with http/),
  ]);
});

test('an agent whose card has HTML and script in its name is shown as inert text', async ({ page }) => {
  const agent = await startHostileAgent('card-html-script');
  agents.push(agent);
  const dialogs: string[] = [];
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  await page.goto('/registry');
  await addByUrl(page, agent.url);
  const row = registered(page).getByRole('row').filter({ hasText: 'Evil agent' });
  await expect(row).toHaveCount(1);
  await expect(row.getByRole('rowheader')).toHaveText(HOSTILE_CARD_TEXT.name);
  const region = page.getByRole('region', { name: 'Registry' });
  await expect(region.locator('script, img, iframe, svg, b, i')).toHaveCount(0);
  await expect(page.locator('a[href^="javascript:" i]')).toHaveCount(0);
  const preview = page.getByRole('region', { name: 'Exported card' });
  await expect(preview.getByLabel('Exported card JSON')).toContainText(HOSTILE_CARD_TEXT.name);
  await expect(preview.getByRole('status', { name: 'Card checks' })).toContainText(/\d+ of \d+ card checks pass/);
  await expect(mapperLog(page)).toContainText('import');
  expect(dialogs).toEqual([]);
  expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
});
