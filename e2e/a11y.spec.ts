import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { axeScan } from './fixtures/axe';
import { writeReport } from './fixtures/reports';

/**
 * Automated accessibility scans (axe-core) of every page and state, light and dark: no serious or critical
 * violation. To cover another page, add a `Visit` to VISITS: it drives the page into each state and calls
 * `scan(label)` there; every visit runs in both colour schemes and, unless `wideOnly`, on a phone too.
 */
type Scan = (label: string) => Promise<void>;

interface Visit {
  name: string;
  wideOnly?: boolean;
  run(page: Page, scan: Scan): Promise<void>;
}

async function demoUrl(page: Page, id: string): Promise<string> {
  const res = await page.request.get('/api/demo-agents');
  const list = (await res.json()) as { id: string; url: string; baseUrl?: string }[];
  const d = list.find((a) => a.id === id)!;
  return d.baseUrl ?? d.url;
}

const runStatus = (page: Page) => page.getByText(/^Run:/);

async function startRun(page: Page, url: string) {
  const edit = page.getByRole('button', { name: 'Edit the run setup' });
  if (await edit.isVisible()) await edit.click();
  await page.getByLabel('Agent URL', { exact: true }).fill(url);
  await page.getByRole('button', { name: 'Run conformance' }).click();
}

