import { RunArchive, type RunMeta } from '../../lib/db';
import { downloadFile } from '../../lib/download';
import { checkProxyHealth, CardError, createHost, previewCard, runSuite } from '../../lib/engine-adapter';
import type { Report } from '../../lib/engine';
import { RunRecorder } from '../../lib/recorder';
import { checkCard, RegistryDb, type CardVerdicts } from '../../lib/registry-db';
import { settingsStore } from '../../lib/settings-store';
import type { FleetTarget } from './fleet-run';
import { explainAddError } from './helpers';

/** What the registry page needs from outside; tests pass their own. */
export interface RegistryDeps {
  db: RegistryDb;
  /** Finds an agent's card from a URL and returns it (the dashboard's discovery, proxy or direct per Settings). Rejects with an explained error. */
  discover: (url: string, signal?: AbortSignal) => Promise<{ cardUrl: string; raw: unknown }>;
  checkCard: (card: Record<string, unknown>, signal?: AbortSignal) => Promise<CardVerdicts>;
  download: (filename: string, mimeType: string, body: string) => void;
  /** Runs saved in this browser (the run history), for each agent's last level. */
  runs: () => Promise<RunMeta[]>;
  /**
   * Runs one agent of a fleet run ("Run all") to its report: the engine through the browser host (proxy or direct
   * per Settings), recorded in the History like a run from the Run view. Without it the page offers no fleet run.
   */
  runAgent?: (target: FleetTarget, signal: AbortSignal) => Promise<Report>;
}

/** A fleet run's agent through the dashboard's runner, every event recorded in the History. */
async function runAgentRecorded(t: FleetTarget, signal: AbortSignal): Promise<Report> {
  const { mode, proxyUrl, allowInsecureCredentials } = settingsStore.getState();
  const recorder = new RunRecorder((archive ??= new RunArchive()), { origin: 'live' });
  try {
    return await runSuite(
      createHost({ mode, proxyUrl, allowInsecureCredentials }),
      { agentUrl: t.url, credentials: t.credentials, signal, transport: mode },
      (e) => recorder.push(e),
    );
  } finally {
    await recorder.flush();
  }
}

/** The dashboard's own discovery (Run view's card preview path), with the proxy's health asked when it is the problem. */
async function discoverWithSettings(url: string, signal?: AbortSignal): Promise<{ cardUrl: string; raw: unknown }> {
  const { mode, proxyUrl } = settingsStore.getState();
  try {
    const found = await previewCard(createHost({ mode, proxyUrl }), url, signal);
    return { cardUrl: found.target.cardUrl ?? url, raw: found.target.rawCard };
  } catch (e) {
    if (mode === 'proxy' && !(e instanceof CardError && e.kind === 'not-found')) {
      const health = await checkProxyHealth(proxyUrl, signal);
      if (!health.ok) throw new Error(explainAddError(e, mode, health.error ?? 'no answer'), { cause: e });
    }
    throw new Error(explainAddError(e, mode), { cause: e });
  }
}

let defaultDeps: RegistryDeps | null = null;
let archive: RunArchive | null = null;
/** The browser's registry database, discovery per Settings, the engine's card checks, real downloads, the run history. */
export const defaultRegistryDeps = (): RegistryDeps =>
  (defaultDeps ??= {
    db: new RegistryDb(),
    discover: discoverWithSettings,
    checkCard,
    download: downloadFile,
    runs: () => (archive ??= new RunArchive()).list(),
    runAgent: runAgentRecorded,
  });
