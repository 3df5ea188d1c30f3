/**
 * Parts, as each generation spells them on the wire: one writer (renderPart, for the messages we send) and one
 * reader (partOf and what builds on it, for what an agent sends back), side by side so the spellings are in one
 * place:
 *
 * | generation            | tag              | text   | data                  | file by bytes / by URI                              |
 * |-----------------------|------------------|--------|-----------------------|-----------------------------------------------------|
 * | legacy (v0.1.0)       | `type`           | `text` | `data`                | `file: {bytes \| uri, mimeType, name}`               |
 * | v0.2.6, v0.3.0        | `kind`           | `text` | `data`                | `file: {bytes \| uri, mimeType, name}`               |
 * | v0.3 proto JSON       | none             | `text` | `data: {data}`        | `file: {fileWithBytes \| fileWithUri, mimeType}`     |
 * | v1.0.1                | none (the oneof) | `text` | `data`, `mediaType`   | `raw \| url`, `mediaType`, `filename`                |
 *
 * The reader is tolerant: it reads any of these spellings in any answer (agents mix them), bounds what it keeps,
 * and turns anything unexpected into nothing rather than a crash. Agent text stays text here; a view decides how it
 * is shown (never as HTML). Pure.
 */
import type { InputPart } from './input';
import type { Generation } from '../model/check';
import { isRecord } from '../util/json';

// ------------------------------------------------------------------ writer

/** One part as the generation and payload style spell it. */
/** How parts are spelled: the generation, and for v0.3 whether the peer reads the v0.3 proto's JSON (messages.ts MessageStyle). */
export interface PartStyle {
  generation: Generation;
  protoParts: boolean;
}

export function renderPart(s: PartStyle, p: InputPart): Record<string, unknown> {
  const g = s.generation;
  if (g === 'v1.0') {
    if (p.kind === 'text') return { text: p.text };
    if (p.kind === 'data') return { data: p.data, mediaType: 'application/json' };
    if ('uri' in p) return { url: p.uri, mediaType: p.mediaType, filename: p.name };
    return { raw: p.bytes, mediaType: p.mediaType, filename: p.name };
  }
  if (s.protoParts) {
    if (p.kind === 'text') return { text: p.text };
    if (p.kind === 'data') return { data: { data: p.data } };
    if ('uri' in p) return { file: { fileWithUri: p.uri, mimeType: p.mediaType } };
    return { file: { fileWithBytes: p.bytes, mimeType: p.mediaType } };
  }
  const tag = g === 'legacy' ? 'type' : 'kind';
  if (p.kind === 'text') return { [tag]: 'text', text: p.text };
  if (p.kind === 'data') return { [tag]: 'data', data: p.data };
  if ('uri' in p) return { [tag]: 'file', file: { name: p.name, mimeType: p.mediaType, uri: p.uri } };
  return { [tag]: 'file', file: { name: p.name, mimeType: p.mediaType, bytes: p.bytes } };
}

// ------------------------------------------------------------------ reader

export type PartView =
  | { kind: 'text'; text: string; mediaType?: string }
  | { kind: 'data'; data: unknown; mediaType?: string }
  | { kind: 'file'; mediaType?: string; name?: string; bytes?: string; uri?: string };

export interface ArtifactView {
  /** The artifact's id, else its index, else its position. */
  key: string;
  artifactId?: string;
  name?: string;
  description?: string;
  parts: PartView[];
  /** A streamed artifact whose last chunk arrived (or a whole artifact from a Task). */
  complete: boolean;
}

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** Parts kept per message or artifact, and artifacts per task: a hostile answer can send thousands. */
const MAX_PARTS = 50;
const MAX_ARTIFACTS = 20;

