import { RunArchive, type RunMeta } from '../../lib/db';
import { downloadFile } from '../../lib/download';
import { checkProxyHealth, CardError, createHost, discoverCard } from '../../lib/engine-adapter';
import { checkCard, RegistryDb, type CardVerdicts } from '../../lib/registry-db';
import { settingsStore } from '../../lib/settings-store';
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
}

/** The dashboard's own discovery (Run view's card preview path), with the proxy's health asked when it is the problem. */
async function discoverWithSettings(url: string, signal?: AbortSignal): Promise<{ cardUrl: string; raw: unknown }> {
  const { mode, proxyUrl } = settingsStore.getState();
  try {
    const found = await discoverCard(createHost({ mode, proxyUrl }), url, signal);
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
  });
