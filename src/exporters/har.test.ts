/**
 * The tap's exports: HAR validated against a JSON Schema (draft-04, ajv-draft-04) written from the HAR 1.2 spec
 * (http://www.softwareishard.com/blog/har-12-spec/: required fields and types of log, creator, entries, request,
 * response, content, cache, timings; custom fields start with "_"), built from a real tap conversation with an
 * in-memory agent; and every other format escapes what the agent and the client sent.
 */
import Ajv from 'ajv-draft-04';
import { describe, expect, it } from 'vitest';
import { createTap, type TapReport } from '../engine/tap';
import { toHar } from './har';
import { exportTapReport, TAP_EXPORT_FORMATS } from './tap';

const nv = { type: 'object', required: ['name', 'value'], properties: { name: { type: 'string' }, value: { type: 'string' }, comment: { type: 'string' } } };
const custom = { patternProperties: { '^_': {} } };
const HAR_1_2 = {
  $schema: 'http://json-schema.org/draft-04/schema#',
  type: 'object',
  required: ['log'],
  properties: {
    log: {
      type: 'object',
      required: ['version', 'creator', 'entries'],
      additionalProperties: false,
      ...custom,
      properties: {
        version: { type: 'string', enum: ['1.2'] },
        creator: {
          type: 'object',
          required: ['name', 'version'],
          properties: { name: { type: 'string' }, version: { type: 'string' }, comment: { type: 'string' } },
        },
        browser: { type: 'object' },
        pages: { type: 'array' },
        comment: { type: 'string' },
        entries: {
          type: 'array',
          items: {
            type: 'object',
            required: ['startedDateTime', 'time', 'request', 'response', 'cache', 'timings'],
            additionalProperties: false,
            ...custom,
            properties: {
              pageref: { type: 'string' },
              startedDateTime: { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?(Z|[+-]\\d{2}:\\d{2})$' },
              time: { type: 'number', minimum: 0 },
              request: {
                type: 'object',
                required: ['method', 'url', 'httpVersion', 'cookies', 'headers', 'queryString', 'headersSize', 'bodySize'],
                additionalProperties: false,
                ...custom,
                properties: {
                  method: { type: 'string' },
                  url: { type: 'string' },
                  httpVersion: { type: 'string' },
                  cookies: { type: 'array' },
                  headers: { type: 'array', items: nv },
                  queryString: { type: 'array', items: nv },
                  postData: {
                    type: 'object',
                    required: ['mimeType'],
                    properties: { mimeType: { type: 'string' }, text: { type: 'string' }, params: { type: 'array' } },
                  },
                  headersSize: { type: 'integer' },
                  bodySize: { type: 'integer' },
                  comment: { type: 'string' },
                },
              },
              response: {
                type: 'object',
                required: ['status', 'statusText', 'httpVersion', 'cookies', 'headers', 'content', 'redirectURL', 'headersSize', 'bodySize'],
                additionalProperties: false,
                ...custom,
                properties: {
                  status: { type: 'integer' },
                  statusText: { type: 'string' },
                  httpVersion: { type: 'string' },
                  cookies: { type: 'array' },
                  headers: { type: 'array', items: nv },
                  content: {
                    type: 'object',
                    required: ['size', 'mimeType'],
                    properties: {
                      size: { type: 'integer' },
                      compression: { type: 'integer' },
                      mimeType: { type: 'string' },
                      text: { type: 'string' },
                      encoding: { type: 'string' },
                      comment: { type: 'string' },
                    },
                  },
                  redirectURL: { type: 'string' },
                  headersSize: { type: 'integer' },
                  bodySize: { type: 'integer' },
                  comment: { type: 'string' },
                },
              },
              cache: { type: 'object' },
              timings: {
                type: 'object',
                required: ['send', 'wait', 'receive'],
                properties: {
                  blocked: { type: 'number', minimum: -1 },
                  dns: { type: 'number', minimum: -1 },
                  connect: { type: 'number', minimum: -1 },
                  ssl: { type: 'number', minimum: -1 },
                  send: { type: 'number', minimum: 0 },
                  wait: { type: 'number', minimum: 0 },
                  receive: { type: 'number', minimum: 0 },
                  comment: { type: 'string' },
                },
              },
              serverIPAddress: { type: 'string' },
              connection: { type: 'string' },
              comment: { type: 'string' },
            },
          },
        },
      },
    },
  },
};

const HOSTILE = '<script>alert(1)</script> | *x* `y`';
const AGENT = 'http://agent.test';

/** An in-memory v0.3 agent: its card, a plain answer and a stream; the text it says is hostile. */
async function agent(req: Request): Promise<Response> {
  const url = new URL(req.url);
  if (url.pathname.endsWith('/agent-card.json'))
    return Response.json({
      name: HOSTILE,
      description: 'x',
      url: `${AGENT}/rpc`,
      protocolVersion: '0.3.0',
      version: '1',
      capabilities: { streaming: true },
      defaultInputModes: ['text/plain'],
      defaultOutputModes: ['text/plain'],
      skills: [],
    });
  const body = (await req.json()) as { id: number; method: string };
  if (body.method === 'message/stream') {
    const ev = (state: string, final: boolean) =>
      `data: ${JSON.stringify({ jsonrpc: '2.0', id: body.id, result: { kind: 'status-update', taskId: 't', contextId: 'c', status: { state }, final } })}\n\n`;
    return new Response(ev('working', false) + ev('completed', true), { headers: { 'content-type': 'text/event-stream' } });
  }
  return Response.json({ jsonrpc: '2.0', id: body.id, result: { kind: 'message', messageId: 'a', role: 'agent', parts: [{ kind: 'text', text: HOSTILE }] } });
}

async function conversation(): Promise<TapReport> {
  const tap = createTap({ agentUrl: AGENT, fetch: agent });
  const base = 'http://tap.test/tap/t/';
  await (await tap.handle(new Request(`${base}.well-known/agent-card.json`), base)).text();
  const rpc = (method: string, messageId: string, headers: Record<string, string> = {}) =>
    tap.handle(
      new Request(`${base}rpc?x=1`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: 'Bearer secret-token-1234', ...headers },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method,
          params: { message: { kind: 'message', messageId, role: 'user', parts: [{ kind: 'text', text: HOSTILE }] } },
        }),
      }),
      base,
    );
  await (await rpc('message/send', 'm1')).text();
  await (await rpc('message/stream', 'm1', { accept: 'text/event-stream' })).text();
  return tap.report();
}

