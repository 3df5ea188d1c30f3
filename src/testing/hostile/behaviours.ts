/**
 * The hostile-agent corpus (issue 7): agents that break the protocol, the transport or the client on
 * purpose. Each behaviour misbehaves on one side and keeps the rest correct (a spec-correct defect agent
 * answers behind it), so the run shows exactly what the misbehaviour does to the verdict.
 * Agent-supplied text here is hostile on purpose (HTML, script, `javascript:` URLs): it must stay text.
 * HOSTILE_BEHAVIOURS is a list of independent entries, one per behaviour (the helpers above it serve them all).
 */
import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { isCardPath, isStreamRequest, type HostileBehaviour, type HostileKit, type HostileRequest } from './server';

type Json = Record<string, unknown>;

export const NEST_DEPTH = 100_000;
export const HUGE_CARD_BYTES = 50 * 1024 * 1024;
export const BIG_HEADER_BYTES = 64 * 1024;
export const RETRY_AFTER_S = 3600;
/** Marker strings of the hostile card, for tests that look for them in reports and pages. */
export const HOSTILE_CARD_TEXT = {
  name: '<script>window.__pwned=1</script>Evil agent',
  description: '<img src=x onerror="window.__pwned=1"> an agent with markup in its card',
  organization: '<b onmouseover="window.__pwned=1">Evil Corp</b>',
  skillName: '<svg onload="window.__pwned=1">',
  javascriptUrl: 'javascript:window.__pwned=1',
} as const;

const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Applies `fn` to every object in `v` (agent answers are small: recursion is fine here). */
function eachObject(v: unknown, fn: (o: Json) => void): void {
  if (Array.isArray(v)) v.forEach((x) => eachObject(x, fn));
  else if (isObj(v)) {
    fn(v);
    Object.values(v).forEach((x) => eachObject(x, fn));
  }
}

const sseHead = (res: ServerResponse) => {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  res.flushHeaders();
};

const sendText = (res: ServerResponse, status: number, contentType: string, body: string | Buffer, extra: Record<string, string> = {}) => {
  res.writeHead(status, { 'content-type': contentType, 'content-length': String(Buffer.byteLength(body)), ...extra });
  res.end(body);
};

const HTML_ERROR_PAGE =
  '<!DOCTYPE html><html><head><title>Service Unavailable</title><script>window.__pwned=1</script></head>' +
  '<body><h1>Oops, something went wrong</h1><p>Please try again later.</p></body></html>';

/** A final (terminal or interrupted) event of either generation. */
const FINAL_EVENT = /TASK_STATE_(COMPLETED|FAILED|CANCELED|CANCELLED|REJECTED|INPUT_REQUIRED|AUTH_REQUIRED)|"final":\s*true/;

/** Serves GETs of the card paths with `serve`; everything else (preflights too) goes to the correct agent. */
function cardSide(serve: (r: HostileRequest, res: ServerResponse, kit: HostileKit) => void | Promise<void>): HostileBehaviour['make'] {
  return (kit) => (r, res) => {
    if (!isCardPath(r.path) || r.method !== 'GET') return kit.forward(r, res);
    // The headers a correct card has, so that only the behaviour itself shows in the verdict.
    res.setHeader('cache-control', 'public, max-age=60');
    res.setHeader('etag', 'W/"hostile"');
    res.setHeader('access-control-allow-origin', '*');
    res.setHeader('vary', 'Origin');
    return serve(r, res, kit);
  };
}

/** Answers every POST (the RPC endpoint) with `answer`; the card and the rest stay correct. */
function rpcSide(answer: (r: HostileRequest, res: ServerResponse, kit: HostileKit) => void | Promise<void>): HostileBehaviour['make'] {
  return (kit) => (r, res) => (r.method === 'POST' ? answer(r, res, kit) : kit.forward(r, res));
}

type Events = AsyncGenerator<string>;

/**
 * Rewrites only the event streams: `write` gets the correct agent's events and an open SSE response.
 * Streaming calls the agent refuses (e.g. resubscribing to a finished task) are relayed unchanged.
 */
