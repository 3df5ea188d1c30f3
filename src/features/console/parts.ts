/**
 * What an agent sent, as parts the console can show: messages, artifacts and stream events of any generation
 * (legacy `type` tags, v0.2/v0.3 `kind` tags, the v0.3 proto JSON, v1.0 `raw`/`url`/`data` parts), read from the
 * JSON as received. Pure and tolerant: anything unexpected becomes nothing rather than a crash. Agent text stays
 * text here; the views decide how it is shown (never as HTML).
 */

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

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** Parts kept per message or artifact, and artifacts per task: a hostile answer can send thousands. */
export const MAX_PARTS = 50;
export const MAX_ARTIFACTS = 20;

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

export function partsOf(list: unknown): PartView[] {
  if (!Array.isArray(list)) return [];
  return list
    .slice(0, MAX_PARTS)
    .map(partOf)
    .filter((p): p is PartView => p !== undefined);
}

/** The parts of a message or an artifact (`parts`, or the v0.3 proto's `content`). */
export const partsOfHolder = (h: unknown): PartView[] => (isRecord(h) ? partsOf(Array.isArray(h.parts) ? h.parts : h.content) : []);

export function artifactOf(a: unknown, position: number): ArtifactView | undefined {
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
export function payloadOf(body: unknown): Record<string, unknown> | undefined {
  if (!isRecord(body)) return undefined;
  if (body.jsonrpc !== undefined || 'result' in body || 'error' in body) return isRecord(body.result) ? body.result : undefined;
  return body;
}

const WRAPPERS = ['task', 'message', 'msg', 'statusUpdate', 'artifactUpdate'] as const;

/** v1.0 and the v0.3 proto wrap what they return in one named field (`{task}`, `{message}`, `{artifactUpdate}`…). */
export function unwrap(payload: Record<string, unknown>): { as?: (typeof WRAPPERS)[number]; value: Record<string, unknown> } {
  const keys = Object.keys(payload);
  for (const w of WRAPPERS) if (isRecord(payload[w]) && keys.length <= 2) return { as: w, value: payload[w] as Record<string, unknown> };
  return { value: payload };
}

/** The artifacts of a Task (as received), in order, bounded. */
export function taskArtifacts(task: unknown): ArtifactView[] {
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
export interface ArtifactChunk {
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

// ------------------------------------------------------------------ media types

const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/jpg', 'image/gif', 'image/webp', 'image/avif', 'image/bmp']);
const BASE64 = /^[A-Za-z0-9+/_-]*={0,2}$/;

/** The base media type, lower case, without parameters. */
export const baseType = (m: string | undefined) => (m ?? '').split(';')[0]!.trim().toLowerCase();

export type Rendering = 'text' | 'json' | 'image' | 'download' | 'link';

/**
 * How a part is shown: text as text (HTML and SVG included: never rendered), JSON as a tree, raster images
 * inline from their bytes (an image by URI is a link: we do not fetch agent URLs for the user), anything else
 * downloadable.
 */
export function renderingOf(p: PartView): Rendering {
  if (p.kind === 'data') return 'json';
  if (p.kind === 'text') return baseType(p.mediaType).endsWith('json') && parseJson(p.text) !== undefined ? 'json' : 'text';
  if (p.bytes === undefined) return 'link';
  if (IMAGE_TYPES.has(baseType(p.mediaType)) && isBase64(p.bytes)) return 'image';
  return 'download';
}

export function isBase64(s: string): boolean {
  const t = s.replace(/\s+/g, '');
  return t.length > 0 && t.length % 4 !== 1 && BASE64.test(t);
}

/** Decodes base64 (standard or URL alphabet) to bytes; undefined when it is not base64. */
export function decodeBase64(s: string): Uint8Array | undefined {
  if (!isBase64(s)) return undefined;
  const t = s.replace(/\s+/g, '').replace(/-/g, '+').replace(/_/g, '/');
  const padded = t + '='.repeat((4 - (t.length % 4)) % 4);
  try {
    const bin = atob(padded);
    const out = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
    return out;
  } catch {
    return undefined;
  }
}

/** A data: URL for an inline raster image (only the types renderingOf calls images). */
export function imageSrc(p: PartView): string | undefined {
  if (p.kind !== 'file' || p.bytes === undefined || renderingOf(p) !== 'image') return undefined;
  const t = p.bytes.replace(/\s+/g, '').replace(/-/g, '+').replace(/_/g, '/');
  return `data:${baseType(p.mediaType)};base64,${t}`;
}

/** A file name safe for a download (no path, no control characters), with a fallback. */
export function downloadName(name: string | undefined, fallback = 'artifact.bin'): string {
  const base = (name ?? '').split(/[\\/]/).pop() ?? '';
  const clean = [...base]
    .filter((ch) => ch.charCodeAt(0) >= 0x20 && ch.charCodeAt(0) !== 0x7f)
    .join('')
    .replace(/^\.+/, '')
    .trim()
    .slice(0, 120);
  return clean || fallback;
}
