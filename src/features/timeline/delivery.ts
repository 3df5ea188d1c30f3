/**
 * How the timeline names a push delivery (an exchange on the push inbox lane: the agent's POST to our webhook
 * inbox): what it carried, read from its (redacted, capped) body. Agent text is only ever shown as text.
 */
export { PUSH_INBOX_LANE } from '../../engine/model/inbox';

const MEMBERS = ['task', 'statusUpdate', 'artifactUpdate', 'message'] as const;

const obj = (v: unknown): Record<string, unknown> | undefined =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
const stateOf = (v: Record<string, unknown> | undefined) => {
  const s = obj(v?.status)?.state;
  return typeof s === 'string' ? ` ${s.slice(0, 40)}` : '';
};

/** `Push delivery ← statusUpdate TASK_STATE_COMPLETED`, `Push delivery ← task completed`, or `… (not JSON)`. */
export function deliveryLabel(body: string | undefined): string {
  let v: Record<string, unknown> | undefined;
  try {
    v = obj(JSON.parse(body ?? ''));
  } catch {
    return 'Push delivery ← (not JSON)';
  }
  if (!v) return 'Push delivery ← (not an object)';
  const member = MEMBERS.find((k) => obj(v[k]));
  if (member) return `Push delivery ← ${member}${stateOf(obj(v[member]))}`;
  const kind = typeof v.kind === 'string' ? v.kind.slice(0, 30) : 'task';
  return `Push delivery ← ${kind}${stateOf(v)}`;
}
