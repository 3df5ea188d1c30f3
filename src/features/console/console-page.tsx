import './console.css';
import { useEffect, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Notice } from '../../components/notice';
import type { ConsoleRecord } from '../../lib/console-db';
import { takeHandoff, type ConsoleHandoff } from '../../lib/console-link';
import { useLocation } from '../../lib/router';
import { CallLog } from './call-log';
import { Composer } from './composer';
import { ConnectPanel } from './connect-panel';
import { useConsole, useConsoleArchive, useConsoleState } from './console-context';
import type { ConsoleCall } from './console-store';
import { draftOf } from './raw';
import { RequestEditor } from './request-editor';
import { CONSOLE_SESSIONS_KEY, CurrentSessionExport, SessionsList } from './sessions-list';
import { TaskPanel } from './task-panel';
import { Transcript } from './transcript';

export interface ConsolePageProps {
  /** The run views' timeline and wire inspector, reading the console's run store (composed in src/app). */
  timeline: ReactNode;
  inspector: ReactNode;
  /** Finds an exchange of a run when the in-memory handoff is gone (a reload): live run, then the archive. */
  resolveExchange?: (exchangeId: string, runId?: string) => Promise<ConsoleHandoff | null>;
}

/**
 * The interactive console (issue 12): talk to an agent one exchange at a time, every answer and streamed event
 * judged as it arrives with the suite's own rules, inline; act on the tasks shown; re-send a run's request.
 */
export function ConsolePage({ timeline, inspector, resolveExchange }: ConsolePageProps) {
  const ctl = useConsole();
  const archive = useConsoleArchive();
  const qc = useQueryClient();
  const { search } = useLocation();
  const error = useConsoleState((s) => s.error);
  const savedSeq = useConsoleState((s) => s.savedSeq);
  const exchangeParam = search.get('exchange');
  const runParam = search.get('run') ?? undefined;
  const sessionParam = search.get('session');

  // A saved session named in the URL (History page's Open, or a reload of it).
  useEffect(() => {
    if (!sessionParam || ctl.state.sessionId === sessionParam) return;
    let live = true;
    void archive.get(sessionParam).then((r) => {
      if (live && r) ctl.loadSaved(r as ConsoleRecord<ConsoleCall>);
    });
    return () => {
      live = false;
    };
  }, [sessionParam, archive, ctl]);

  // An exchange of a run (Open in console): load its request into the editor and open a session on its agent.
  useEffect(() => {
    if (!exchangeParam) return;
    let live = true;
    const apply = (h: ConsoleHandoff | null) => {
      if (!live) return;
      if (!h) {
        ctl.store.setState({ error: `Exchange ${exchangeParam} is not in the current run or the run history any more; nothing to load.` });
        return;
      }
      const source = `exchange ${h.exchange.id}${h.checkId ? ` of check ${h.checkId}` : ''}`;
      ctl.setEditor(draftOf(h.exchange.request, source));
      const st = ctl.state;
      if (h.agentUrl && (st.phase !== 'open' || st.agentUrl !== h.agentUrl))
        void ctl.connect({ agentUrl: h.agentUrl, credentials: h.credentials ?? { kind: 'none' } });
    };
    const h = takeHandoff(exchangeParam);
    if (h) apply(h);
    else if (ctl.state.editor?.source.startsWith(`exchange ${exchangeParam}`)) return;
    else if (resolveExchange) void resolveExchange(exchangeParam, runParam).then(apply, () => apply(null));
    return () => {
      live = false;
    };
  }, [exchangeParam, runParam, ctl, resolveExchange]);

  // The saved sessions list follows what is saved.
  useEffect(() => {
    void qc.invalidateQueries({ queryKey: CONSOLE_SESSIONS_KEY });
  }, [savedSeq, qc]);

  return (
    <section className="console-page" aria-labelledby="console-h">
      <h1 id="console-h">Console</h1>
      <p className="help">
        Talk to an agent one message at a time. Every answer and every streamed event is judged as it arrives, with the same rules as a conformance run.
      </p>
      {error ? (
        <div className="console-error">
          <Notice kind="error">
            <span className="untrusted-text">{error}</span>{' '}
            <button type="button" onClick={() => ctl.dismissError()}>
              Dismiss
            </button>
          </Notice>
        </div>
      ) : null}
      <div className="console-grid">
        <div className="console-left">
          <ConnectPanel />
          <Transcript />
          <Composer />
          <RequestEditor />
        </div>
        <div className="console-right">
          <TaskPanel />
          <CurrentSessionExport />
          <CallLog />
        </div>
      </div>
      <div className="timeline-grid console-timeline">
        {timeline}
        {inspector}
      </div>
      <SessionsList />
    </section>
  );
}
