/**
 * A console session as a file: JSON (everything kept, for tools) or Markdown (for an issue or a pull request).
 * What is exported was redacted by the engine (credentials masked); every agent string in Markdown goes through
 * the report exporter's `mdText`, so nothing the agent wrote can become markup, a link or a mention.
 */
import { agentSlug, fileStamp } from '../../exporters/common';
import { mdText } from '../../exporters/markdown';
import type { ConsoleCall } from './console-store';

export interface SessionExport {
  agentUrl: string;
  agentName?: string;
  generation?: string;
  binding?: string;
  startedAt: number;
  calls: readonly ConsoleCall[];
}

export interface ExportedFile {
  filename: string;
  mimeType: string;
  body: string;
}

export const SESSION_EXPORT_KIND = 'a2a-interop console session';

const filename = (s: SessionExport, ext: string) =>
  `a2a-console-${agentSlug(s.agentName, s.agentUrl)}-${fileStamp(new Date(s.startedAt).toISOString())}.${ext}`;

/** The session as JSON: calls with what was asked, frames with their findings, exchanges, tasks and messages. */
export function sessionJson(s: SessionExport): ExportedFile {
  const doc = {
    kind: SESSION_EXPORT_KIND,
    version: 1,
    agentUrl: s.agentUrl,
    agentName: s.agentName,
    generation: s.generation,
    binding: s.binding,
    startedAt: new Date(s.startedAt).toISOString(),
    calls: s.calls.map((c) => ({
      id: c.id,
      operation: c.op,
      title: c.title,
      input: c.input,
      startedAt: new Date(c.startedAt).toISOString(),
      status: c.status,
      stopped: c.stopped,
      error: c.error,
      result: c.result,
    })),
  };
  return { filename: filename(s, 'json'), mimeType: 'application/json', body: `${JSON.stringify(doc, null, 2)}\n` };
}

const LEVEL_ICON = { MUST: '❌', SHOULD: '⚠️', advisory: 'ℹ️' } as const;
const code = (s: string) => `\`${s.replace(/`/g, "'")}\``;

/** The session as GitHub-flavoured Markdown: one section per call, findings first, frames as a table. */
export function sessionMarkdown(s: SessionExport): ExportedFile {
  const out: string[] = [];
  out.push(`# A2A console session: ${mdText(s.agentName ?? s.agentUrl, 200)}`);
  out.push('');
  out.push(`- Agent: ${mdText(s.agentUrl, 500)}`);
  if (s.generation) out.push(`- Protocol: ${mdText(`${s.generation}${s.binding ? ` over ${s.binding}` : ''}`, 100)}`);
  out.push(`- Started: ${new Date(s.startedAt).toISOString()}`);
  const required = s.calls.reduce((n, c) => n + (c.result?.findings.filter((f) => f.level !== 'advisory').length ?? 0), 0);
  out.push(`- Calls: ${s.calls.length}; required findings: ${required}`);
  for (const c of s.calls) {
    out.push('');
    out.push(`## ${mdText(`${c.id}. ${c.title}`, 300)}`);
    out.push('');
    if (c.error) out.push(`Not sent or not finished: ${mdText(c.error, 600)}`);
    const r = c.result;
    if (!r) continue;
    out.push(`${mdText(r.summary, 1000)}`);
    if (c.stopped) out.push('', 'Stopped by the user before the stream ended.');
    if (r.findings.length) {
      out.push('', '### Findings', '');
      for (const f of r.findings) {
        const where = f.frame !== undefined ? ` (event ${f.frame})` : '';
        out.push(`- ${LEVEL_ICON[f.level]} ${f.level} ${code(f.checkId)}${where}: ${mdText(f.message, 800)}${f.specRef ? ` (${mdText(f.specRef, 100)})` : ''}`);
      }
    }
    if (r.task) {
      out.push('', '### Task', '');
      out.push(
        `- Id: ${mdText(r.task.id ?? '(none)', 200)}; context: ${mdText(r.task.contextId ?? '(none)', 200)}; state: ${mdText(r.task.rawState ?? '(none)', 100)}`,
      );
      if (r.task.statusText) out.push(`- Status message: ${mdText(r.task.statusText, 1000)}`);
      for (const a of r.task.artifacts) out.push(`- Artifact ${mdText(a.name ?? a.artifactId ?? '', 200)}: ${mdText(a.text || `${a.parts} part(s)`, 1000)}`);
    }
    if (r.message) out.push('', '### Message', '', mdText(r.message.text || '(no text)', 2000));
    if (r.error) out.push('', '### Error', '', mdText(`${r.error.code ?? r.error.status ?? ''} ${r.error.message}`.trim(), 1000));
    if (r.frames.length) {
      out.push('', '### Events', '', '| # | ms | kind | state | findings |', '|---:|---:|---|---|---|');
      for (const f of r.frames) {
        const fs = f.findings.map((x) => `${x.level} ${mdText(x.checkId, 100)}`).join('<br>') || '—';
        out.push(`| ${f.seq} | ${Math.round(f.ms)} | ${mdText(f.kind, 20)} | ${mdText(f.rawState ?? '', 60) || '—'} | ${fs} |`);
      }
    }
    if (r.exchanges.length) {
      out.push('', '### Exchanges', '');
      for (const x of r.exchanges) {
        const st = x.response ? `HTTP ${x.response.status}` : x.error ? `${x.error.source} ${x.error.code}` : 'no answer';
        out.push(`- ${mdText(`${x.request.method} ${x.request.url}`, 500)} → ${mdText(st, 100)}`);
      }
    }
  }
  return { filename: filename(s, 'md'), mimeType: 'text/markdown; charset=utf-8', body: `${out.join('\n')}\n` };
}
