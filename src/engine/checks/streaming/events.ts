/**
 * Streaming checks on the events of the shared stream: artifact chunks reassemble, and every event belongs to one task.
 */
import { artifactChunkProblems, streamIdFindings } from '../../judges/stream';
import { isRecord } from '../../util/json';
import { defineCheck, ev, fail, pass, skip } from '../define';
import { itemEvidence, STREAM } from './shared';

export const streamingArtifacts = defineCheck({
  id: 'streaming.artifacts',
  title: 'Artifact chunks reassemble (append only to an existing artifact, nothing after lastChunk)',
  category: 'streaming',
  level: 'MUST',
  tier: 'optional',
  phase: 'suite',
  specRefs: {
    legacy: 'v0.1.0 §7.2.3 TaskArtifactUpdateEvent (index, append, lastChunk)',
    'v0.2': 'v0.2.6 §7.2.3 TaskArtifactUpdateEvent',
    'v0.3': 'v0.3.0 §7.2.3 TaskArtifactUpdateEvent',
    'v1.0': 'v1.0.1 §4.2.2 TaskArtifactUpdateEvent',
  },
  recommendation:
    'Send the first chunk of an artifact with append false (or absent) and a stable artifactId, later chunks with append: true and the same artifactId, and mark the last chunk with lastChunk: true.',
  requires: ['stream'],
  run: (ctx) => {
    const f = ctx.stream;
    const arts = f.run.items.filter((i) => i.kind === 'artifact');
    if (!arts.length) return skip('The stream carried no artifact events.', 'not-applicable');
    // Whether chunks reassemble is the judge's (the console uses it too); the text reassembled is for the evidence.
    const problems = artifactChunkProblems(f.run.items).map((p) => p.problem);
    const seen = new Map<string, { closed: boolean; text: string; chunks: number }>();
    for (const it of f.run.items) {
      // An artifact may start inside a Task event (the first Task, or a v1.0 snapshot): appends to it are fine.
      if (it.kind === 'task') {
        for (const a of it.task?.artifacts ?? []) {
          if (!isRecord(a)) continue;
          const key = typeof a.artifactId === 'string' ? a.artifactId : String(typeof a.index === 'number' ? a.index : 0);
          if (!seen.has(key)) seen.set(key, { closed: false, text: partsText(a.parts ?? a.content), chunks: 1 });
        }
        continue;
      }
      if (it.kind !== 'artifact') continue;
      const a = it;
      const key = a.artifact?.id ?? String(a.artifact?.index ?? 0);
      const cur = seen.get(key);
      if (a.artifact?.append) {
        if (cur && !cur.closed) {
          cur.text += a.artifact.text;
          cur.chunks++;
        }
      } else seen.set(key, { closed: false, text: a.artifact?.text ?? '', chunks: 1 });
      const now = seen.get(key);
      if (now && a.artifact?.lastChunk) now.closed = true;
    }
    const summary = [...seen].map(([k, v]) => `${k}: ${v.chunks} chunk(s), ${v.text.length} chars`).join('; ');
    return problems.length
      ? fail(`Artifact chunks do not reassemble: ${problems.slice(0, 3).join('; ')}.`, itemEvidence(arts))
      : pass(`${arts.length} artifact event(s) reassemble (${summary}).`, [ev('reassembled', [...seen].map(([k, v]) => `${k}: ${v.text}`).join('\n'))]);
  },
});

export const streamingConsistency = defineCheck({
  id: 'streaming.consistency',
  title: 'All events of a stream belong to one task and context',
  category: 'streaming',
  level: 'MUST',
  tier: 'optional',
  phase: 'suite',
  specRefs: STREAM,
  recommendation: 'Stamp every status and artifact update with the taskId (and contextId) of the task the stream is about.',
  requires: ['stream'],
  run: (ctx) => {
    const f = ctx.stream;
    const ids = new Set(f.run.items.map((i) => i.taskId).filter(Boolean));
    const ctxs = new Set(f.run.items.map((i) => i.contextId).filter(Boolean));
    // The judge the console uses too decides (one task and context; legacy: every event "MUST match the
    // TaskSendParams.id", v0.1.0 §7.2.2, §7.2.3); the message names them all.
    const mixed = streamIdFindings(ctx.generation, 'stream', f.run.items, f.sentTaskId);
    if (!mixed.length) return pass(ids.size ? `All events are about task ${[...ids][0]}.` : 'No task ids to compare (message-only stream).');
    const sent = f.sentTaskId;
    const other = sent ? f.run.items.filter((i) => i.taskId && i.taskId !== sent) : [];
    if (sent && other.length)
      return fail(
        `${other.length} of ${f.run.items.length} event(s) name task ${[...new Set(other.map((i) => i.taskId))].slice(0, 3).join(', ')}, not the id ${sent} we sent in tasks/sendSubscribe (TaskSendParams.id).`,
        itemEvidence(other),
      );
    return fail(
      `The stream mixes task ids ${[...ids].join(', ')}${ctxs.size > 1 ? ` and contexts ${[...ctxs].join(', ')}` : ''}: ${mixed
        .slice(0, 3)
        .map((m) => `event ${m.frame}: ${m.message}`)
        .join(' ')}`,
      itemEvidence(f.run.items),
    );
  },
});

/** Text of an artifact's parts (for artifacts that arrive inside a Task event). */
function partsText(parts: unknown): string {
  if (!Array.isArray(parts)) return '';
  return parts
    .slice(0, 50)
    .map((p) => (isRecord(p) && typeof p.text === 'string' ? p.text : ''))
    .join('');
}