/** One part, whatever the generation spelled it as; undefined when it is not a part. */
export function partOf(p: unknown): PartView | undefined {
  if (!isRecord(p)) return undefined;
  const tag = str(p.kind) ?? str(p.type);
  const mediaType = str(p.mediaType) ?? str(p.mimeType);
  if (typeof p.text === 'string' && (tag === undefined || tag === 'text')) return { kind: 'text', text: p.text, ...(mediaType && { mediaType }) };
  const file = isRecord(p.file) ? p.file : undefined;
  if (file || tag === 'file' || typeof p.raw === 'string' || typeof p.url === 'string') {
    const f = file ?? {};
    const bytes = str(f.bytes) ?? str(f.fileWithBytes) ?? str(p.raw);
    const uri = str(f.uri) ?? str(f.fileWithUri) ?? str(p.url);
    return {
      kind: 'file',
      mediaType: str(f.mimeType) ?? str(f.mediaType) ?? mediaType,
      name: str(f.name) ?? str(p.filename),
      ...(bytes !== undefined && { bytes }),
      ...(uri !== undefined && { uri }),
    };
  }
  if ('data' in p) {
    // The v0.3 proto wraps data parts once more ({data: {data: …}}) and has no tag.
    const inner = tag === undefined && isRecord(p.data) && Object.keys(p.data).length === 1 && 'data' in p.data ? p.data.data : p.data;
    return { kind: 'data', data: inner, ...(mediaType && { mediaType }) };
  }
  return undefined;
}

function partsOf(list: unknown): PartView[] {
  if (!Array.isArray(list)) return [];
  return list
    .slice(0, MAX_PARTS)
    .map(partOf)
    .filter((p): p is PartView => p !== undefined);
}

/** The parts of a message or an artifact (`parts`, or the v0.3 proto's `content`). */
const partsOfHolder = (h: unknown): PartView[] => (isRecord(h) ? partsOf(Array.isArray(h.parts) ? h.parts : h.content) : []);

function artifactOf(a: unknown, position: number): ArtifactView | undefined {
  if (!isRecord(a)) return undefined;
  const artifactId = str(a.artifactId) ?? str(a.id);
  const index = typeof a.index === 'number' ? a.index : undefined;
  return {
    key: artifactId ?? (index !== undefined ? `#${index}` : `#${position}`),
    ...(artifactId && { artifactId }),
    ...(str(a.name) !== undefined && { name: str(a.name) }),
    ...(str(a.description) !== undefined && { description: str(a.description) }),
    parts: partsOfHolder(a),
    complete: true,
  };
}

/** A JSON-RPC answer's `result` (or the REST body itself); undefined for JSON-RPC errors and non-objects. */
function payloadOf(body: unknown): Record<string, unknown> | undefined {
  if (!isRecord(body)) return undefined;
  if (body.jsonrpc !== undefined || 'result' in body || 'error' in body) return isRecord(body.result) ? body.result : undefined;
  return body;
}

const WRAPPERS = ['task', 'message', 'msg', 'statusUpdate', 'artifactUpdate'] as const;

/** v1.0 and the v0.3 proto wrap what they return in one named field (`{task}`, `{message}`, `{artifactUpdate}`…). */
function unwrap(payload: Record<string, unknown>): { as?: (typeof WRAPPERS)[number]; value: Record<string, unknown> } {
  const keys = Object.keys(payload);
  for (const w of WRAPPERS) if (isRecord(payload[w]) && keys.length <= 2) return { as: w, value: payload[w] as Record<string, unknown> };
  return { value: payload };
}

/** The artifacts of a Task (as received), in order, bounded. */
function taskArtifacts(task: unknown): ArtifactView[] {
  if (!isRecord(task) || !Array.isArray(task.artifacts)) return [];
  return task.artifacts
    .slice(0, MAX_ARTIFACTS)
    .map((a, i) => artifactOf(a, i))
    .filter((a): a is ArtifactView => a !== undefined);
}

export interface AnswerContent {
  /** A Task's artifacts. */
  artifacts: ArtifactView[];
  /** A Message's parts (or, for a Task, its status message's parts). */
  messageParts: PartView[];
}

