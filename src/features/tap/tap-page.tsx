import './tap.css';
import type { ReactNode } from 'react';
import { Notice } from '../../components/notice';
import type { OpenTap, OrchestratorInfo } from './tap-api';
import { useTap, useTapState } from './tap-context';
import { OpenTaps, TapDemo, TapSetup } from './tap-setup';
import { TapAddress, TapConversation, TapExports, TapFindings, TapVerdicts, TwoAgentChecks, useTapView, useTwoAgents } from './tap-views';

export interface TapPageProps {
  /** The run views' timeline and wire inspector, reading the tap's run store (composed in src/app). */
  timeline: ReactNode;
  inspector: ReactNode;
  /** Agent A of the two-agent demo, when the server has one. */
  orchestrator: () => Promise<OrchestratorInfo | null>;
  /** The taps open on the server (to follow one started before a reload). */
  openTaps?: () => Promise<OpenTap[]>;
}

/**
 * The conversation tap (issue 26): put a2a-interop between any A2A client and any agent, watch them talk live, and see
 * both sides judged: each finding says who broke it (client or agent), with the sentence behind it.
 */
export function TapPage({ timeline, inspector, orchestrator, openTaps }: TapPageProps) {
  const ctl = useTap();
  const error = useTapState((s) => s.error);
  const twoAgentsOn = useTapState((s) => s.twoAgents);
  const hasTap = useTapState((s) => s.tap !== null);
  const view = useTapView();
  const twoAgents = useTwoAgents(twoAgentsOn);
  return (
    <section className="tap-page" aria-labelledby="tap-h">
      <h1 id="tap-h">Tap</h1>
      <p className="help">
        Put a2a-interop between any A2A client and any agent: give the client the tap&apos;s URL, watch the conversation live, and see both sides judged with
        the suite&apos;s rules. Every finding says who broke it.
      </p>
      {error ? (
        <Notice kind="error">
          <span className="untrusted-text">{error}</span>{' '}
          <button type="button" onClick={() => ctl.dismissError()}>
            Dismiss
          </button>
        </Notice>
      ) : null}
      <div className="tap-grid">
        <div className="tap-left">
          <TapSetup />
          <TapDemo orchestrator={orchestrator} />
          {openTaps ? <OpenTaps list={openTaps} /> : null}
        </div>
        <div className="tap-right">
          <TapAddress />
          {hasTap ? <TapVerdicts view={view} /> : null}
          <TapExports twoAgents={twoAgents} />
        </div>
      </div>
      {hasTap ? (
        <div className="tap-grid tap-talk">
          <TapConversation view={view} />
          <div>
            {twoAgents ? <TwoAgentChecks results={twoAgents} /> : null}
            <TapFindings view={view} />
          </div>
        </div>
      ) : null}
      {hasTap ? (
        <div className="timeline-grid tap-timeline">
          {timeline}
          {inspector}
        </div>
      ) : null}
    </section>
  );
}