const VISITS: Visit[] = [
  {
    name: 'history and compare',
    async run(page, scan) {
      const files = [
        writeReport('a11y-a-old', { runId: 'a11y-a-old', agentUrl: 'http://127.0.0.1:9999/a2a', flawed: true, startAt: Date.UTC(2026, 9, 1, 9) }),
        writeReport('a11y-b', { runId: 'a11y-b', agentUrl: 'http://127.0.0.1:9998/other', startAt: Date.UTC(2026, 9, 2, 9) }),
        writeReport('a11y-a-new', {
          runId: 'a11y-a-new',
          agentUrl: 'http://127.0.0.1:9999/a2a',
          startAt: Date.UTC(2026, 9, 3, 9),
          statuses: { 'streaming.resubscribe': 'skip' },
        }),
      ];
      await page.goto('/history');
      await scan('history, empty');
      for (const f of files) {
        // Opening a report navigates to it: come back to the history page (which holds the file input) each time.
        if (!page.url().endsWith('/history')) await page.goto('/history');
        await page.getByLabel('Open a JSON report').setInputFiles(f);
        await expect(page).toHaveURL(/\/runs\/a11y-/);
        await expect(page.getByRole('status', { name: 'Conformance level' })).toBeVisible();
      }
      await scan('opened report (saved run view)');
      await page.getByRole('link', { name: 'Back to history' }).click();
      const table = page.getByRole('table', { name: 'Past runs' });
      await expect(table.getByRole('row')).toHaveCount(4);
      await scan('history list (level chips, not assessed chip when present)');
      await table.getByRole('checkbox').nth(0).check();
      await table.getByRole('checkbox').nth(1).check();
      await page.getByRole('button', { name: 'Compare selected runs' }).click();
      await expect(page.getByText('These runs are of different agents.')).toBeVisible();
      await scan('compare, different agents warning');
      await page.getByRole('button', { name: "Compare with this agent's previous run" }).click();
      await expect(page.getByRole('status', { name: 'Comparison summary' })).toContainText('not applicable');
      await scan('compare, same agent (fixed / not applicable rows)');
    },
  },
  {
    name: 'registry',
    async run(page, scan) {
      await page.goto('/registry');
      await expect(page.getByRole('table', { name: 'Mapper log' })).toContainText('No export or import recorded yet.');
      await scan('registry, empty');
      await page.getByLabel('Agent or card URL').fill(new URL('/no-agent-here', page.url()).toString());
      await page.getByRole('button', { name: 'Add agent by URL' }).click();
      await expect(page.getByRole('alert')).toContainText('No agent card found', { timeout: 20_000 });
      await scan('registry, failed add (alert + failed log row)');
      await page.getByLabel('Agent or card URL').fill(new URL('/demo/v03', page.url()).toString());
      await page.getByRole('button', { name: 'Add agent by URL' }).click();
      const row = page.getByRole('table', { name: 'Registered agents' }).getByRole('row').filter({ hasText: 'Demo agent (v0.3 SDK)' });
      await expect(page.getByRole('region', { name: 'Exported card' }).getByRole('status', { name: 'Card checks' })).toContainText(/card checks pass/);
      await scan('registry list + exported card preview');
      await row.getByRole('button', { name: /^Export card of / }).click();
      await expect(page.getByRole('region', { name: /would fail our card checks$/ })).toBeVisible();
      await scan('export warning (v1.0 card fails our checks, v0.3 offered)');
      await page
        .getByRole('region', { name: /would fail our card checks$/ })
        .getByRole('button', { name: 'Cancel' })
        .click();
      await row.getByRole('button', { name: /^Edit / }).click();
      const form = page.getByRole('form', { name: /^Edit / });
      await form.getByLabel('Local fields').fill('{"team": ');
      await form.getByRole('button', { name: 'Save agent' }).click();
      await expect(form.getByRole('alert')).toBeVisible();
      await scan('agent editor with a field error');
    },
  },
  {
    name: 'exported HTML report',
    async run(page, scan) {
      for (const [name, opts] of [
        ['a11y-html-flawed', { runId: 'a11y-html', flawed: true }],
        ['a11y-html-clean', { runId: 'a11y-html-clean' }],
      ] as const) {
        await page.goto('/history');
        await page.getByLabel('Open a JSON report').setInputFiles(writeReport(name, opts));
        await expect(page.getByRole('status', { name: 'Conformance level' })).toBeVisible();
        const download = page.waitForEvent('download');
        await page.getByRole('button', { name: 'Export HTML' }).click();
        const html = readFileSync((await (await download).path())!, 'utf8');
        await page.setContent(html);
        await scan(`HTML export (${name})`);
      }
    },
  },

  {
    name: 'run page',
    async run(page, scan) {
      await page.goto('/');
      await expect(page.getByRole('heading', { name: 'Try a demo agent' })).toBeVisible();
      await scan('run form, idle');
      // (a URL without a scheme is completed, not refused: a scheme other than http(s) is the malformed case)
      await page.getByLabel('Agent URL', { exact: true }).fill('ftp://localhost:3000');
      await page.getByRole('button', { name: 'Run conformance' }).click();
      await scan('run form, malformed URL');

      await startRun(page, await demoUrl(page, 'flawed'));
      await expect(page.getByRole('status', { name: 'Conformance level' })).toHaveText('Running');
      await scan('flawed agent, running');
      await expect(runStatus(page)).toContainText('Completed', { timeout: 120_000 });
      await scan('flawed agent, completed');

      const failed = page.getByRole('table', { name: 'Failed tests' });
      await failed.getByRole('row').nth(1).getByRole('button', { expanded: false }).click();
      await failed.locator('tr.failure-details').getByRole('button', { name: 'Open exchange' }).click();
      await expect(page.getByRole('region', { name: 'Wire inspector' }).getByRole('table', { name: 'Response headers' })).toBeVisible();
      await page.getByText(/^Added by our proxy/).click();
      await scan('failure expanded, wire inspector open');
      await page.getByRole('button', { name: 'Close inspector' }).click();

      await page.getByRole('heading', { name: 'Charts' }).scrollIntoViewIfNeeded();
      await page.getByRole('button', { name: 'Show Latency per operation as table' }).click();
      await page.getByRole('button', { name: 'Raw JSON' }).first().click();
      await scan('charts (and a table view), card as raw JSON');

      await startRun(page, 'http://127.0.0.1:9/agent');
      await expect(page.getByRole('status', { name: 'Conformance level' })).toContainText('not assessed', { timeout: 60_000 });
      // Never exercised: a message (headline, Edit, Try again, the JSON export), not a report.
      await expect(page.getByRole('region', { name: 'Verdict' }).getByRole('heading', { name: /Nothing is listening at 127\.0\.0\.1:9/ })).toBeVisible();
      await expect(page.getByRole('table', { name: 'Results' })).toHaveCount(0);
      await scan('unreachable agent, not assessed (a message)');
    },
  },
  {
    name: 'console conversation',
    async run(page, scan) {
      await page.goto('/console');
      await page.getByLabel('Agent URL').fill(await demoUrl(page, 'v03'));
      await page.getByRole('button', { name: 'Connect', exact: true }).click();
      await expect(page.getByRole('status').filter({ hasText: 'Connected to' })).toBeVisible();
      const form = page.getByRole('form', { name: 'Compose a message' });
      await form.getByLabel('Message', { exact: true }).fill('Book a table for two');
      await form.getByRole('button', { name: 'Send', exact: true }).click();
      const turn = page.getByRole('log', { name: 'Conversation' }).getByRole('article', { name: 'Turn c1' });
      await expect(turn.locator('.turn-sep')).toContainText('input-required');
      await scan('console: a conversation with an input-required task');
    },
  },
  {
    name: 'tap page',
    async run(page, scan) {
      await page.goto('/tap');
      await scan('tap, idle');
      await page.getByLabel('Slow card (ms)').fill('soon');
      await page.getByRole('button', { name: 'Start tap' }).click();
      await expect(page.getByLabel('Slow card (ms)')).toHaveAttribute('aria-invalid', 'true');
      await scan('tap, a fault field error');
      await page.getByLabel('Slow card (ms)').fill('');
      await page.getByRole('button', { name: 'Orchestrator -> demo agent' }).click();
      await expect(page.getByRole('list', { name: 'What the orchestrator answered' })).toBeVisible();
      await expect(page.getByRole('region', { name: 'Two-agent checks (A -> B)' }).getByText('Pass').first()).toBeVisible();
      await scan('tap: the two-agent demo, conversation, findings, timeline');
      await page.getByRole('button', { name: 'Stop tap' }).click();
      await expect(page.getByRole('heading', { name: 'The tap was here' })).toBeVisible();
      await scan('tap, stopped');
    },
  },
  {
    name: 'settings page',
    async run(page, scan) {
      await page.goto('/settings');
      await expect(page.getByRole('status', { name: 'Proxy status' })).toContainText('Proxy reachable');
      await scan('settings');
      await page.getByLabel('Proxy URL').fill('http://127.0.0.1:9/proxy');
      await expect(page.getByRole('status', { name: 'Proxy status' })).toContainText('Proxy unreachable');
      await scan('settings, proxy unreachable');
    },
  },
];

