/**
 * The client's side of a conversation, judged: each request an A2A client sends, against the generation and binding
 * of the interface it was sent to (the card's), and against what the conversation has shown so far (message ids
 * used, tasks and their states). Pure: the conversation tap (src/engine/tap) calls these for every request it relays;
 * each rule's strength and sentences are in src/engine/spec/data/client.ts (CLIENT_SPECS).
 */
import type { Binding, Generation } from '../model/check';
import type { TaskState } from '../model/events';
import { isA2AError } from '../protocol/errors';
import { extensionHeaderName, splitExtensions } from '../protocol/extensions';
import { OPERATIONS, restRoute, type Operation } from '../protocol/operations';
import { isTerminal } from '../protocol/states';
import { CLIENT_SPECS, levelOf, refOf, type GenerationSpec } from '../spec';
import { isRecord, safeJsonParse, truncate } from '../util/json';

export const CLIENT_CHECK_IDS = [
  'client.envelope',
  'client.method',
  'client.params',
  'client.message-id',
  'client.message-id-unique',
  'client.version-header',
  'client.extensions',
  'client.accept-stream',
  'client.task-terminal',
  'client.task-reference',
  'client.input-required',
  'client.resubscribe',
] as const;
export type ClientCheckId = (typeof CLIENT_CHECK_IDS)[number];

/** What to change in the client, per rule. */
const CLIENT_RECOMMENDATIONS: Record<ClientCheckId, string> = {
  'client.envelope': 'Send a JSON-RPC 2.0 request object: {"jsonrpc": "2.0", "id": …, "method": …, "params": {…}} with Content-Type: application/json.',
  'client.method': "Use the method names (or HTTP+JSON routes) of the generation the agent's card declares for the interface you call.",
  'client.params': "Send the operation's required parameters, spelled as the generation spells them (e.g. message.role, message.parts).",
  'client.message-id': 'Give every message a messageId (a fresh UUID).',
  'client.message-id-unique': 'Generate a new messageId (UUID) for every message; reuse one only to retry the same message.',
  'client.version-header': 'Send A2A-Version: 1.0 on every request to a v1.0 interface (the official SDKs do when configured for 1.0).',
  'client.extensions': "Activate the extensions the card marks required: list their URIs in the generation's extensions header.",
  'client.accept-stream': 'Send Accept: text/event-stream (or no Accept header) on streaming requests.',
  'client.task-terminal': 'Start a new task (no taskId, same contextId) instead of continuing one that has finished.',
  'client.task-reference': 'Reference only tasks the agent created (ids from its answers), with the contextId of that task.',
  'client.input-required': 'Answer an input-required task by sending the next message with its taskId (and contextId).',
  'client.resubscribe': 'After a stream drops before the task ends, resubscribe (SubscribeToTask / tasks/resubscribe) or poll the task.',
};

/** One client finding, before the tap adds the exchange it belongs to. */
export interface ClientFinding {
  side: 'client';
  checkId: ClientCheckId;
  level: 'MUST' | 'SHOULD' | 'advisory';
  message: string;
  specRef?: string;
  quote?: string;
  recommendation: string;
}

const STRONG = ['MUST', 'MUST NOT', 'REQUIRED', 'SHALL', 'SHALL NOT', 'required-field', 'SHOULD', 'SHOULD NOT', 'RECOMMENDED'];

/** The sentence a finding shows: the first one that carries the rule's strength, else the first. */
function quoteOf(spec: GenerationSpec): string | undefined {
  return (spec.sentences.find((s) => STRONG.includes(s.keyword)) ?? spec.sentences[0])?.quote;
}

/**
 * A finding under `checkId` at the strength its sentences give it in generation `g` (MAY and descriptive text:
 * advisory). Undefined when the rule is not part of `g`. `advisory` forces an advisory (a weaker case of the rule).
 */
export function clientFinding(g: Generation, checkId: ClientCheckId, message: string, o: { advisory?: boolean } = {}): ClientFinding | undefined {
  const spec = CLIENT_SPECS[checkId]?.[g];
  if (!spec) return undefined;
  const l = levelOf(spec);
  const level = o.advisory || l === 'MAY' ? 'advisory' : l;
  const f: ClientFinding = { side: 'client', checkId, level, message, recommendation: CLIENT_RECOMMENDATIONS[checkId] };
  if (spec.sentences.length) f.specRef = refOf(spec);
  const quote = quoteOf(spec);
  if (quote) f.quote = quote;
  return f;
}