/** What a whole (non-streamed) answer body carries: a Task's artifacts, or a Message's parts. */
export function answerContent(bodyText: string | undefined): AnswerContent | undefined {
  const body = parseJson(bodyText);
  const payload = payloadOf(body);
  if (!payload) return undefined;
  const { as, value } = unwrap(payload);
  const isMessage = as === 'message' || as === 'msg' || value.kind === 'message' || (value.role !== undefined && value.status === undefined);
  if (isMessage) return { artifacts: [], messageParts: partsOfHolder(value) };
  const status = isRecord(value.status) ? value.status : undefined;
  return { artifacts: taskArtifacts(value), messageParts: partsOfHolder(status?.message ?? status?.update) };
}

/** One artifact chunk of a stream event, with its append and lastChunk flags (on the event, or legacy: on the artifact). */
interface ArtifactChunk {
  artifact: ArtifactView;
  append: boolean;
  lastChunk: boolean;
}

/** What one SSE event carries for the views: an artifact chunk, a Task's artifacts, or a Message's parts. */
export interface FrameContent {
  chunk?: ArtifactChunk;
  taskArtifacts?: ArtifactView[];
  messageParts?: PartView[];
}

export function frameContent(data: string): FrameContent {
  const payload = payloadOf(parseJson(data));
  if (!payload) return {};
  const { as, value } = unwrap(payload);
  if (as === 'artifactUpdate' || value.kind === 'artifact-update' || (isRecord(value.artifact) && value.status === undefined)) {
    const raw = value.artifact;
    const artifact = artifactOf(raw, 0);
    if (!artifact || !isRecord(raw)) return {};
    const append = value.append === true || raw.append === true;
    const lastChunk = value.lastChunk === true || raw.lastChunk === true;
    return { chunk: { artifact: { ...artifact, complete: lastChunk }, append, lastChunk } };
  }
  if (as === 'message' || as === 'msg' || value.kind === 'message') return { messageParts: partsOfHolder(value) };
  if (as === 'task' || value.kind === 'task' || (value.id !== undefined && isRecord(value.status) && 'artifacts' in value))
    return { taskArtifacts: taskArtifacts(value) };
  return {};
}

/**
 * The artifacts of a stream, chunks reassembled as a client does: a chunk with `append` adds its parts to the
 * artifact with the same key; otherwise it replaces it. A Task event's artifacts are taken as they are.
 */
export function foldStreamArtifacts(frames: readonly { data: string }[]): ArtifactView[] {
  const byKey = new Map<string, ArtifactView>();
  for (const f of frames) {
    const c = frameContent(f.data);
    for (const a of c.taskArtifacts ?? []) byKey.set(a.key, a);
    if (!c.chunk) continue;
    const { artifact, append, lastChunk } = c.chunk;
    const cur = byKey.get(artifact.key);
    if (cur && append) byKey.set(artifact.key, { ...cur, parts: mergeParts(cur.parts, artifact.parts).slice(0, MAX_PARTS), complete: lastChunk });
    else if (byKey.size < MAX_ARTIFACTS || cur) byKey.set(artifact.key, artifact);
  }
  return [...byKey.values()];
}

/** Appended text parts read as one text (how streamed text arrives); other parts are added as they are. */
function mergeParts(a: PartView[], b: PartView[]): PartView[] {
  const last = a.at(-1);
  const first = b[0];
  if (last?.kind === 'text' && first?.kind === 'text' && last.mediaType === first.mediaType)
    return [...a.slice(0, -1), { ...last, text: last.text + first.text }, ...b.slice(1)];
  return [...a, ...b];
}

export function parseJson(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  const t = text.trim();
  if (!t.startsWith('{') && !t.startsWith('[')) return undefined;
  try {
    return JSON.parse(t) as unknown;
  } catch {
    return undefined;
  }
}
