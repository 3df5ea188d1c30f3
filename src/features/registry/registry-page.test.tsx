// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, configure, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CardError } from '../../lib/engine-adapter';
import type { RunMeta } from '../../lib/db';
import { checkCard, RegistryDb } from '../../lib/registry-db';
import { sampleCard } from '../../testing/fake-host';
import { RegistryPage, type RegistryDeps } from './registry-page';

afterEach(cleanup);
// The machine is shared: IndexedDB and the card checks can take more than the default second.
configure({ asyncUtilTimeout: 10_000 });

const V03_URL = 'http://127.0.0.1:4179/demo/v03';
const V03_CARD_URL = `${V03_URL}/.well-known/agent-card.json`;
const v03Card = () => ({ ...sampleCard('v0.3', V03_URL), name: 'Demo agent (v0.3 SDK)' });

let n = 0;
function setup(over: Partial<RegistryDeps> = {}) {
  const db = new RegistryDb(`registry-ui-${++n}-${Date.now()}`);
  const downloads: { filename: string; mimeType: string; body: string }[] = [];
  const deps: RegistryDeps = {
    db,
    discover: vi.fn(async (url: string) => {
      if (!url.startsWith(V03_URL)) throw new Error(`No agent card found at ${url}. Check the URL.`);
      return { cardUrl: V03_CARD_URL, raw: v03Card() };
    }),
    checkCard,
    download: (filename, mimeType, body) => downloads.push({ filename, mimeType, body }),
    runs: async () => [],
    ...over,
  };
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={qc}>
      <RegistryPage deps={deps} />
    </QueryClientProvider>,
  );
  return { db, deps, downloads };
}

const agentsTable = () => screen.getByRole('table', { name: 'Registered agents' });
const logRows = () =>
  within(screen.getByRole('table', { name: 'Mapper log' }))
    .getAllByRole('row')
    .slice(1);
const logCells = () =>
  logRows().map((r) =>
    within(r)
      .getAllByRole('cell')
      .map((c) => c.textContent),
  );
const region = () => screen.getByRole('region', { name: 'Registry' });

async function addByUrl(url: string) {
  fireEvent.change(screen.getByLabelText('Agent or card URL'), { target: { value: url } });
  fireEvent.click(screen.getByRole('button', { name: 'Add agent by URL' }));
}

