/**
 * The browser's GrpcTransport: each call goes to the local server's gRPC bridge (bridge.ts) as JSON; a streaming
 * call comes back as an event stream of `message` events and one `result`. Browser-safe (no Node modules). Never
 * throws: the bridge failing or refusing (a hosted server: gRPC needs the local server) is our failure (`tool`).
 */
import { createParser } from 'eventsource-parser';
import { emptyGrpcResult, isAbortError, type GrpcRequest, type GrpcResult, type GrpcTransport } from '../engine/ports';

const toolFailure = (message: string): GrpcResult => emptyGrpcResult({ kind: 'tool', message });
const aborted = (): GrpcResult => emptyGrpcResult({ kind: 'aborted', message: 'stopped by the client' });

async function refusal(res: Response): Promise<GrpcResult> {
  let detail = '';
  try {
    detail = String(((await res.json()) as { error?: unknown }).error ?? '');
  } catch {
    /* informational */
  }
  return toolFailure(detail || `the local server's gRPC bridge answered HTTP ${res.status}`);
}

export function createBridgeTransport(opts: { url: string; fetch?: typeof fetch }): GrpcTransport {
  const doFetch: typeof fetch = opts.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const post = (req: GrpcRequest, stream: boolean, signal: AbortSignal | undefined) =>
    doFetch(opts.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ url: req.url, method: req.method, message: req.message, metadata: req.metadata, timeoutMs: req.timeoutMs, stream }),
      credentials: 'omit',
      cache: 'no-store',
      signal,
    });
  const unreachable = (e: unknown) => toolFailure(`the local server's gRPC bridge could not be reached (${e instanceof Error ? e.message : String(e)})`);
  return {
    async unary(req) {
      try {
        const res = await post(req, false, req.signal);
        if (!res.ok) return await refusal(res);
        return (await res.json()) as GrpcResult;
      } catch (e) {
        return req.signal?.aborted || isAbortError(e) ? aborted() : unreachable(e);
      }
    },
    async serverStream(req, onMessage) {
      const ctl = new AbortController();
      const onAbort = () => ctl.abort();
      req.signal?.addEventListener('abort', onAbort, { once: true });
      let result: GrpcResult | undefined;
      try {
        const res = await post(req, true, ctl.signal);
        if (!res.ok || !res.body) return await refusal(res);
        const parser = createParser({
          onEvent: (ev) => {
            if (ctl.signal.aborted) return;
            const data = JSON.parse(ev.data) as unknown;
            if (ev.event === 'result') result = data as GrpcResult;
            else if (onMessage(data) === 'stop') ctl.abort();
          },
        });
        const reader = res.body.getReader();
        const decoder = new TextDecoder();
        while (!ctl.signal.aborted) {
          const next = await reader.read();
          if (next.done) break;
          parser.feed(decoder.decode(next.value, { stream: true }));
        }
        await reader.cancel().catch(() => undefined);
        if (ctl.signal.aborted) return aborted();
        return result ?? toolFailure('the gRPC bridge ended the stream without a result');
      } catch (e) {
        return ctl.signal.aborted || isAbortError(e) ? aborted() : unreachable(e);
      } finally {
        req.signal?.removeEventListener('abort', onAbort);
      }
    },
  };
}
