// temporary screenshot helper (not committed)
import { chromium } from '@playwright/test';
const [,, port = '4191', demo = 'flawed', out = '/tmp/shots/x', w = '1400', h = '900', theme = 'light', extra = ''] = process.argv;
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
const page = await browser.newPage({ viewport: { width: Number(w), height: Number(h) }, colorScheme: theme as 'light' | 'dark' });
await page.goto(`http://127.0.0.1:${port}/`);
const agents = await (await page.request.get(`http://127.0.0.1:${port}/api/demo-agents`)).json();
const d = agents.find((a: any) => a.id === demo);
await page.getByLabel('Agent URL', { exact: true }).fill(demo === 'bad' ? 'http://127.0.0.1:9/agent' : d.baseUrl);
await page.getByRole('button', { name: 'Run conformance' }).click();
await page.waitForTimeout(700);
await page.screenshot({ path: `${out}-running.png` });
await page.getByText('Run: Completed').waitFor({ timeout: 120000 }).catch(() => {});
await page.waitForTimeout(500);
await page.screenshot({ path: `${out}-done.png` });
if (extra.includes('full')) await page.screenshot({ path: `${out}-full.png`, fullPage: true });
const sw = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
console.log('scrollWidth/innerWidth', sw);
await browser.close();
