/**
 * The engine's GrpcTransport (src/engine/ports.ts) in Node, on @grpc/grpc-js with the spec's a2a.proto (loaded
 * from the generated JSON descriptor, see scripts/gen-grpc-descriptor.mjs). Requests and answers are ProtoJSON
 * (protojson.ts); the bytes are encoded and decoded here, so an answer that is not the proto's message is reported
 * as the agent's (`decode`), a request we cannot encode as ours (`tool`). Never throws.
 *
 * Interface URLs: `grpc://` and `http://` are plaintext, `grpcs://` and `https://` TLS (port 443 by default), and a
 * bare `host:port` (what the a2a-js SDK's gRPC client takes) plaintext on loopback hosts and TLS elsewhere. A path
 * in the URL is ignored: gRPC methods live at `/lf.a2a.v1.A2AService/<Method>` on the authority.
 */
import * as grpc from '@grpc/grpc-js';
import { emptyGrpcResult, type GrpcRequest, type GrpcResult, type GrpcTransport } from '../engine/ports';
import { A2A_SERVICE, decodeJson, encodeJson, lookupType } from './protojson';

export interface GrpcTarget {
  authority: string;
  tls: boolean;
}

const LOOPBACK = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\]|::1)$/i;

/** Where a card's gRPC interface URL points (throws on a URL we cannot use). */
export function grpcTarget(url: string): GrpcTarget {
  const m = /^([a-z][a-z0-9+.-]*):\/\//i.exec(url);
  if (!m) {
    const authority = url.replace(/\/.*$/, '');
    const host = authority.replace(/:\d+$/, '');
    if (!/^[^\s/:]+(?::\d+)?$|^\[[0-9a-f:.]+\](?::\d+)?$/i.test(authority)) throw new Error(`not a gRPC target: ${url}`);
    return { authority, tls: !LOOPBACK.test(host) };
  }
  const scheme = m[1]!.toLowerCase();
  if (!['grpc', 'grpcs', 'http', 'https'].includes(scheme)) throw new Error(`unsupported scheme for gRPC: ${scheme}`);
  const u = new URL(url.replace(/^grpcs?:/i, scheme === 'grpcs' ? 'https:' : 'http:'));
  const tls = scheme === 'grpcs' || scheme === 'https';
  return { authority: `${u.hostname}:${u.port || (tls ? '443' : '80')}`, tls };
}

const STATUS_NAMES = Object.fromEntries(Object.entries(grpc.status).map(([k, v]) => [v, k])) as Record<number, string>;
const STATUS_TYPE = lookupType('google.rpc.Status');

function metadataRecord(md: grpc.Metadata | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (!md) return out;
  for (const [k, v] of Object.entries(md.getMap())) if (!k.endsWith('-bin') && typeof v === 'string') out[k] = v;
  return out;
}

/** google.rpc.Status details from `grpc-status-details-bin` (ProtoJSON Any messages, `@type` kept). */
function statusDetails(md: grpc.Metadata | undefined): unknown[] {
  const raw = md?.get('grpc-status-details-bin')[0];
  if (!raw || typeof raw === 'string' || !STATUS_TYPE) return [];
  try {
    const s = decodeJson(STATUS_TYPE, raw);
    return typeof s === 'object' && s !== null && !Array.isArray(s) && Array.isArray(s.details) ? s.details : [];
  } catch {
    return [];
  }
}

const identity = (b: Buffer): Buffer => b;

