import { expect, test } from '@playwright/test';
import { readFileSync } from 'node:fs';

/**
 * A dashboard run against the SDK demo agents reports its own time to verdict and what decided it (issue 23): the
 * verdict card says it, in the same words as the exported report's timing section.
 */
for (const label of ['v1.0 agent (@a2a-js/sdk 1.3.0, JSON-RPC + HTTP+JSON)', 'v0.3 agent (@a2a-js/sdk 0.3.14, JSON-RPC + HTTP+JSON)']) {
  test(`time to verdict of a run against the demo ${label}`, async ({ page }) => {
    await page.goto('/');
    await page.getByRole('button', { name: `Run demo agent ${label}` }).click();
    await expect(page.getByText(/^Run:/)).toContainText('Completed', { timeout: 60_000 });
    const verdict = page.getByRole('region', { name: 'Verdict' });
    await expect(verdict).toContainText(/Time to verdict: \d+\.\d s · decided by /);
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export JSON' }).click()]);
    const report = JSON.parse(readFileSync((await download.path())!, 'utf8')) as {
      timing?: { timeToVerdictMs: number; decidedBy: string; criticalPath: { id: string }[]; windows: { name: string; ms: number }[] };
    };
    const t = report.timing;
    expect(t?.timeToVerdictMs).toBeGreaterThan(0);
    expect(t?.criticalPath.length).toBeGreaterThan(0);
    await expect(verdict).toContainText(`Time to verdict: ${((t?.timeToVerdictMs ?? 0) / 1000).toFixed(1)} s`);
    await expect(verdict).toContainText(`decided by ${t?.decidedBy ?? '?'}`);
    // The observation windows the run used are in the report, each with its length.
    expect(t?.windows.map((w) => w.name)).toEqual(expect.arrayContaining(['cancel.stay', 'push.stragglers']));
    console.log(`${label}: time to verdict ${t?.timeToVerdictMs} ms, decided by ${t?.decidedBy}`);
  });
}
