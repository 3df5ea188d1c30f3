import { expect, test } from '@playwright/test';
import { writeReport } from './fixtures/reports';

test('history lists runs; compare shows a summary line and the checks that changed (pass -> skip is not applicable); delete removes a run', async ({
  page,
}) => {
  const before = writeReport('before', { runId: 'e2e-before', flawed: true, startAt: Date.UTC(2026, 9, 1, 9) });
  const after = writeReport('after', {
    runId: 'e2e-after',
    flawed: true,
    startAt: Date.UTC(2026, 9, 2, 9),
    statuses: { 'errors.task-not-found': 'pass', 'streaming.resubscribe': 'skip' },
  });
  await page.goto('/history');
  await page.getByLabel('Open a JSON report').setInputFiles(before);
  await expect(page).toHaveURL(/\/runs\/e2e-before$/);
  await page.getByRole('link', { name: 'Back to history' }).click();
  await page.getByLabel('Open a JSON report').setInputFiles(after);
  await expect(page).toHaveURL(/\/runs\/e2e-after$/);
  await page.getByRole('link', { name: 'History', exact: true }).click();

  const table = page.getByRole('table', { name: 'Past runs' });
  const rowBefore = table.getByRole('row').filter({ hasText: 'minimal' }).filter({ hasText: '2026' });
  await expect(rowBefore).toHaveCount(2);
  const boxes = table.getByRole('checkbox', { name: /^Select Synthetic Echo Agent/ });
  await expect(boxes).toHaveCount(2);
  await boxes.nth(0).check();
  await boxes.nth(1).check();
  await page.getByRole('button', { name: 'Compare selected runs' }).click();
  await expect(page.getByRole('status', { name: 'Comparison summary' })).toHaveText('minimal → minimal · 1 fixed · 0 regressed · 1 not applicable');
  await expect(page.getByRole('heading', { name: 'Comparison' })).toBeFocused();
  await expect(page.getByText('These runs are of different agents.')).toHaveCount(0);
  const changed = page.getByRole('table', { name: 'Changed checks' });
  await expect(changed.getByRole('row')).toHaveCount(3);
  await expect(changed).toContainText('errors.task-not-found');
  await expect(changed.getByRole('row').nth(1)).toContainText(/fail.*pass.*fixed/);
  await expect(changed.getByRole('row').nth(2)).toContainText(/streaming\.resubscribe.*pass.*skipped.*not applicable \(feature not declared\)/);
  await expect(changed).not.toContainText('regress');

  // Open one from the list, then delete it.
  await table
    .getByRole('link', { name: /^Open run of Synthetic Echo Agent/ })
    .first()
    .click();
  await expect(page.getByRole('status', { name: 'Conformance level' })).toBeVisible();
  await page.goBack();
  const countBefore = await table.getByRole('row').count();
  await table
    .getByRole('button', { name: /^Delete run of/ })
    .first()
    .click();
  await table.getByRole('button', { name: 'Confirm delete' }).click();
  await expect(table.getByRole('row')).toHaveCount(countBefore - 1);
});

test("compare warns about two different agents and offers the later agent's previous run; each run offers its previous one", async ({ page }) => {
  const files = [
    writeReport('agent-a-old', { runId: 'e2e-a-old', agentUrl: 'http://127.0.0.1:9999/a2a', flawed: true, startAt: Date.UTC(2026, 9, 1, 9) }),
    writeReport('agent-b', { runId: 'e2e-b', agentUrl: 'http://127.0.0.1:9998/other', startAt: Date.UTC(2026, 9, 2, 9) }),
    writeReport('agent-a-new', { runId: 'e2e-a-new', agentUrl: 'http://127.0.0.1:9999/a2a', startAt: Date.UTC(2026, 9, 3, 9) }),
  ];
  await page.goto('/history');
  for (const file of files) {
    await page.getByLabel('Open a JSON report').setInputFiles(file);
    await expect(page).toHaveURL(/\/runs\/e2e-/);
    await page.getByRole('link', { name: 'Back to history' }).click();
  }
  const table = page.getByRole('table', { name: 'Past runs' });
  await expect(table.getByRole('row')).toHaveCount(4);
  // Newest first: a-new, b, a-old. Only a-new has an earlier run of its agent.
  await expect(table.getByRole('button', { name: /^Compare with previous run of this agent: / })).toHaveCount(1);
  const boxes = table.getByRole('checkbox');
  await boxes.nth(0).check();
  await boxes.nth(1).check();
  await page.getByRole('button', { name: 'Compare selected runs' }).click();
  const warning = page.getByRole('note').filter({ hasText: 'These runs are of different agents.' });
  await expect(warning).toContainText('The earlier run tested http://127.0.0.1:9998/other, the later one http://127.0.0.1:9999/a2a');
  await warning.getByRole('button', { name: "Compare with this agent's previous run" }).click();
  await expect(warning).toHaveCount(0);
  await expect(page.getByRole('status', { name: 'Comparison summary' })).toHaveText(/^minimal → full · [1-9]\d* fixed · 0 regressed · 0 not applicable$/);
  // The row button gives the same comparison.
  await table.getByRole('button', { name: /^Compare with previous run of this agent: / }).click();
  await expect(page.getByRole('status', { name: 'Comparison summary' })).toHaveText(/^minimal → full · /);
});
