import { expect, test } from '@playwright/test';

// A push delivery from a demo agent reaches the dashboard server's /inbox and shows on the timeline as it arrives.
test('push deliveries from the v0.3 demo agent appear on the timeline as deliveries (agent text as text, addresses masked)', async ({ page }) => {
  await page.goto('/');
  const agents = (await (await page.request.get('/api/demo-agents')).json()) as { id: string; label: string }[];
  const v03 = agents.find((a) => a.id === 'v03');
  expect(v03, 'the v0.3 demo agent').toBeTruthy();
  // A demo button fills the form and runs (issue 25 item 6).
  await page.getByRole('button', { name: `Run demo agent ${v03?.label ?? ''}` }).click();
  await expect(page.getByText(/^Run:/)).toContainText('Completed', { timeout: 120_000 });
  const timeline = page.getByRole('region', { name: 'Timeline' });
  await timeline.getByLabel('Check').selectOption('lifecycle.push-delivery');
  const delivery = timeline.getByRole('listitem').filter({ hasText: /Push delivery ← task completed/ });
  await expect(delivery.first()).toBeVisible();
  // The inbox address and the config's token never show.
  await expect(page.locator('body')).not.toContainText(/\/inbox\/[0-9a-f]{32}/);
});