describe('HAR export of a tap', () => {
  it('validates against the HAR 1.2 schema and holds every exchange, its frames and findings', async () => {
    const report = await conversation();
    const har = toHar(report);
    const ajv = new Ajv({ allErrors: true });
    const validate = ajv.compile(HAR_1_2);
    expect(validate(har), JSON.stringify(validate.errors, null, 2)).toBe(true);
    const entries = har.log.entries as {
      request: { url: string; queryString: unknown[] };
      response: { content: { mimeType: string; text: string } };
      _findings: { checkId: string }[];
    }[];
    expect(entries.length).toBe(report.exchanges.length);
    expect(entries[1]!.request.queryString).toEqual([{ name: 'x', value: '1' }]);
    const stream = entries.find((e) => e.response.content.mimeType === 'text/event-stream')!;
    expect(stream.response.content.text.match(/^data: /gm)?.length).toBe(2);
    // The reused messageId is the client's finding, on the exchange that reused it.
    expect(stream._findings.map((f) => f.checkId)).toContain('client.message-id-unique');
    expect(JSON.stringify(har)).not.toContain('secret-token-1234');
  });

  it('the schema can fail: a HAR without timings or with a string status is refused', async () => {
    const har = toHar(await conversation()) as { log: { entries: Record<string, unknown>[] } };
    const validate = new Ajv().compile(HAR_1_2);
    const broken = structuredClone(har);
    delete broken.log.entries[0]!.timings;
    expect(validate(broken)).toBe(false);
    const broken2 = structuredClone(har);
    (broken2.log.entries[0]!.response as { status: unknown }).status = '200';
    expect(validate(broken2)).toBe(false);
  });
});

describe('the other tap formats', () => {
  it('escape what the agent and the client said (HTML, Markdown, XML) and keep both verdicts', async () => {
    const report = await conversation();
    for (const f of TAP_EXPORT_FORMATS) {
      const file = exportTapReport(report, f);
      expect(file.body.length).toBeGreaterThan(50);
      expect(file.body).not.toContain('secret-token-1234');
      if (f === 'html' || f === 'junit' || f === 'markdown') expect(file.body).not.toContain('<script>');
    }
    expect(exportTapReport(report, 'markdown').body).toMatch(/Client: advisories only/);
    expect(JSON.parse(exportTapReport(report, 'sarif').body).runs[0].results.length).toBe(report.findings.length);
  });
});
