import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { lazy, Suspense } from 'react';
import { Notice } from '../components/notice';
import { ThemeToggle } from '../features/settings';
import { ArchiveProvider } from '../lib/archive-context';
import type { RunArchive } from '../lib/db';
import { Link } from '../lib/link';
import { matchPath, useLocation } from '../lib/router';
import { RunSessionProvider, type RunSession } from '../lib/run-session';
import { RunStoreProvider, type RunStoreHandle } from '../lib/run-store';
import { HistoryRoute } from './routes/history-route';
import { RunRoute } from './routes/run-route';
import { SavedRunRoute } from './routes/saved-run-route';
import { SettingsRoute } from './routes/settings-route';

// The registry page (and the card mapper it uses) loads on first visit.
const RegistryRoute = lazy(() =>
  import('./routes/registry-route').then(
    (m) => ({ default: m.RegistryRoute }),
    (e: unknown) => ({
      default: () => (
        <Notice kind="error" title="The registry page could not be loaded.">
          {String(e)} Reload the page.
        </Notice>
      ),
    }),
  ),
);

// The console (single exchanges judged frame by frame) loads on first visit, like the registry.
const ConsoleRoute = lazy(() =>
  import('./routes/console-route').then(
    (m) => ({ default: m.ConsoleRoute }),
    (e: unknown) => ({
      default: () => (
        <Notice kind="error" title="The console could not be loaded.">
          {String(e)} Reload the page.
        </Notice>
      ),
    }),
  ),
);

// The Tap page (a relay between any client and any agent, judged both ways) loads on first visit too.
const TapRoute = lazy(() =>
  import('./routes/tap-route').then(
    (m) => ({ default: m.TapRoute }),
    (e: unknown) => ({
      default: () => (
        <Notice kind="error" title="The Tap page could not be loaded.">
          {String(e)} Reload the page.
        </Notice>
      ),
    }),
  ),
);

export interface AppDeps {
  queryClient: QueryClient;
  archive: RunArchive;
  liveStore: RunStoreHandle;
  session: RunSession;
}

function Routes() {
  const { pathname } = useLocation();
  if (pathname === '/' || pathname === '/index.html') return <RunRoute />;
  if (pathname === '/history') return <HistoryRoute />;
  if (pathname === '/settings') return <SettingsRoute />;
  if (pathname === '/console') {
    return (
      <Suspense fallback={<p>Loading the console…</p>}>
        <ConsoleRoute />
      </Suspense>
    );
  }
  if (pathname === '/tap') {
    return (
      <Suspense fallback={<p>Loading the Tap page…</p>}>
        <TapRoute />
      </Suspense>
    );
  }
  if (pathname === '/registry') {
    return (
      <Suspense fallback={<p>Loading the registry…</p>}>
        <RegistryRoute />
      </Suspense>
    );
  }
  const saved = matchPath('/runs/:id', pathname);
  if (saved?.id) return <SavedRunRoute key={saved.id} runId={saved.id} />;
  return (
    <section aria-label="Not found">
      <h1>Page not found</h1>
      <p>
        <Link to="/">Go to the run view</Link>
      </p>
    </section>
  );
}

function Nav() {
  const { pathname } = useLocation();
  const item = (to: string, label: string) => (
    <li>
      <Link to={to} aria-current={pathname === to ? 'page' : undefined}>
        {label}
      </Link>
    </li>
  );
  return (
    <nav aria-label="Main">
      <ul>
        {item('/', 'Run')}
        {item('/console', 'Console')}
        {item('/tap', 'Tap')}
        {item('/history', 'History')}
        {item('/registry', 'Registry')}
        {item('/settings', 'Settings')}
      </ul>
    </nav>
  );
}

export function App({ deps }: { deps: AppDeps }) {
  return (
    <QueryClientProvider client={deps.queryClient}>
      <ArchiveProvider value={deps.archive}>
        <RunSessionProvider value={deps.session}>
          <RunStoreProvider value={deps.liveStore}>
            <a className="skip-link" href="#main">
              Skip to main content
            </a>
            <header className="app-header">
              <span className="brand">a2a-interop</span>
              <Nav />
              <ThemeToggle />
            </header>
            <main id="main" tabIndex={-1}>
              <Routes />
            </main>
          </RunStoreProvider>
        </RunSessionProvider>
      </ArchiveProvider>
    </QueryClientProvider>
  );
}
