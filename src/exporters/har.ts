/**
 * A tap's recording as HAR 1.2 (HTTP Archive, the format browsers' developer tools and Postman import): one entry
 * per exchange, request and response with headers and bodies as recorded (credentials already masked by the tap,
 * bodies capped), a stream's events as its response text. What HAR has no field for goes in `_`-prefixed custom
 * fields, as the format allows: the findings of each exchange (`_findings`, with the side that broke the rule), the
 * SSE frames with their timing (`_sseFrames`) and a relay failure (`_error`).
 */
import type { TapExchangeRecord, TapFinding, TapReport } from '../engine/tap';
import { TOOL } from '../engine/report/build';
import { cleanText } from './common';
import type { ExportFile } from './common';

const HAR_MIME = 'application/json';

interface HarNameValue {
  name: string;
  value: string;
}

const pairs = (h: Record<string, string> | undefined): HarNameValue[] => Object.entries(h ?? {}).map(([name, value]) => ({ name, value: cleanText(value) }));

function query(url: string): HarNameValue[] {
  try {
    return [...new URL(url).searchParams].map(([name, value]) => ({ name, value }));
  } catch {
    return [];
  }
}

const iso = (ms: number) => new Date(Number.isFinite(ms) ? ms : 0).toISOString();
const nonNeg = (n: number | undefined) => (n !== undefined && Number.isFinite(n) && n >= 0 ? Math.round(n * 1000) / 1000 : 0);

/** The SSE frames of a stream as text/event-stream (as relayed, data as recorded). */
function sseText(x: TapExchangeRecord): string {
  return x.frames
    .map(
      (f) =>
        `${f.event !== undefined ? `event: ${f.event}\n` : ''}${f.data
          .split('\n')
          .map((l) => `data: ${l}`)
          .join('\n')}\n\n`,
    )
    .join('');
}

function entry(x: TapExchangeRecord, findings: readonly TapFinding[]) {
  const req = x.request;
  const res = x.response;
  const contentType = res?.headers?.['content-type'] ?? (res?.stream ? 'text/event-stream' : 'application/octet-stream');
  const wait = res?.headersMs !== undefined ? res.headersMs : res ? res.durationMs : 0;
  const total = res ? res.durationMs : 0;
  const reqType = req.headers['content-type'];
  return {
    startedDateTime: iso(req.at),
    time: nonNeg(total),
    request: {
      method: req.method,
      url: req.url,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: pairs(req.headers),
      queryString: query(req.url),
      ...(req.body !== undefined && { postData: { mimeType: reqType ?? 'application/octet-stream', text: cleanText(req.body) } }),
      headersSize: -1,
      bodySize: req.bodySize,
    },
    response: {
      status: res?.status ?? 0,
      statusText: cleanText(res?.statusText ?? ''),
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: pairs(res?.headers),
      content: {
        size: res?.bodySize ?? 0,
        mimeType: contentType,
        text: cleanText(res?.stream ? sseText(x) : (res?.body ?? '')),
        ...((res?.bodyTruncated || (res?.stream && x.frames.length < res.frames)) && { comment: 'cut: the tap records bodies and frames up to its budget' }),
      },
      redirectURL: res?.headers?.location ?? '',
      headersSize: -1,
      bodySize: res?.bodySize ?? -1,
      ...(res?.error && { _error: res.error }),
    },
    cache: {},
    timings: { blocked: -1, dns: -1, connect: -1, ssl: -1, send: 0, wait: nonNeg(wait), receive: nonNeg(total - wait) },
    _upstreamUrl: req.upstreamUrl,
    _operation: req.operation,
    ...(x.frames.length && { _sseFrames: x.frames }),
    _findings: findings.filter((f) => f.exchangeId === x.id),
  };
}

/** The tap's report as a HAR 1.2 log. */
export function toHar(report: TapReport): { log: Record<string, unknown> } {
  return {
    log: {
      version: '1.2',
      creator: { name: 'a2a-interop tap', version: TOOL.version },
      pages: [],
      entries: report.exchanges.map((x) => entry(x, report.findings)),
      comment: `A2A conversation through the tap in front of ${report.agentUrl}: client ${report.summary.client.verdict}, agent ${report.summary.agent.verdict}.`,
      _summary: report.summary,
      _findings: report.findings.filter((f) => !report.exchanges.some((x) => x.id === f.exchangeId)),
    },
  };
}

export function harFile(report: TapReport): ExportFile {
  return { filename: 'a2a-tap.har', mimeType: HAR_MIME, body: `${JSON.stringify(toHar(report), null, 2)}\n` };
}