/** A GrpcTransport with one channel per authority; `close()` ends them. */
export function createGrpcTransport(): GrpcTransport & { close(): void } {
  const clients = new Map<string, grpc.Client>();
  const clientFor = (t: GrpcTarget) => {
    const key = `${t.tls ? 's' : ''}${t.authority}`;
    let c = clients.get(key);
    if (!c) {
      c = new grpc.Client(t.authority, t.tls ? grpc.credentials.createSsl() : grpc.credentials.createInsecure(), {
        'grpc.max_receive_message_length': 8 * 1024 * 1024,
      });
      clients.set(key, c);
    }
    return c;
  };

  function call(req: GrpcRequest, onMessage?: (m: unknown) => 'stop' | void): Promise<GrpcResult> {
    const res = emptyGrpcResult();
    const name = req.method.slice(req.method.lastIndexOf('/') + 1);
    const method = A2A_SERVICE.methods[name];
    let body: Buffer;
    let client: grpc.Client;
    try {
      if (!method) throw new Error(`${req.method} is not a method of ${A2A_SERVICE.fullName.slice(1)}`);
      method.resolve();
      if (!method.resolvedRequestType) throw new Error(`no request type for ${name}`);
      body = Buffer.from(encodeJson(method.resolvedRequestType, req.message));
      client = clientFor(grpcTarget(req.url));
    } catch (e) {
      return Promise.resolve({ ...res, error: { kind: 'tool', message: e instanceof Error ? e.message : String(e) } });
    }
    const responseType = method.resolvedResponseType;
    const md = new grpc.Metadata();
    for (const [k, v] of Object.entries(req.metadata)) {
      try {
        md.set(k.toLowerCase(), v);
      } catch {
        /* a key gRPC refuses (e.g. upper case after lowering is impossible; binary suffix) is not sent */
      }
    }
    const started = Date.now();
    const deadline = started + req.timeoutMs + 1000;
    return new Promise<GrpcResult>((resolve) => {
      let stoppedByUs = false;
      let settled = false;
      const decode = (buf: Buffer): unknown => {
        res.bytes += buf.length;
        if (!responseType) throw new Error('no response type');
        return decodeJson(responseType, buf);
      };
      const finish = (status: grpc.StatusObject | undefined) => {
        if (settled) return;
        settled = true;
        req.signal?.removeEventListener('abort', onAbort);
        if (status) {
          res.trailers = metadataRecord(status.metadata);
          if (stoppedByUs || req.signal?.aborted) {
            res.error = { kind: res.error?.kind ?? 'aborted', message: res.error?.message ?? 'stopped by the client' };
          } else if (!res.responded && status.code === grpc.status.UNAVAILABLE) {
            res.error = { kind: 'connect', message: status.details };
          } else if (!res.responded && status.code === grpc.status.DEADLINE_EXCEEDED && Date.now() >= deadline - 50) {
            res.error = { kind: 'timeout', message: `no answer within ${req.timeoutMs} ms` };
          } else if (res.error?.kind !== 'decode') {
            res.code = status.code;
            res.status = STATUS_NAMES[status.code];
            res.statusMessage = status.details;
            res.details = statusDetails(status.metadata);
          }
        }
        resolve(res);
      };
      const onMeta = (m: grpc.Metadata) => {
        res.responded = true;
        res.headers = metadataRecord(m);
      };
      const options: grpc.CallOptions = { deadline };
      let cancel = () => undefined as void;
      const onAbort = () => {
        stoppedByUs = true;
        cancel();
      };
      if (!onMessage) {
        const c = client.makeUnaryRequest<Buffer, Buffer>(req.method, identity, identity, body, md, options, (err, value) => {
          if (!err && value) {
            try {
              res.messages.push(decode(value));
            } catch (e) {
              res.error = { kind: 'decode', message: e instanceof Error ? e.message : String(e) };
            }
          }
        });
        cancel = () => c.cancel();
        c.on('metadata', onMeta);
        c.on('status', (s: grpc.StatusObject) => setImmediate(() => finish(s)));
      } else {
        const c = client.makeServerStreamRequest<Buffer, Buffer>(req.method, identity, identity, body, md, options);
        cancel = () => c.cancel();
        c.on('metadata', onMeta);
        c.on('data', (buf: Buffer) => {
          if (stoppedByUs) return;
          let m: unknown;
          try {
            m = decode(buf);
          } catch (e) {
            res.error = { kind: 'decode', message: e instanceof Error ? e.message : String(e) };
            stoppedByUs = true;
            c.cancel();
            return;
          }
          if (onMessage(m) === 'stop') {
            stoppedByUs = true;
            c.cancel();
          }
        });
        c.on('error', () => undefined); // the status event follows with the same information
        c.on('status', (s: grpc.StatusObject) => finish(s));
      }
      if (req.signal?.aborted) onAbort();
      else req.signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  return {
    unary: (req) => call(req),
    serverStream: (req, onMessage) => call(req, onMessage),
    close: () => {
      for (const c of clients.values()) c.close();
      clients.clear();
    },
  };
}