// Each visit drives its page once per viewport and scans every state in both colour schemes (the scheme is switched
// in place: a page's states cost far more to reach than a scan), which halved the spec's time in CI (380 s before).
const SCHEMES = ['light', 'dark'] as const;
for (const viewport of [
  { name: 'wide', width: 1400, height: 900 },
  { name: 'phone', width: 390, height: 844 },
]) {
  for (const visit of VISITS) {
    if (visit.wideOnly && viewport.name === 'phone') continue;
    test(`axe: ${visit.name}, ${viewport.name}, light and dark: no serious or critical violations`, async ({ page }) => {
      // A visit reaches its states once and scans each twice: the run page's visit (a whole run, seven states) took 56 s
      // on a quiet machine; CI runs it beside the unit suite.
      test.setTimeout(240_000);
      await page.setViewportSize({ width: viewport.width, height: viewport.height });
      await page.emulateMedia({ colorScheme: 'light', reducedMotion: 'reduce' });
      const found: string[] = [];
      const scanned = { light: 0, dark: 0 };
      const scan: Scan = async (label) => {
        for (const scheme of SCHEMES) {
          await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
          // One frame for the scheme's styles to apply before axe reads colours.
          await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
          const result = await axeScan(page);
          scanned[scheme]++;
          for (const v of result.violations) {
            if (v.impact !== 'serious' && v.impact !== 'critical') continue;
            const where = v.nodes
              .slice(0, 4)
              .map((n) => `${n.target.join(' ')}${n.failureSummary ? ` (${n.failureSummary.split('\n').slice(1, 2).join('').trim()})` : ''}`)
              .join('; ');
            found.push(`[${label}, ${scheme}] ${v.id} (${v.impact}, ${v.nodes.length} nodes): ${v.help}: ${where}`);
          }
        }
        await page.emulateMedia({ colorScheme: 'light', reducedMotion: 'reduce' });
      };
      await visit.run(page, scan);
      expect(scanned.light).toBeGreaterThan(0);
      expect(scanned.dark).toBe(scanned.light);
      expect(found, found.join('\n')).toEqual([]);
    });
  }
}