function streamSide(write: (r: HostileRequest, res: ServerResponse, kit: HostileKit, events: Events) => void | Promise<void>): HostileBehaviour['make'] {
  return (kit) => (r, res) =>
    isStreamRequest(r)
      ? kit.sse(r, res, async (events) => {
          sseHead(res);
          await write(r, res, kit, events);
        })
      : kit.forward(r, res);
}

/** Writes `buf` one byte per write, yielding to the event loop in between (separate chunks on the wire). */
async function writeBytewise(res: ServerResponse, buf: Buffer): Promise<boolean> {
  for (let i = 0; i < buf.length; i++) {
    if (res.destroyed) return false;
    res.write(buf.subarray(i, i + 1));
    await new Promise((r) => setImmediate(r));
  }
  return true;
}

export const HOSTILE_BEHAVIOURS = {
  // ------------------------------------------------------------------ the card
  'card-50mb': {
    description: 'The agent card is 50 MB (one padded description), sent chunked without a Content-Length.',
    side: 'card',
    make: cardSide(async (_r, res, kit) => {
      const card = await kit.card();
      const [head, tail] = JSON.stringify({ ...card, description: '@@PAD@@' }).split('"@@PAD@@"') as [string, string];
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write(`${head}"`);
      const chunk = Buffer.alloc(64 * 1024, 'a');
      let left = HUGE_CARD_BYTES;
      kit.stats.cardBytesOffered = 0;
      const pump = () => {
        while (left > 0 && !res.destroyed) {
          const n = Math.min(left, chunk.length);
          left -= n;
          kit.stats.cardBytesOffered! += n;
          if (!res.write(n === chunk.length ? chunk : chunk.subarray(0, n))) return void res.once('drain', pump);
        }
        if (!res.destroyed) res.end(`"${tail}`);
      };
      pump();
    }),
  },
  'card-yaml': {
    description: 'The agent card is served as YAML (application/yaml), not JSON.',
    side: 'card',
    make: cardSide(async (_r, res, kit) => {
      const card = await kit.card();
      const yaml = Object.entries(card)
        .map(([k, v]) => `${k}: ${JSON.stringify(v)}`)
        .join('\n');
      sendText(res, 200, 'application/yaml', `# agent card\n${yaml}\n`);
    }),
  },
  'card-html-200': {
    description: 'The card URLs answer HTTP 200 with an HTML error page (an SPA fallback or a gateway page).',
    side: 'card',
    make: cardSide((_r, res) => sendText(res, 200, 'text/html; charset=utf-8', HTML_ERROR_PAGE)),
  },
  'card-invalid-utf8': {
    description: 'The card is JSON with byte sequences that are not valid UTF-8 inside its description.',
    side: 'card',
    make: cardSide(async (_r, res, kit) => {
      const card = await kit.card();
      const [head, tail] = JSON.stringify({ ...card, description: '@@BAD@@' }).split('@@BAD@@') as [string, string];
      sendText(
        res,
        200,
        'application/json; charset=utf-8',
        Buffer.concat([Buffer.from(`${head}caf`), Buffer.from([0xc3, 0x28, 0xff, 0xfe]), Buffer.from(tail)]),
      );
    }),
  },
  'card-bom': {
    description: 'The card starts with a UTF-8 byte order mark (RFC 8259 forbids adding one).',
    side: 'card',
    make: cardSide(async (_r, res, kit) => {
      sendText(res, 200, 'application/json', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(JSON.stringify(await kit.card()))]));
    }),
  },
  'card-nested-100k': {
    description: 'The card\'s "skills" is a list nested 100,000 levels deep.',
    side: 'card',
    make: cardSide(async (_r, res, kit) => {
      const text = JSON.stringify({ ...(await kit.card()), skills: '@@DEEP@@' }).replace('"@@DEEP@@"', `${'['.repeat(NEST_DEPTH)}${']'.repeat(NEST_DEPTH)}`);
      sendText(res, 200, 'application/json', text);
    }),
  },
  'card-html-script': {
    description: 'Card fields carry HTML, <script> and javascript: URLs (name, description, provider, documentation, icon, skills).',
    side: 'card',
    make: cardSide(async (_r, res, kit) => {
      const card = await kit.card();
      const skills = (card.skills as Json[]).map((s, i) =>
        i === 0
          ? {
              ...s,
              name: HOSTILE_CARD_TEXT.skillName,
              description: `<a href="${HOSTILE_CARD_TEXT.javascriptUrl}">click</a>`,
              tags: [...(s.tags as string[]), '<i>tag</i>'],
            }
          : s,
      );
      const hostile = {
        ...card,
        name: HOSTILE_CARD_TEXT.name,
        description: HOSTILE_CARD_TEXT.description,
        provider: { organization: HOSTILE_CARD_TEXT.organization, url: HOSTILE_CARD_TEXT.javascriptUrl },
        documentationUrl: HOSTILE_CARD_TEXT.javascriptUrl,
        iconUrl: 'javascript:alert(document.cookie)',
        skills,
      };
      sendText(res, 200, 'application/json', JSON.stringify(hostile));
    }),
  },
  'card-redirect-loop': {
    description: 'The card URLs redirect in a loop (card → ?hop → card → …).',
    side: 'card',
    make: cardSide((r, res) => {
      const path = r.path.split('?')[0]!;
      res.writeHead(302, { location: r.path.includes('?hop') ? path : `${path}?hop` }).end();
    }),
  },

  // ------------------------------------------------------------------ every RPC answer
  'rpc-invalid-json': {
    description: 'Every RPC answer is HTTP 200 application/json whose body is not JSON (single quotes, bare words); stream events too.',
    side: 'rpc',
    make: rpcSide((r, res) => {
      const bad = `{"jsonrpc": "2.0", "id": ${JSON.stringify(r.rpc?.id ?? null)}, "result": {'task': {id: undefined, status: NaN}}}`;
      if (isStreamRequest(r)) {
        sseHead(res);
        res.end(`data: ${bad}\n\n`);
      } else sendText(res, 200, 'application/json', bad);
    }),
  },
  'rpc-truncated-json': {
    description: 'Every RPC answer is cut in the middle of its JSON (with a matching Content-Length); stream events too.',
    side: 'rpc',
    make: rpcSide(async (r, res, kit) => {
      if (isStreamRequest(r)) {
        return kit.sse(r, res, async (events) => {
          sseHead(res);
          for await (const data of events) res.write(`data: ${data.slice(0, Math.ceil(data.length / 2))}\n\n`);
          res.end();
        });
      }
      const up = await kit.fetchText(r);
      sendText(res, up.status, up.contentType, up.text.slice(0, Math.ceil(up.text.length / 2)));
    }),
  },
  'rpc-nested-100k': {
    description: 'Every RPC result (and stream event result) is a list nested 100,000 levels deep.',
    side: 'rpc',
    make: rpcSide((r, res) => {
      const deep = `{"jsonrpc":"2.0","id":${JSON.stringify(r.rpc?.id ?? null)},"result":${'['.repeat(NEST_DEPTH)}${']'.repeat(NEST_DEPTH)}}`;
      if (isStreamRequest(r)) {
        sseHead(res);
        res.end(`data: ${deep}\n\n`);
      } else sendText(res, 200, 'application/json', deep);
    }),
  },
  'rpc-html-200': {
    description: 'Every RPC call is answered HTTP 200 with an HTML error page.',
    side: 'rpc',
    make: rpcSide((_r, res) => sendText(res, 200, 'text/html; charset=utf-8', HTML_ERROR_PAGE)),
  },
  'rpc-reset-mid-body': {
    description: 'Every RPC answer sends its head and half its body, then resets the connection (TCP RST).',
    side: 'rpc',
    make: rpcSide(async (r, res, kit) => {
      if (isStreamRequest(r)) {
        await kit.sse(r, res, async (events) => {
          sseHead(res);
          for await (const data of events) {
            res.write(`data: ${data}\n\n`);
            break;
          }
        });
      } else {
        const up = await kit.fetchText(r);
        res.writeHead(up.status, { 'content-type': up.contentType, 'content-length': String(Buffer.byteLength(up.text)) });
        res.write(up.text.slice(0, Math.ceil(up.text.length / 2)));
      }
      kit.later(20, () => r.req.socket.resetAndDestroy());
    }),
  },
  'rpc-never-answers': {
    description: 'The RPC endpoint reads the request and never answers (the connection stays open).',
    side: 'rpc',
    make: rpcSide((_r, _res, kit) => {
      kit.stats.unanswered = (kit.stats.unanswered ?? 0) + 1;
    }),
  },
  'rpc-drip': {
    description: 'Every RPC answer drips one byte per second.',
    side: 'rpc',
    make: rpcSide(async (r, res, kit) => {
      const up = await kit.fetchText(r);
      const body = Buffer.from(up.text);
      res.writeHead(up.status, { 'content-type': up.contentType, 'content-length': String(body.length) });
      res.flushHeaders();
      let i = 0;
      const stop = kit.every(1000, () => {
        if (res.destroyed || i >= body.length) return void stop();
        res.write(body.subarray(i, ++i));
        kit.stats.bytesDripped = (kit.stats.bytesDripped ?? 0) + 1;
      });
      res.on('close', stop);
    }),
  },
  'rpc-invalid-utf8': {
    description: 'JSON-RPC answers carry byte sequences that are not valid UTF-8 inside their text parts.',
    side: 'rpc',
    make: rpcSide(async (r, res, kit) => {
      if (isStreamRequest(r)) return kit.forward(r, res);
      const up = await kit.fetchText(r);
      const at = up.text.indexOf('"text":"');
      const body =
        at < 0
          ? Buffer.from(up.text)
          : Buffer.concat([Buffer.from(up.text.slice(0, at + 8)), Buffer.from([0xc3, 0x28, 0xff]), Buffer.from(up.text.slice(at + 8))]);
      sendText(res, up.status, up.contentType, body);
    }),
  },
  'rpc-bom': {
    description: 'JSON-RPC answers start with a UTF-8 byte order mark.',
    side: 'rpc',
    make: rpcSide(async (r, res, kit) => {
      if (isStreamRequest(r)) return kit.forward(r, res);
      const up = await kit.fetchText(r);
      sendText(res, up.status, up.contentType, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(up.text)]));
    }),
  },
  'rpc-redirect-loop': {
    description: 'Every RPC call is redirected in a loop (307 / → /hop → / …).',
    side: 'rpc',
    make: rpcSide((r, res) => void res.writeHead(307, { location: r.path.startsWith('/hop') ? '/' : '/hop' }).end()),
  },
  'rpc-redirect-other-host': {
    description: 'Every RPC call is redirected (307) to a login page on another host, which answers 200 HTML.',
    side: 'rpc',
    make: (kit) => {
      const side = kit.sideServer((_req, res) =>
        sendText(res, 200, 'text/html; charset=utf-8', '<!DOCTYPE html><html><body><form>Sign in</form></body></html>'),
      );
      return (r, res) => {
        if (r.method !== 'POST') return kit.forward(r, res);
        return side.then((origin) => void res.writeHead(307, { location: `${origin}/sso/login?return=%2Fa2a` }).end());
      };
    },
  },
  'rpc-headers-64k': {
    description: 'Every RPC answer carries 64 KB of response headers.',
    side: 'rpc',
    make: rpcSide((r, res, kit) => {
      // Several headers, as a cookie-happy gateway sends them, adding up to 64 KB.
      for (let i = 0; i < 16; i++) res.setHeader(`x-hostile-padding-${i}`, 'p'.repeat(BIG_HEADER_BYTES / 16 - 24));
      return kit.forward(r, res);
    }),
  },
  'rpc-429': {
    description: `Every RPC call is refused with HTTP 429 and Retry-After: ${RETRY_AFTER_S}.`,
    side: 'rpc',
    make: rpcSide((_r, res) => sendText(res, 429, 'text/plain; charset=utf-8', 'Too Many Requests', { 'retry-after': String(RETRY_AFTER_S) })),
  },
  'rpc-401-no-challenge': {
    description: 'The card declares bearer auth; every RPC call gets HTTP 401 without WWW-Authenticate.',
    side: 'rpc',
    upstream: { auth: { scheme: 'bearer', secret: 'hostile-never-sent-secret' } },
    make: rpcSide((r, res) =>
      sendText(res, 401, 'application/json', JSON.stringify({ jsonrpc: '2.0', id: r.rpc?.id ?? null, error: { code: -32000, message: 'Unauthorized' } })),
    ),
  },
  'rpc-wrong-id': {
    description: "Every JSON-RPC answer (and stream event) carries an id other than the request's.",
    side: 'rpc',
    make: rpcSide((r, res, kit) => {
      const swap = (v: unknown) => (isObj(v) && 'jsonrpc' in v ? { ...v, id: v.id === null ? 'a2a-hostile-id' : `${String(v.id)}-someone-else` } : v);
      return kit.forward(r, res, { json: swap, event: (v) => [swap(v)] });
    }),
  },
  'rpc-result-and-error': {
    description: 'Every JSON-RPC answer (and stream event) has both "result" and "error".',
    side: 'rpc',
    make: rpcSide((r, res, kit) => {
      const both = (v: unknown) =>
        isObj(v) && 'jsonrpc' in v ? { result: v.result ?? {}, ...v, error: v.error ?? { code: -32603, message: 'Internal error' } } : v;
      return kit.forward(r, res, { json: both, event: (v) => [both(v)] });
    }),
  },
  'task-id-changes': {
    description: 'The task id is different in every answer and event (the agent accepts any of them back).',
    side: 'rpc',
    make: (kit) => {
      let n = 0;
      const rename = (v: unknown) => {
        n++;
        eachObject(v, (o) => {
          if (typeof o.taskId === 'string') o.taskId = `${o.taskId}~${n}`;
          if (typeof o.id === 'string' && isObj(o.status) && 'contextId' in o) o.id = `${o.id}~${n}`;
        });
        return v;
      };
      return (r, res) => {
        if (r.method !== 'POST') return kit.forward(r, res);
        // Map any of our ids back to the real one so the agent keeps working.
        const real = { ...r, body: r.body.replace(/([0-9a-f-]{36})~\d+/g, '$1') };
        return kit.forward(real, res, { json: rename, event: (v) => [rename(v)] });
      };
    },
  },
  'state-backwards': {
    description: 'A task that was reported completed is reported working again later (get and stream).',
    side: 'rpc',
    make: (kit) => {
      const completed = new Set<string>();
      const back = (s: unknown) => (s === 'TASK_STATE_COMPLETED' ? 'TASK_STATE_WORKING' : s === 'completed' ? 'working' : s);
      const json = (v: unknown) => {
        eachObject(v, (o) => {
          if (typeof o.id !== 'string' || !isObj(o.status) || !/completed/i.test(String(o.status.state))) return;
          if (completed.has(o.id)) o.status = { ...o.status, state: back(o.status.state) };
          else completed.add(o.id);
        });
        return v;
      };
      const event = (v: unknown): unknown[] => {
        let reopened: unknown;
        eachObject(v, (o) => {
          if (typeof o.taskId === 'string' && isObj(o.status) && /completed/i.test(String(o.status.state))) {
            reopened = JSON.parse(JSON.stringify(v, (k, x: unknown) => (k === 'state' ? back(x) : k === 'final' ? false : x)));
          }
        });
        return reopened ? [v, reopened] : [json(v)];
      };
      return rpcSide((r, res) => kit.forward(r, res, { json, event }))(kit);
    },
  },
  'bad-timestamps': {
    description: 'Status timestamps are JavaScript Date strings ("Sun Nov 29 2026 …"), not ISO 8601 UTC.',
    side: 'rpc',
    make: rpcSide((r, res, kit) => {
      const redate = (v: unknown) => {
        eachObject(v, (o) => {
          if (typeof o.timestamp === 'string') o.timestamp = new Date(o.timestamp).toString();
        });
        return v;
      };
      return kit.forward(r, res, { json: redate, event: (v) => [redate(v)] });
    }),
  },

  // ------------------------------------------------------------------ streams only
  'sse-never-ends': {
    description: 'Streams send the task and its progress, never the final state, and never close (a comment every 250 ms).',
    side: 'stream',
    make: streamSide(async (_r, res, kit, events) => {
      const stop = kit.every(250, () => (res.destroyed ? stop() : void res.write(': still here\n\n')));
      res.on('close', stop);
      for await (const data of events) if (!FINAL_EVENT.test(data)) res.write(`data: ${data}\n\n`);
    }),
  },
  'sse-flood': {
    description: 'Streams send the task, then working updates as fast as the socket takes them (well over 100,000 events per second) and never end.',
    side: 'stream',
    make: streamSide(async (r, res, kit, events) => {
      let first: string | undefined;
      for await (const data of events) {
        first = data;
        break;
      }
      if (!first) return void res.end();
      res.write(`data: ${first}\n\n`);
      const task = (JSON.parse(first) as { result?: { task?: { id?: string; contextId?: string } } }).result?.task ?? {};
      const one = `data: ${JSON.stringify({ jsonrpc: '2.0', id: r.rpc?.id, result: { statusUpdate: { taskId: task.id, contextId: task.contextId, status: { state: 'TASK_STATE_WORKING' } } } })}\n\n`;
      const BATCH = 1000;
      const batch = one.repeat(BATCH);
      const started = performance.now();
      kit.stats.floodEvents = 0;
      const pump = () => {
        while (!res.destroyed) {
          kit.stats.floodEvents! += BATCH;
          kit.stats.floodMs = performance.now() - started;
          if (!res.write(batch)) return void res.once('drain', pump);
        }
      };
      pump();
    }),
  },
  'sse-split-every-byte': {
    description: 'Streams are written one byte per chunk, with CRLF line endings (legal SSE).',
    side: 'stream',
    make: streamSide(async (_r, res, _kit, events) => {
      for await (const data of events) {
        if (!(await writeBytewise(res, Buffer.from(`data: ${data}\r\n\r\n`)))) return;
      }
      res.end();
    }),
  },
  'sse-invalid-utf8': {
    description: 'Stream events carry byte sequences that are not valid UTF-8 inside their text parts.',
    side: 'stream',
    make: streamSide(async (_r, res, kit, events) => {
      kit.stats.invalidEvents = 0;
      for await (const data of events) {
        const at = data.indexOf('"text":"');
        if (at < 0) res.write(`data: ${data}\n\n`);
        else {
          kit.stats.invalidEvents++;
          res.write(Buffer.concat([Buffer.from(`data: ${data.slice(0, at + 8)}`), Buffer.from([0xc3, 0x28, 0xff]), Buffer.from(`${data.slice(at + 8)}\n\n`)]));
        }
      }
      res.end();
    }),
  },
  'sse-bom-every-event': {
    description: 'Every stream event starts with a UTF-8 byte order mark (legal only at the very start of a stream).',
    side: 'stream',
    make: streamSide(async (_r, res, _kit, events) => {
      for await (const data of events) res.write(`\uFEFFdata: ${data}\n\n`);
      res.end();
    }),
  },
  'sse-comments-retry': {
    description:
      'Streams open with a byte order mark and carry comments (also inside events), retry and id fields, and events split over several data lines (all legal SSE).',
    side: 'stream',
    make: streamSide(async (_r, res, _kit, events) => {
      res.write('\uFEFF: a2a hostile stream\nretry: 1500\n\n');
      let n = 0;
      for await (const data of events) {
        const cut = data.indexOf(',"result":');
        const lines = cut > 0 ? [data.slice(0, cut), data.slice(cut)] : [data];
        res.write(
          `: event ${++n}\nid: ${n}\nretry: ${1000 + n}\ndata: ${lines[0]}\n: between data lines\n${lines
            .slice(1)
            .map((l) => `data: ${l}\n`)
            .join('')}\n`,
        );
      }
      res.end(': bye\n\n');
    }),
  },

  // ------------------------------------------------------------------ the socket
  'black-hole': {
    description: 'A TCP server that accepts every connection and never sends a byte (card included).',
    side: 'socket',
    make: () => ({
      socket: (s: Socket) => {
        s.on('data', () => undefined);
      },
    }),
  },
} satisfies Record<string, HostileBehaviour>;

export type HostileName = keyof typeof HOSTILE_BEHAVIOURS;
export const HOSTILE_NAMES = Object.keys(HOSTILE_BEHAVIOURS) as HostileName[];
