import { expect, test, type Page } from '@playwright/test';

/**
 * Issue 14 (signed cards, extensions) against the `signed` demo agent `npm start` serves: the card view shows each
 * signature's verification status and the declared extensions; the console activates the required extension on every
 * message, as a run does.
 */

async function signedDemo(page: Page): Promise<{ url: string; label: string }> {
  const res = await page.request.get('/api/demo-agents');
  const d = ((await res.json()) as { id: string; label: string; url: string; baseUrl?: string }[]).find((a) => a.id === 'signed');
  if (!d) throw new Error('demo agent signed not served');
  return { url: d.baseUrl ?? d.url, label: d.label };
}

test('the card view shows the verified signature and the declared extensions of a signed card', async ({ page }) => {
  await page.goto('/');
  const demo = await signedDemo(page);
  // A demo button fills the form and runs (issue 25 item 6).
  await page.getByRole('button', { name: `Run demo agent ${demo.label}` }).click();
  await expect(page.getByText(/^Run:/)).toContainText('Completed', { timeout: 60_000 });
  await expect(page.getByRole('status', { name: 'Conformance level' })).toContainText('full');
  const signatures = page.getByRole('list', { name: 'Card signatures' });
  await expect(signatures.getByRole('listitem')).toHaveCount(1);
  await expect(signatures).toContainText(/valid signatures\[0\] \(kid "test-key-1", ES256\): valid: verified with a key from the jku/);
  const extensions = page.getByRole('list', { name: 'Declared extensions' });
  await expect(extensions.getByRole('listitem')).toHaveCount(2);
  await expect(extensions).toContainText('https://a2a-interop.test/ext/consent/v1 (required)');
});

test('the console activates the required extension on every message, as a run does: served without asking', async ({ page }) => {
  await page.goto('/console');
  await page.getByLabel('Agent URL').fill((await signedDemo(page)).url);
  await page.getByRole('button', { name: 'Connect', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Connected to' })).toBeVisible();
  const form = page.getByRole('form', { name: 'Compose a message' });
  await form.getByText(/^Extensions/).click();
  const required = form.getByRole('checkbox', { name: /consent\/v1 \(required: always activated\)/ });
  await expect(required).toBeChecked();
  await expect(required).toBeDisabled();
  await form.getByLabel('Message', { exact: true }).fill('hello');
  await form.getByRole('button', { name: 'Send', exact: true }).click();
  const c1 = page.getByRole('article', { name: /^c1 / });
  await expect(c1.getByRole('status')).toContainText('0 required finding(s)');
  await expect(c1).not.toContainText('-32008');
});
