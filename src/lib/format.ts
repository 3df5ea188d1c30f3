import type { Category } from './engine';

export const fmtMs = (ms: number | undefined): string =>
  ms === undefined || !Number.isFinite(ms) ? '–' : ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;

export const fmtDate = (epochMs: number | undefined): string => {
  if (epochMs === undefined || !Number.isFinite(epochMs)) return '–';
  const d = new Date(epochMs);
  return Number.isNaN(d.getTime()) ? '–' : d.toLocaleString();
};

export const fmtBytes = (n: number): string => (n < 1024 ? `${n} B` : n < 1024 * 1024 ? `${(n / 1024).toFixed(1)} KB` : `${(n / 1024 / 1024).toFixed(1)} MB`);

/** Pretty-prints JSON text; anything else is returned as is. Bounded so a huge body cannot stall the page. */
export function prettyBody(text: string | undefined, max = 200_000): string {
  if (text === undefined || text === '') return '';
  const clipped = text.length > max ? text.slice(0, max) : text;
  const more = text.length > max ? `\n… ${text.length - max} more characters` : '';
  const t = clipped.trim();
  if ((t.startsWith('{') || t.startsWith('[')) && clipped.length === text.length) {
    try {
      return JSON.stringify(JSON.parse(t), null, 2);
    } catch {
      /* not JSON: show as received */
    }
  }
  return clipped + more;
}

export const STATUS_LABEL: Record<string, string> = {
  pass: 'pass',
  fail: 'fail',
  advisory: 'advisory',
  skip: 'skipped',
  error: 'tool error',
  running: 'running',
  'not-run': 'not run',
};

/** What a tool error means, never blamed on the agent. */
export function toolErrorText(proxyError: string | undefined): string {
  return proxyError ? `The proxy could not reach the agent (${proxyError}); not counted against the agent.` : 'Our tool failed; not counted against the agent.';
}

export const CATEGORY_LABEL: Record<Category, string> = {
  'agent-card': 'Agent card',
  lifecycle: 'Task lifecycle',
  streaming: 'Streaming',
  'error-handling': 'Error handling',
  interop: 'Interop',
  security: 'Security review',
};

export { NOT_ASSESSED_LABELS } from '../exporters/common';
