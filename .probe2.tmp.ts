import { chromium } from '@playwright/test';
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
await page.goto('http://127.0.0.1:4191/');
await page.getByLabel('Agent URL', { exact: true }).fill(process.argv[2] ?? 'http://127.0.0.1:9/agent');
await page.getByRole('button', { name: 'Run conformance' }).click();
await page.getByText(/^Run: (Completed|Errored)/).waitFor({ timeout: 120000 });
await page.waitForTimeout(500);
console.log(await page.evaluate(() => {
  const out: string[] = [];
  for (const el of document.querySelectorAll('body *')) {
    const r = el.getBoundingClientRect();
    if (r.right > window.innerWidth + 1 && r.width > 0) out.push(`${el.tagName}.${el.className} right=${Math.round(r.right)} w=${Math.round(r.width)}`);
  }
  return out.slice(0, 25).join('\n');
}));
await page.screenshot({ path: '/tmp/shots/probe-phone.png' });
await browser.close();
