import type { Generation } from '../model/check';
import type { InputPart } from './input';
import { renderPart } from './parts';

export { renderPart };

/**
 * Request bodies: a user message and the send parameters, as each generation spells them (legacy v0.1.0 §7.1
 * TaskSendParams; v0.2.6/v0.3.0 MessageSendParams with `kind` tags; v1.0.1 §3.2.1 SendMessageRequest in ProtoJSON;
 * v0.3 HTTP+JSON servers in the v0.3 proto's JSON, see docs/protocol-notes.md). Pure.
 */
export interface MessageStyle {
  generation: Generation;
  /** HTTP+JSON in the proto's JSON style: the message as `{messageId, role: 'ROLE_USER', content}` (v0.x only). */
  protoStyle: boolean;
  /** Parts in the v0.3 proto's JSON too (`{text}`, `{data: {data}}`, `{file: {fileWithBytes}}`): v0.3 only. */
  protoParts: boolean;
  /** The interface's tenant, already limited to v1.0 (sent in every request, v1.0.1 §8.3.2). */
  tenant?: string;
  acceptedOutputModes: string[];
  uuid(): string;
}

/** What a message to send says (the Dialect's SendArgs without the call options). */
export interface MessageArgs {
  text: string;
  /** The message parts; default one text part with `text`. */
  parts?: InputPart[];
  taskId?: string;
  contextId?: string;
  historyLength?: number;
  /** v1.0 `returnImmediately: true`, v0.2/0.3 `blocking: false`. */
  returnImmediately?: boolean;
  /** v0.2/0.3: send `blocking: true` explicitly (v1.0 blocks unless returnImmediately). */
  blocking?: boolean;
  /** The output media types to accept for this message (default: the card's defaultOutputModes). */
  acceptedOutputModes?: string[];
  /** The message id to send (default: a fresh UUID), so a check can find its message in the task history. */
  messageId?: string;
  /** The message's `metadata` (every generation's Message has one). */
  metadata?: Record<string, unknown>;
}

export function userMessage(
  s: MessageStyle,
  text: string,
  taskId?: string,
  contextId?: string,
  parts?: InputPart[],
  messageId?: string,
  metadata?: Record<string, unknown>,
): Record<string, unknown> {
  const g = s.generation;
  const rendered = (parts?.length ? parts : [{ kind: 'text', text } as InputPart]).map((p) => renderPart(s, p));
  const meta = metadata ? { metadata } : {};
  if (g === 'legacy') return { role: 'user', parts: rendered, ...meta };
  const mid = messageId ?? s.uuid();
  if (g === 'v1.0') {
    return { messageId: mid, role: 'ROLE_USER', parts: rendered, ...(taskId && { taskId }), ...(contextId && { contextId }), ...meta };
  }
  if (s.protoStyle) {
    return { messageId: mid, role: 'ROLE_USER', content: rendered, ...(taskId && { taskId }), ...(contextId && { contextId }), ...meta };
  }
  return { kind: 'message', messageId: mid, role: 'user', parts: rendered, ...(taskId && { taskId }), ...(contextId && { contextId }), ...meta };
}

/** The params (JSON-RPC) or body (HTTP+JSON) of a send. */
export function sendParams(s: MessageStyle, a: MessageArgs): Record<string, unknown> {
  const g = s.generation;
  if (g === 'legacy') {
    return {
      id: a.taskId ?? s.uuid(),
      sessionId: a.contextId ?? s.uuid(),
      message: userMessage(s, a.text, undefined, undefined, a.parts, undefined, a.metadata),
      ...(a.historyLength !== undefined && { historyLength: a.historyLength }),
    };
  }
  const configuration: Record<string, unknown> = { acceptedOutputModes: a.acceptedOutputModes?.length ? a.acceptedOutputModes : s.acceptedOutputModes };
  if (a.historyLength !== undefined) configuration.historyLength = a.historyLength;
  if (a.returnImmediately) {
    if (g === 'v1.0') configuration.returnImmediately = true;
    else configuration.blocking = false;
  } else if (a.blocking && g !== 'v1.0') configuration.blocking = true;
  return { message: userMessage(s, a.text, a.taskId, a.contextId, a.parts, a.messageId, a.metadata), configuration, ...(s.tenant && { tenant: s.tenant }) };
}