/** A request as the client sent it. */
export interface ClientRequest {
  generation: Generation;
  binding: Binding;
  /** HTTP method. */
  method: string;
  /** The path below the interface URL (HTTP+JSON), e.g. `/v1/tasks/t1`; `''` for JSON-RPC posted to the endpoint. */
  path: string;
  /** Query parameters, as sent. */
  query: Record<string, string>;
  /** Header names lower-case. */
  headers: Record<string, string>;
  /** The body as text (undefined: none). */
  body?: string;
  /** The interface's tenant (v1.0 HTTP+JSON paths may start with it). */
  tenant?: string;
}

/** What the conversation has shown so far (the tap's memory). */
export interface ConversationView {
  /** The message id was used by an earlier request. */
  messageIdSeen(id: string): boolean;
  /** What is known of a task (from the agent's answers). */
  task(id: string): { state?: TaskState; rawState?: string; contextId?: string } | undefined;
  /** Tasks of a context waiting for input (input-required), oldest first. */
  waitingForInput(contextId: string): string[];
  /** Extension URIs the card marks required. */
  requiredExtensions: readonly string[];
}

/** What a request is, once read, with the findings about it. */
export interface ClientJudgement {
  /** The A2A operation, when recognised. */
  operation?: Operation;
  /** The operation as spelled on the wire (`SendMessage`, `POST /message:send`). */
  wireName: string;
  /** The client asked for a stream. */
  streaming: boolean;
  /** The JSON-RPC id as sent (an answer must echo it with its type). */
  rpcId?: string | number;
  messageId?: string;
  taskId?: string;
  contextId?: string;
  findings: ClientFinding[];
}

const GENS: readonly Generation[] = ['legacy', 'v0.2', 'v0.3', 'v1.0'];

