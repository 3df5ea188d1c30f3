import { expect, test } from '@playwright/test';
import { axeScan } from './fixtures/axe';
import { readFileSync } from 'node:fs';

/**
 * The registry's fleet run (issue 24): two demo agents added by URL, "Run all" through the local proxy, the fleet
 * table with each agent's level and levels over time from the History, the run-many summary exported, and the panel
 * free of serious accessibility violations. Each test gets a fresh browser context: the registry starts empty.
 */
test('Run all: both demo agents run, the fleet table and History show their levels, summary.json downloads', async ({ page }) => {
  await page.goto('/registry');
  const fleet = page.getByRole('region', { name: 'Fleet run' });
  for (const [i, demo] of ['legacy', 'v03'].entries()) {
    await page.getByLabel('Agent or card URL').fill(new URL(`/demo/${demo}`, page.url()).toString());
    await page.getByRole('button', { name: 'Add agent by URL' }).click();
    await expect(page.getByRole('table', { name: 'Registered agents' }).getByRole('row')).toHaveCount(i + 2);
  }
  await fleet.getByRole('spinbutton', { name: 'Agents at once' }).fill('2');
  await fleet.getByRole('button', { name: 'Run all (2)' }).click();
  await expect(fleet.getByRole('status', { name: 'Fleet status' })).toHaveText(/^Fleet run finished: /, { timeout: 120_000 });

  const rows = fleet.getByRole('table', { name: 'Fleet results' }).getByRole('row');
  await expect(rows).toHaveCount(3); // header + two agents
  const levels = await rows.evaluateAll((trs) => trs.slice(1).map((tr) => tr.querySelector('td')?.textContent ?? ''));
  expect(levels.sort()).toEqual(expect.arrayContaining([expect.stringMatching(/^(full|partial|minimal|non-conformant)/)]));
  expect(
    levels.every((l) => !/not run|tool failure/.test(l)),
    levels.join(' | '),
  ).toBe(true);
  // Each run is in the History: its level is the last of the agent's levels over time.
  for (const list of await fleet.getByRole('list', { name: /^Levels over time of / }).all()) await expect(list.getByRole('listitem')).toHaveCount(1);

  const [download] = await Promise.all([page.waitForEvent('download'), fleet.getByRole('button', { name: 'Export summary.json' }).click()]);
  expect(download.suggestedFilename()).toBe('summary.json');
  const summary = JSON.parse(readFileSync((await download.path())!, 'utf8')) as { kind: string; agents: { url: string; outcome: string }[] };
  expect(summary.kind).toBe('a2a-interop-fleet-summary');
  expect(summary.agents.map((a) => new URL(a.url).pathname.split('/.well-known/')[0]).sort()).toEqual(['/demo/legacy', '/demo/v03']);
  expect(summary.agents.every((a) => a.outcome === 'assessed')).toBe(true);

  // The panel with its results, scanned before leaving the page.
  const axe = await axeScan(page, '.registry-fleet');
  expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'History' }).click();
  await expect(page.getByText(/demo\/legacy/).first()).toBeVisible();
});
