/**
 * Which judge speaks for which check: every judge names the check(s) whose rule it judges (or the shared rule,
 * RULE_SPECS), and its obligation per generation is that check's (or rule's) in src/engine/spec. The judges
 * test holds this table against the spec data and the check manifest.
 */
import type { Generation } from '../model/check';
import type { RuleId } from '../spec';
import { obligationOf, ruleLevelOf, type Finding } from './finding';

export interface JudgeEntry {
  /** The checks whose findings this judge makes (a run's check ids). */
  checks: readonly string[];
  /** The shared rule it judges, when the rule's strength decides (RULE_SPECS). */
  rule?: RuleId;
}

export const JUDGES = {
  encodingFindings: { checks: ['lifecycle.shape'] },
  envelopeFindings: { checks: ['lifecycle.shape'] },
  viewFindings: { checks: ['lifecycle.shape'] },
  legacySendMessage: { checks: ['lifecycle.send'] },
  clientIdNotEchoed: { checks: ['lifecycle.send'] },
  createdTaskFindings: { checks: ['lifecycle.send'] },
  wrongTask: { checks: ['lifecycle.get', 'lifecycle.cancel'] },
  notFoundAfterSeen: { checks: ['lifecycle.get'] },
  getWithoutState: { checks: ['lifecycle.get'] },
  blockingUnsettled: { checks: ['lifecycle.blocking'] },
  judgeListPage: { checks: ['lifecycle.list'] },
  listPageFindings: { checks: ['lifecycle.list'] },
  terminalChangeFinding: { checks: ['lifecycle.transitions'], rule: 'terminal-final' },
  terminalChanged: {
    checks: ['lifecycle.transitions', 'lifecycle.cancel.effective', 'errors.cancel-terminal', 'errors.message-to-terminal'],
    rule: 'terminal-final',
  },
  taskTimedOut: { checks: ['lifecycle.terminal'], rule: 'task-completes' },
  streamNeverEnded: { checks: ['streaming.terminal'], rule: 'stream-terminates' },
  notAStreamFinding: { checks: ['streaming.content-type', 'streaming.resubscribe'] },
  frameFindings: { checks: ['streaming.framing', 'errors.shape'] },
  streamFramingFindings: { checks: ['streaming.framing'] },
  emptyStreamFinding: { checks: ['streaming.framing'] },
  firstEventFinding: { checks: ['streaming.first-event', 'streaming.resubscribe'] },
  streamIdFindings: { checks: ['streaming.consistency', 'streaming.resubscribe'] },
  streamTransitionFindings: { checks: ['lifecycle.transitions'], rule: 'terminal-final' },
  afterFinalFindings: { checks: ['streaming.after-final'] },
  artifactChunkProblems: { checks: ['streaming.artifacts'] },
  streamEnding: { checks: ['streaming.terminal'] },
  streamCloses: { checks: ['streaming.closes'] },
  streamRefusalFinding: { checks: ['streaming.content-type', 'streaming.terminal'] },
} as const satisfies Record<string, JudgeEntry>;

/** The obligation of a judge's finding in generation `g`, for one of its checks (the rule's when it names one). */
export function judgeObligation(name: keyof typeof JUDGES, checkId: string, g: Generation): Finding['level'] | undefined {
  const j: JudgeEntry = JUDGES[name];
  if (!j.checks.includes(checkId)) return undefined;
  return j.rule ? ruleLevelOf(j.rule, g) : obligationOf(checkId, g);
}