/** The operation a JSON-RPC method names in `g`, and the generations that use it when `g` does not. */
function rpcOperation(g: Generation, method: string): { op?: Operation; elsewhere: { op: Operation; generations: Generation[] }[] } {
  const ops = Object.keys(OPERATIONS) as Operation[];
  const op = ops.find((o) => OPERATIONS[o].rpc[g] === method);
  if (op) return { op, elsewhere: [] };
  const elsewhere = ops
    .map((o) => ({ op: o, generations: GENS.filter((x) => x !== g && OPERATIONS[o].rpc[x] === method) }))
    .filter((e) => e.generations.length);
  return { elsewhere };
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Matches a path below a REST base against a route of `g`: the operation and the ids in the path. */
export function restOperation(g: Generation, method: string, path: string, tenant?: string): { op: Operation; id?: string } | undefined {
  const candidates = [path];
  if (g !== 'v1.0' && path.startsWith('/v1/')) candidates.unshift(path.slice(3));
  if (g === 'v1.0') {
    if (tenant && path.startsWith(`/${encodeURIComponent(tenant)}/`)) candidates.unshift(path.slice(encodeURIComponent(tenant).length + 1));
    else if (!path.startsWith('/v1/')) {
      // A tenant the card does not declare (the v1.0 proto binds every route under /{tenant} too); `/v1/` is the
      // v0.3 spelling, not a tenant.
      const m = /^\/[^/]+(\/.*)$/.exec(path);
      if (m?.[1]) candidates.push(m[1]);
    }
  }
  for (const op of Object.keys(OPERATIONS) as Operation[]) {
    const r = restRoute(g, op);
    const methods = [r.method, OPERATIONS[op].restAlternative].filter(Boolean);
    if (!methods.includes(method.toUpperCase() as 'GET')) continue;
    const re = new RegExp(`^${escapeRe(r.path).replace('\\{id\\}', '([^/]+?)').replace('\\{configId\\}', '([^/]+)')}$`);
    for (const p of candidates) {
      const m = re.exec(p);
      if (m) return { op, ...(m[1] !== undefined && r.path.includes('{id}') ? { id: decodeURIComponent(m[1]) } : {}) };
    }
  }
  return undefined;
}

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** The message of a send's params in any generation's spelling (legacy params.message, v0.x/v1.0 params.message, v0.3 REST `request`). */
function messageOf(params: Record<string, unknown>): Record<string, unknown> | undefined {
  if (isRecord(params.message)) return params.message;
  if (isRecord(params.request)) return params.request;
  return undefined;
}

function judgeParams(g: Generation, b: Binding, op: Operation, params: unknown, push: (f: ClientFinding | undefined) => void): Partial<ClientJudgement> {
  const out: Partial<ClientJudgement> = {};
  if (!isRecord(params)) {
    if (op === 'send' || op === 'stream' || (b === 'JSONRPC' && ['get', 'cancel', 'subscribe'].includes(op))) {
      push(clientFinding(g, 'client.params', `The ${op} request has no params object (got ${params === undefined ? 'none' : typeof params}).`));
    }
    return out;
  }
  if (op === 'send' || op === 'stream') {
    const m = messageOf(params);
    if (g === 'legacy') {
      out.taskId = str(params.id);
      if (!out.taskId) push(clientFinding(g, 'client.params', 'tasks/send needs params.id: the legacy protocol has the client choose the task id.'));
    }
    if (!m) {
      push(clientFinding(g, 'client.params', 'The send has no message (params.message is missing or not an object).'));
      return out;
    }
    const parts = m.parts ?? m.content;
    if (!Array.isArray(parts) || parts.length === 0)
      push(clientFinding(g, 'client.params', 'The message has no parts (message.parts must be a non-empty array).'));
    const role = str(m.role);
    const roles =
      g === 'v1.0' ? ['ROLE_USER', 'ROLE_AGENT'] : g === 'v0.3' && b === 'HTTP+JSON' ? ['user', 'agent', 'ROLE_USER', 'ROLE_AGENT'] : ['user', 'agent'];
    if (!role) push(clientFinding(g, 'client.params', 'The message has no role.'));
    else if (!roles.includes(role))
      push(clientFinding(g, 'client.params', `The message role is ${JSON.stringify(role)}; ${g} spells it ${roles.join(' or ')}.`));
    if (g !== 'legacy') {
      out.messageId = str(m.messageId ?? m.message_id);
      if (!out.messageId) push(clientFinding(g, 'client.message-id', 'The message has no messageId.'));
      out.taskId = str(m.taskId ?? m.task_id);
      out.contextId = str(m.contextId ?? m.context_id);
    } else out.contextId = str(params.sessionId);
    return out;
  }
  if (op === 'get' || op === 'cancel' || op === 'subscribe') {
    out.taskId = str(params.id);
    if (b === 'JSONRPC' && !out.taskId) push(clientFinding(g, 'client.params', `The ${OPERATIONS[op].rpc[g]} request names no task (params.id).`));
  }
  return out;
}

/** Judges one request on its own and against the conversation so far. Never throws. */
export function judgeClientRequest(r: ClientRequest, view: ConversationView): ClientJudgement {
  const g = r.generation;
  const findings: ClientFinding[] = [];
  const push = (f: ClientFinding | undefined) => {
    if (f) findings.push(f);
  };
  const j: ClientJudgement = { wireName: `${r.method} ${r.path || '/'}`, streaming: false, findings };
  let params: unknown;
  if (r.binding === 'JSONRPC') {
    const parsed = r.body === undefined || r.body === '' ? undefined : safeJsonParse(r.body);
    if (r.method.toUpperCase() !== 'POST') {
      push(clientFinding(g, 'client.envelope', `JSON-RPC requests are HTTP POSTs; this one is ${r.method}.`));
      return j;
    }
    if (!parsed?.ok || !isRecord(parsed.value)) {
      push(
        clientFinding(
          g,
          'client.envelope',
          `The body is not a JSON-RPC request object (${parsed ? (parsed.ok ? 'JSON, not an object' : 'not JSON') : 'empty'}).`,
        ),
      );
      return j;
    }
    const env = parsed.value;
    if (env.jsonrpc !== '2.0') push(clientFinding(g, 'client.envelope', `"jsonrpc" is ${JSON.stringify(env.jsonrpc) ?? 'missing'}; it must be exactly "2.0".`));
    if (!('id' in env)) push(clientFinding(g, 'client.envelope', 'The request has no "id": it is a notification, so the agent will not answer it.'));
    else if (typeof env.id !== 'string' && typeof env.id !== 'number')
      push(clientFinding(g, 'client.envelope', `"id" is ${JSON.stringify(env.id)}: it should be a string or a number.`, { advisory: env.id === null }));
    else j.rpcId = env.id;
    const ct = (r.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
    if (ct !== 'application/json') {
      push(clientFinding(g, 'client.envelope', `Content-Type is ${ct ? JSON.stringify(ct) : 'missing'}, not application/json.`, { advisory: g === 'v1.0' }));
    }
    const method = str(env.method);
    if (!method) {
      push(clientFinding(g, 'client.envelope', '"method" is missing or not a string.'));
      return j;
    }
    j.wireName = method;
    const found = rpcOperation(g, method);
    if (!found.op) {
      const hint = found.elsewhere[0];
      push(
        clientFinding(
          g,
          'client.method',
          hint
            ? `${method} is the ${hint.generations.join('/')} method; this ${g} interface speaks ${OPERATIONS[hint.op].rpc[g]}.`
            : `${method} is not a method of ${g} (the agent can only answer "method not found").`,
        ),
      );
      return j;
    }
    j.operation = found.op;
    params = env.params;
  } else {
    const m = restOperation(g, r.method, r.path, r.tenant);
    if (!m) {
      const v1Hint = g !== 'v1.0' && !r.path.startsWith('/v1/') && restOperation(g, r.method, `/v1${r.path}`) ? ` (${g} routes start with /v1)` : '';
      const v0Hint =
        g === 'v1.0' && r.path.startsWith('/v1/') && restOperation(g, r.method, r.path.slice(3))
          ? ' (v1.0 routes have no /v1 prefix: that is the v0.3 spelling)'
          : '';
      push(clientFinding(g, 'client.method', `${r.method} ${r.path || '/'} is not an HTTP+JSON route of ${g}${v1Hint}${v0Hint}.`));
      return j;
    }
    j.operation = m.op;
    j.wireName = `${r.method.toUpperCase()} ${r.path}`;
    if (m.id) j.taskId = m.id;
    if (r.body) {
      const parsed = safeJsonParse(r.body);
      params = parsed.ok ? parsed.value : undefined;
      if (!parsed.ok) push(clientFinding(g, 'client.params', `The body is not JSON: ${truncate(parsed.error, 120)}.`));
    }
  }
  const op = j.operation;
  j.streaming = op === 'stream' || op === 'subscribe';
  Object.assign(j, Object.fromEntries(Object.entries(judgeParams(g, r.binding, op, params, push)).filter(([, v]) => v !== undefined)));

  // Service parameters: the version (v1.0) and required extensions.
  if (g === 'v1.0' && !r.headers['a2a-version'] && !Object.keys(r.query).some((k) => k.toLowerCase() === 'a2a-version')) {
    push(clientFinding(g, 'client.version-header', 'The request has no A2A-Version header (nor query parameter): a v1.0 agent then assumes version 0.3.'));
  }
  const extHeader = extensionHeaderName(g);
  if (extHeader && view.requiredExtensions.length) {
    const sent = new Set([...splitExtensions(r.headers[extHeader.toLowerCase()]), ...(g === 'v1.0' ? splitExtensions(r.headers['x-a2a-extensions']) : [])]);
    const missing = view.requiredExtensions.filter((u) => !sent.has(u));
    if (missing.length)
      push(clientFinding(g, 'client.extensions', `The card marks ${missing.join(', ')} required, and the request does not activate it (${extHeader}).`));
  }
  if (j.streaming) {
    const accept = (r.headers.accept ?? '').toLowerCase();
    if (accept && !/text\/event-stream|text\/\*|\*\/\*/.test(accept)) {
      push(clientFinding(g, 'client.accept-stream', `The streaming request sends Accept: ${truncate(accept, 80)}, which excludes text/event-stream.`));
    }
  }

  // The conversation: message ids, tasks continued, input asked for.
  if (j.messageId && view.messageIdSeen(j.messageId)) {
    push(clientFinding(g, 'client.message-id-unique', `messageId ${JSON.stringify(j.messageId)} was already used by an earlier message in this conversation.`));
  }
  if ((op === 'send' || op === 'stream') && g !== 'legacy') {
    const known = j.taskId ? view.task(j.taskId) : undefined;
    if (j.taskId && known && isTerminal(known.state, g)) {
      push(
        clientFinding(
          g,
          'client.task-terminal',
          `The message continues task ${j.taskId}, which is already ${known.rawState ?? known.state} (a terminal state).`,
        ),
      );
    }
    if (j.taskId && known?.contextId && j.contextId && known.contextId !== j.contextId) {
      push(
        clientFinding(
          g,
          'client.task-reference',
          `The message names task ${j.taskId} with contextId ${j.contextId}, but that task belongs to context ${known.contextId}.`,
          {
            advisory: true,
          },
        ),
      );
    }
    if (!j.taskId && j.contextId) {
      const waiting = view.waitingForInput(j.contextId);
      if (waiting.length) {
        push(
          clientFinding(
            g,
            'client.input-required',
            `Task ${waiting[0]} of context ${j.contextId} is waiting for input, and this message starts a new task in that context instead of answering it (no taskId).`,
          ),
        );
      }
    }
  }
  return j;
}

/** After the agent answered: a send that named a task the agent does not know broke the client's rule (v1.0 §3.4.2). */
export function judgeTaskNotFound(
  g: Generation,
  j: ClientJudgement,
  answer: { rpcCode?: number; httpStatus: number; reason?: string },
): ClientFinding | undefined {
  if ((j.operation !== 'send' && j.operation !== 'stream') || !j.taskId) return undefined;
  // The JSON-RPC code; else the ErrorInfo reason; else an HTTP 404 (protocol/errors.ts).
  if (!isA2AError({ kind: 'error', error: { code: answer.rpcCode, httpStatus: answer.httpStatus, reason: answer.reason } }, 'TaskNotFound')) return undefined;
  return clientFinding(g, 'client.task-reference', `The message names task ${j.taskId}, which the agent says does not exist (task not found).`);
}