describe('registry page', () => {
  it('adds an agent by URL, lists it with its generation; export warns that the v1.0 card fails our checks, offers the v0.3 card; every step is logged', async () => {
    const { downloads, db } = setup();
    expect(region()).toBeTruthy();
    expect(logRows().map((r) => r.textContent)).toEqual(['Loading…']);
    await waitFor(() => expect(logRows()[0]!.textContent).toBe('No export or import recorded yet.'));
    await addByUrl(V03_URL);
    const row = await within(agentsTable()).findByRole('row', { name: /Demo agent \(v0\.3 SDK\)/ });
    const id = 'agent:127.0.0.1.demo-agent-v0-3-sdk';
    expect(row.textContent).toContain(`${id}@1.0.0`);
    expect(within(row).getAllByRole('cell')[1]!.textContent).toBe('v0.3');
    expect(within(row).getByRole('link', { name: 'http://127.0.0.1:4179/demo/v03/rpc' })).toBeTruthy();
    // Run now starts the run (run=1); Set up run only fills the form.
    expect(
      within(row)
        .getByRole('link', { name: /^Run now on / })
        .getAttribute('href'),
    ).toBe(`/?agent=${encodeURIComponent(V03_CARD_URL)}&run=1`);
    expect(
      within(row)
        .getByRole('link', { name: /^Set up run for / })
        .getAttribute('href'),
    ).toBe(`/?agent=${encodeURIComponent(V03_CARD_URL)}`);
    expect(screen.getByRole('status', { name: 'Registry status' }).textContent).toContain('Imported Demo agent (v0.3 SDK)');

    // Its interfaces all serve 0.3: the v1.0 card would be read as a v0.3 card and fail the card checks. Nothing is downloaded yet.
    fireEvent.click(within(row).getByRole('button', { name: /^Export card of / }));
    const warning = await screen.findByRole('region', { name: /would fail our card checks$/ }, { timeout: 10_000 });
    expect(downloads).toHaveLength(0);
    expect(warning.textContent).toContain('read this v1.0-shaped card as a v0.3 card');
    expect(within(warning).getByRole('list', { name: 'Card checks the v1.0 card fails' }).textContent).toContain('card.required-fields');
    expect(warning.textContent).toMatch(/its v0\.3 card passes every card check that applies \((\d+) of \1\)/);
    expect(within(warning).getByRole('heading', { name: /would fail our card checks$/ })).toBe(document.activeElement);

    fireEvent.click(within(warning).getByRole('button', { name: 'Export v0.3 card' }));
    await waitFor(() => expect(downloads).toHaveLength(1));
    expect(downloads[0]!.filename).toBe('agent-127-0-0-1-demo-agent-v0-3-sdk.v0.3.agent-card.json');
    const v03 = JSON.parse(downloads[0]!.body) as Record<string, unknown>;
    expect(v03).toMatchObject({
      protocolVersion: '0.3.0',
      url: 'http://127.0.0.1:4179/demo/v03/rpc',
      preferredTransport: 'JSONRPC',
      name: 'Demo agent (v0.3 SDK)',
    });
    expect(v03).not.toHaveProperty('supportedInterfaces');
    await waitFor(() => expect(logRows()).toHaveLength(2));
    expect(screen.queryByRole('region', { name: /would fail our card checks$/ })).toBeNull();

    // The v1.0 card anyway: downloaded, and the log says which checks it fails.
    fireEvent.click(within(row).getByRole('button', { name: /^Export card of / }));
    fireEvent.click(
      await within(await screen.findByRole('region', { name: /would fail our card checks$/ })).findByRole('button', { name: 'Export v1.0 card anyway' }),
    );
    await waitFor(() => expect(downloads).toHaveLength(2));
    expect(downloads[1]!.filename).toBe('agent-127-0-0-1-demo-agent-v0-3-sdk.agent-card.json');
    const card = JSON.parse(downloads[1]!.body) as Record<string, unknown>;
    expect(card.supportedInterfaces).toEqual([{ url: 'http://127.0.0.1:4179/demo/v03/rpc', protocolBinding: 'JSONRPC', protocolVersion: '0.3' }]);
    expect(card).not.toHaveProperty('url');
    expect(card).not.toHaveProperty('protocolVersion');
    await waitFor(() => expect(logRows()).toHaveLength(3));
    const [exp1, exp03, imp] = logCells();
    expect(exp1!.slice(1, 6)).toEqual(['export', 'A2A v1.0', `${id}@1.0.0`, 'a2a-mapper.v1', 'http://127.0.0.1:4179/demo/v03/rpc']);
    expect(exp1![6]).toMatch(/^\d+ warnings?card\.required-fields \(fail\)/);
    expect(exp03!.slice(1)).toEqual(['export', 'A2A v0.3', `${id}@1.0.0`, 'a2a-mapper.v1', 'http://127.0.0.1:4179/demo/v03/rpc', 'ok']);
    expect(imp!.slice(1)).toEqual(['import', 'A2A v0.3', `${id}@1.0.0`, 'a2a-mapper.v1', V03_CARD_URL, 'ok']);
    expect((await db.log()).length).toBe(3); // persisted
    expect(screen.getByRole('status', { name: 'Registry status' }).textContent).toMatch(
      /Exported Demo agent \(v0\.3 SDK\) as .* \(A2A v1\.0\), with \d+ card check findings?\./,
    );
  });

  it('exports a v1.0 agent whose card passes the checks at once, without asking', async () => {
    const { downloads } = setup();
    fireEvent.change(screen.getByLabelText('Card JSON'), { target: { value: JSON.stringify(sampleCard('v1.0', 'https://v1.example')) } });
    fireEvent.click(screen.getByRole('button', { name: 'Import pasted JSON' }));
    const row = await within(agentsTable()).findByRole('row', { name: /V1/ });
    fireEvent.click(within(row).getByRole('button', { name: /^Export card of / }));
    await waitFor(() => expect(downloads).toHaveLength(1), { timeout: 10_000 });
    expect(screen.queryByRole('region', { name: /would fail our card checks$/ })).toBeNull();
    expect(JSON.parse(downloads[0]!.body)).toMatchObject({ supportedInterfaces: [{ url: 'https://v1.example/rpc', protocolVersion: '1.0' }] });
    await waitFor(() => expect(logCells()[0]!.slice(1, 3)).toEqual(['export', 'A2A v1.0']));
    expect(logCells()[0]![6]).toBe('ok');
  });

  it('a legacy entry never exports as protocolVersion "1.0" silently: warned as a v0.3 mismatch is, with "Export as legacy card"', async () => {
    const { downloads } = setup();
    fireEvent.change(screen.getByLabelText('Card JSON'), { target: { value: JSON.stringify(sampleCard('legacy', 'https://old.example')) } });
    fireEvent.click(screen.getByRole('button', { name: 'Import pasted JSON' }));
    const row = await within(agentsTable()).findByRole('row', { name: /Legacy/ });
    fireEvent.click(within(row).getByRole('button', { name: /^Export card of / }));
    const warning = await screen.findByRole('region', { name: /would (claim a protocol version never seen|fail our card checks)$/ }, { timeout: 10_000 });
    expect(downloads).toHaveLength(0);
    expect(warning.textContent).toMatch(/no protocol version \(the entry came from a legacy card\)/);
    expect(warning.textContent).toContain('protocolVersion: "1.0"');
    fireEvent.click(within(warning).getByRole('button', { name: 'Export as legacy card' }));
    await waitFor(() => expect(downloads).toHaveLength(1));
    expect(downloads[0]!.filename).toMatch(/\.legacy\.agent-card\.json$/);
    const card = JSON.parse(downloads[0]!.body) as Record<string, unknown>;
    expect(card).not.toHaveProperty('protocolVersion');
    expect(card).not.toHaveProperty('supportedInterfaces');
    expect(card.url).toMatch(/^https:\/\/old\.example/);
    await waitFor(() => expect(logCells()[0]!.slice(1, 3)).toEqual(['export', 'A2A legacy']));
    // "Export v1.0 card anyway" is still there for who wants it.
    fireEvent.click(within(row).getByRole('button', { name: /^Export card of / }));
    const again = await screen.findByRole('region', { name: /would (claim a protocol version never seen|fail our card checks)$/ }, { timeout: 10_000 });
    expect(within(again).getByRole('button', { name: 'Export v1.0 card anyway' })).toBeTruthy();
  });

  it("shows each agent's last level as a chip (not assessed included) with a link to that run", async () => {
    const meta = (runId: string, agentUrl: string, startedAt: number, level: RunMeta['level'], extra: Partial<RunMeta> = {}): RunMeta => ({
      runId,
      agentUrl,
      startedAt,
      status: 'completed',
      level,
      provisional: false,
      summary: { total: 1, passed: 1, failed: 0, advisories: 0, skipped: 0, errors: 0, notRun: 0 },
      eventCount: 1,
      origin: 'live',
      ...extra,
    });
    setup({
      runs: async () => [
        meta('old', V03_URL, 1, 'minimal'),
        meta('new', `${V03_URL}/`, 2, 'partial', { provisional: true }),
        meta('na', 'https://v1.example/rpc', 3, null, { notAssessed: 'unreachable' }),
        meta('elsewhere', 'http://127.0.0.1:4179/demo/v1', 4, 'full'),
      ],
    });
    await addByUrl(V03_URL);
    const v03 = await within(agentsTable()).findByRole('row', { name: /Demo agent/ });
    await waitFor(() => expect(within(v03).getByText('partial (provisional)').className).toBe('level-chip level-chip-partial'));
    expect(
      within(v03)
        .getByRole('link', { name: /^Open the last run of Demo agent/ })
        .getAttribute('href'),
    ).toBe('/runs/new');
    fireEvent.change(screen.getByLabelText('Card JSON'), { target: { value: JSON.stringify(sampleCard('v1.0', 'https://v1.example')) } });
    fireEvent.click(screen.getByRole('button', { name: 'Import pasted JSON' }));
    const v1 = await within(agentsTable()).findByRole('row', { name: /V1/ });
    expect(within(v1).getByText('not assessed (unreachable)').className).toBe('level-chip level-chip-not-assessed');
    fireEvent.change(screen.getByLabelText('Card JSON'), { target: { value: JSON.stringify(sampleCard('legacy', 'https://never.example')) } });
    fireEvent.click(screen.getByRole('button', { name: 'Import pasted JSON' }));
    const never = await within(agentsTable()).findByRole('row', { name: /Legacy/ });
    expect(within(never).getAllByRole('cell')[3]!.textContent).toBe('Never run here');
  });

  it("placeholders name the page's own origin, not a fixed port", () => {
    setup();
    expect(screen.getByLabelText('Agent or card URL').getAttribute('placeholder')).toBe(`${window.location.origin}/demo/v03`);
    expect(screen.getByLabelText('Agent or card URL').getAttribute('placeholder')).not.toContain('4173');
  });

  it('shows the exported card and the card check verdicts of the selected agent', async () => {
    setup();
    await addByUrl(V03_URL);
    // An import selects the agent it imported.
    const preview = await screen.findByRole('region', { name: 'Exported card' });
    const json = within(preview).getByLabelText('Exported card JSON').textContent ?? '';
    expect(JSON.parse(json)).toMatchObject({ name: 'Demo agent (v0.3 SDK)', supportedInterfaces: [{ protocolBinding: 'JSONRPC' }] });
    const verdicts = within(preview).getByRole('status', { name: 'Card checks' });
    await waitFor(() => expect(verdicts.textContent).toMatch(/(\d+) of (\d+) card checks pass/), { timeout: 10_000 });
    const [, passed, judged] = /(\d+) of (\d+)/.exec(verdicts.textContent ?? '')!;
    expect(Number(judged)).toBeGreaterThan(5);
    // The sample card's interface says protocolVersion 0.3 inside a v1.0 card: the checks flag what they flag, and every failure is listed.
    const failures = within(preview).queryByRole('table', { name: 'Card check failures' });
    expect(failures ? within(failures).getAllByRole('row').length - 1 : 0).toBe(Number(judged) - Number(passed));
    // Its interfaces are all v0.3 ones: the v1.0-shaped card reads as a v0.3 card, and the page says so.
    expect(within(preview).getByText('Read as a v0.3 card.')).toBeTruthy();
    // Toggle off.
    fireEvent.click(screen.getByRole('button', { name: /^Show exported card of / }));
    expect(screen.queryByRole('region', { name: 'Exported card' })).toBeNull();
  });

  it('edits local fields (invalid JSON is explained and kept), then a re-import keeps them unless overwritten', async () => {
    const { db } = setup();
    await addByUrl(V03_URL);
    const row = await within(agentsTable()).findByRole('row', { name: /Demo agent/ });
    fireEvent.click(within(row).getByRole('button', { name: /^Edit / }));
    const form = screen.getByRole('form', { name: 'Edit Demo agent (v0.3 SDK)' });
    const local = within(form).getByLabelText('Local fields');
    fireEvent.change(local, { target: { value: '{"team": "ops", ' } });
    fireEvent.change(within(form).getByLabelText('Description'), { target: { value: 'edited description' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save agent' }));
    expect(within(form).getByRole('alert').textContent).toMatch(/Local fields are not valid JSON/);
    expect(local.getAttribute('aria-invalid')).toBe('true');
    expect((local as HTMLTextAreaElement).value).toBe('{"team": "ops", ');
    expect((within(form).getByLabelText('Description') as HTMLTextAreaElement).value).toBe('edited description');
    fireEvent.change(local, { target: { value: '{"team": "ops", "rack": 7}' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save agent' }));
    await waitFor(() => expect(screen.queryByRole('form', { name: /^Edit / })).toBeNull());
    const id = 'agent:127.0.0.1.demo-agent-v0-3-sdk';
    expect((await db.get(id))?.agent.local).toEqual({ team: 'ops', rack: 7 });

    // Re-add: asked; keeping local fields is the default.
    await addByUrl(V03_URL);
    const ask = await screen.findByRole('form', { name: 'Agent already registered' });
    expect((within(ask).getByLabelText('Keep its local fields') as HTMLInputElement).checked).toBe(true);
    fireEvent.click(within(ask).getByRole('button', { name: 'Import card' }));
    await waitFor(() => expect(screen.queryByRole('form', { name: 'Agent already registered' })).toBeNull());
    await waitFor(async () => expect((await db.get(id))?.agent.description).toBe('A v0.3 agent'));
    expect((await db.get(id))?.agent.local).toEqual({ team: 'ops', rack: 7 });
    expect((await db.list()).length).toBe(1);

    // Overwrite: the card replaces the agent, local fields included.
    await addByUrl(V03_URL);
    const ask2 = await screen.findByRole('form', { name: 'Agent already registered' });
    fireEvent.click(within(ask2).getByLabelText('Overwrite (replace the agent with the card)'));
    fireEvent.click(within(ask2).getByRole('button', { name: 'Import card' }));
    await waitFor(async () => expect((await db.get(id))?.agent.local).toEqual({}));
    await waitFor(() => expect(logRows()).toHaveLength(3));
  });

  it('creates a new agent from scratch and deletes it after confirmation', async () => {
    const { db } = setup();
    fireEvent.click(screen.getByRole('button', { name: 'New agent' }));
    const form = screen.getByRole('form', { name: 'New agent' });
    fireEvent.click(within(form).getByRole('button', { name: 'Create agent' }));
    expect(within(form).getByRole('alert').textContent).toContain('Name is required.');
    expect(within(form).getByRole('alert').textContent).toContain('Endpoint 1: the URL must be an absolute http(s) URL');
    fireEvent.change(within(form).getByLabelText('Name'), { target: { value: 'bay-arm' } });
    fireEvent.change(within(form).getByLabelText('Endpoint 1 URL'), { target: { value: 'https://robots.example/bay-arm' } });
    fireEvent.change(within(form).getByLabelText('Endpoint 1 protocol'), { target: { value: 'http' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Add skill' }));
    fireEvent.change(within(form).getByLabelText('Skill 1 id'), { target: { value: 'pick-place' } });
    fireEvent.change(within(form).getByLabelText('Skill 1 name'), { target: { value: 'Pick and place' } });
    fireEvent.change(within(form).getByLabelText('Local fields'), { target: { value: '{"physical": {"payloadKg": 3}}' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Create agent' }));
    const row = await within(agentsTable()).findByRole('row', { name: /bay-arm/ });
    expect(row.textContent).toContain('agent:robots.example.bay-arm@1.0.0');
    expect(within(row).getAllByRole('cell')[1]!.textContent).toBe('internal');
    expect((await db.get('agent:robots.example.bay-arm'))?.agent.skills.map((s) => s.id)).toEqual(['pick-place']);
    expect(logRows()[0]!.textContent).toBe('No export or import recorded yet.'); // creating is not an import

    fireEvent.click(within(row).getByRole('button', { name: /^Delete / }));
    fireEvent.click(within(row).getByRole('button', { name: 'Confirm delete' }));
    await waitFor(() => expect(within(agentsTable()).queryByRole('row', { name: /bay-arm/ })).toBeNull());
    expect(await db.list()).toEqual([]);
  });

  it('imports pasted JSON and a file; explains invalid JSON, invalid URLs and discovery errors', async () => {
    const discover = vi.fn(async () => {
      throw new Error('The proxy is unreachable (HTTP 502). Start the dashboard with npm start.');
    });
    const { db } = setup({ discover });
    const paste = screen.getByLabelText('Card JSON');
    fireEvent.change(paste, { target: { value: '{"name": ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Import pasted JSON' }));
    expect(screen.getByRole('alert').textContent).toMatch(/pasted JSON: The card is not valid JSON/);
    expect((paste as HTMLTextAreaElement).value).toBe('{"name": ');

    fireEvent.change(paste, { target: { value: JSON.stringify(sampleCard('v1.0', 'https://v1.example')) } });
    fireEvent.click(screen.getByRole('button', { name: 'Import pasted JSON' }));
    const row = await within(agentsTable()).findByRole('row', { name: /V1/ });
    expect(within(row).getAllByRole('cell')[1]!.textContent).toBe('v1.0');

    const legacyText = JSON.stringify(sampleCard('legacy', 'https://old.example'));
    const file = new File([legacyText], 'legacy-card.json', { type: 'application/json' });
    // jsdom's File has no text() (browsers do).
    Object.defineProperty(file, 'text', { value: async () => legacyText });
    await act(async () => {
      fireEvent.change(screen.getByLabelText('Card JSON file'), { target: { files: [file] } });
    });
    const legacy = await within(agentsTable()).findByRole('row', { name: /Legacy/ });
    expect(within(legacy).getAllByRole('cell')[1]!.textContent).toBe('legacy');
    // Failed imports are logged too, newest first.
    await waitFor(() =>
      expect(logCells().map((c) => [c[1], c[5], c[6]?.slice(0, 29)])).toEqual([
        ['import', 'file legacy-card.json', 'ok'],
        ['import', 'pasted JSON', 'ok'],
        ['import', 'pasted JSON', 'failed: The card is not valid'],
      ]),
    );

    await addByUrl('localhost:3000');
    await waitFor(() => expect(screen.getByRole('alert').textContent).toMatch(/must start with http:\/\/ or https:\/\//));
    expect(discover).not.toHaveBeenCalled();
    await addByUrl('http://user:pw-secret-1@127.0.0.1:9/agent');
    await waitFor(() => expect(screen.getByRole('alert').textContent).toContain('must not contain a user name or password'));
    await addByUrl('http://127.0.0.1:9/agent?api_key=sekrit-123');
    await waitFor(() => expect(screen.getByRole('alert').textContent).toContain('The proxy is unreachable'));
    expect((await db.list()).length).toBe(2);
    await waitFor(() => expect(logRows()).toHaveLength(6));
    const [unreachable, userInfo, invalid] = logCells();
    expect(unreachable!.slice(1, 6)).toEqual(['import', '–', '–', 'a2a-mapper.v1', expect.stringMatching(/^http:\/\/127\.0\.0\.1:9\/agent\?api_key=/)]);
    expect(unreachable![6]).toBe('failed: The proxy is unreachable (HTTP 502). Start the dashboard with npm start.');
    // Credentials in a failed URL are masked in the log.
    expect(unreachable![5]).not.toContain('sekrit-123');
    expect(userInfo![5]).toMatch(/^http:\/\/.*127\.0\.0\.1:9\/agent$/);
    expect(userInfo![5]).not.toContain('pw-secret-1');
    expect(invalid![5]).toBe('localhost:3000');
    expect(invalid![6]).toMatch(/^failed: .*must start with http:\/\/ or https:\/\//);
  });

  it('the dashboard discovery errors are explained (no card found)', async () => {
    setup({
      discover: async () => {
        throw new CardError('not-found', 'No agent card found: http://x/.well-known/agent-card.json → 404.');
      },
    });
    await addByUrl('http://127.0.0.1:4179/nothing');
    await waitFor(() => expect(screen.getByRole('alert').textContent).toContain('No agent card found'));
  });

  it('renders a hostile card (HTML, script, javascript: URLs) as inert text', async () => {
    const hostile = {
      ...sampleCard('v1.0', 'https://evil.example'),
      name: '<script>window.__pwned=1</script>Evil agent',
      description: '<img src=x onerror="window.__pwned=1">',
      documentationUrl: 'javascript:window.__pwned=1',
      supportedInterfaces: [
        { url: 'javascript:alert(1)', protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
        { url: 'https://evil.example/rpc', protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
      ],
    };
    setup({ discover: async () => ({ cardUrl: 'https://evil.example/.well-known/agent-card.json', raw: hostile }) });
    await addByUrl('https://evil.example');
    const row = await within(agentsTable()).findByRole('row', { name: /Evil agent/ });
    expect(row.textContent).toContain('<script>window.__pwned=1</script>Evil agent');
    expect(region().querySelectorAll('script, img, iframe')).toHaveLength(0);
    expect(region().querySelector('a[href^="javascript:" i]')).toBeNull();
    // The javascript: interface was skipped by the mapper, with a note.
    const notes = screen.getAllByRole('note').find((n) => n.textContent?.startsWith('Mapper notes:'));
    expect(notes?.textContent).toContain('javascript:alert(1)');
    // ... and in the mapper log, as text.
    await waitFor(() => expect(logCells()[0]![6]).toMatch(/^1 warning.*javascript:alert\(1\)/));
    expect((window as unknown as { __pwned?: number }).__pwned).toBeUndefined();
    const preview = await screen.findByRole('region', { name: 'Exported card' });
    expect(within(preview).getByLabelText('Exported card JSON').textContent).toContain('<script>window.__pwned=1</script>');
  });
});
