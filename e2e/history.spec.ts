import { expect, test } from '@playwright/test';
import { writeReport } from './fixtures/reports';

test('history lists runs; compare shows the check that changed; delete removes a run', async ({ page }) => {
  const before = writeReport('before', { runId: 'e2e-before', flawed: true, startAt: Date.UTC(2026, 9, 1, 9) });
  const after = writeReport('after', { runId: 'e2e-after', flawed: true, startAt: Date.UTC(2026, 9, 2, 9), statuses: { 'errors.task-not-found': 'pass' } });
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
  const changed = page.getByRole('table', { name: 'Changed checks' });
  await expect(changed.getByRole('row')).toHaveCount(2);
  await expect(changed).toContainText('errors.task-not-found');
  await expect(changed.getByRole('row').nth(1)).toContainText(/fail.*pass.*fix/);

  // Open one from the list, then delete it.
  await table.getByRole('link', { name: /^Open run of Synthetic Echo Agent/ }).first().click();
  await expect(page.getByRole('status', { name: 'Conformance level' })).toBeVisible();
  await page.goBack();
  const countBefore = await table.getByRole('row').count();
  await table.getByRole('button', { name: /^Delete run of/ }).first().click();
  await table.getByRole('button', { name: 'Confirm delete' }).click();
  await expect(table.getByRole('row')).toHaveCount(countBefore - 1);
});
