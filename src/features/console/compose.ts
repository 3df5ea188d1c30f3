/**
 * The console's composer: what the user typed (a draft) checked and turned into one send, with a message per
 * field that is wrong. Pure.
 */
import type { Generation } from '../../lib/engine';

export type SendMode = 'blocking' | 'non-blocking' | 'streaming';
export type FileMode = 'none' | 'upload' | 'uri';

export interface UploadedFile {
  name: string;
  mediaType: string;
  /** Base64 of the file's bytes. */
  bytes: string;
  size: number;
}

export interface ComposeDraft {
  text: string;
  /** A JSON object sent as a data part; empty: no data part. */
  dataJson: string;
  fileMode: FileMode;
  file: UploadedFile | null;
  fileUri: string;
  fileUriType: string;
  /** A skill id of the card; empty: none. */
  skill: string;
  mode: SendMode;
  /** Empty: not sent. */
  historyLength: string;
  /** Comma-separated media types; empty: the skill's or the card's defaults. */
  outputModes: string;
  /** A JSON object sent as message metadata; empty: none. */
  metadataJson: string;
  /** Continue a task / context (answer input-required), or start a new one. */
  target: 'new' | 'continue';
  taskId: string;
  contextId: string;
  /** Extension URIs to activate, comma-separated; empty: none. */
  extensions?: string;
}

export const EMPTY_DRAFT: ComposeDraft = {
  text: '',
  dataJson: '',
  fileMode: 'none',
  file: null,
  fileUri: '',
  fileUriType: '',
  skill: '',
  mode: 'blocking',
  historyLength: '',
  outputModes: '',
  metadataJson: '',
  target: 'new',
  taskId: '',
  contextId: '',
};

/** One part of the message to send, generation-neutral (the engine spells it per generation and binding). */
export type OutPart =
  | { kind: 'text'; text: string }
  | { kind: 'data'; data: Record<string, unknown> }
  | { kind: 'file'; mediaType: string; name: string; bytes: string }
  | { kind: 'file'; mediaType: string; name: string; uri: string };

export interface SendRequest {
  stream: boolean;
  text: string;
  parts: OutPart[];
  skill?: string;
  blocking: boolean;
  historyLength?: number;
  acceptedOutputModes?: string[];
  metadata?: Record<string, unknown>;
  taskId?: string;
  contextId?: string;
  /** Extension URIs to activate (the generation's A2A-Extensions header). */
  extensions?: string[];
}

export type DraftField = 'text' | 'dataJson' | 'file' | 'fileUri' | 'historyLength' | 'outputModes' | 'metadataJson' | 'taskId' | 'mode' | 'extensions';
export type DraftErrors = Partial<Record<DraftField, string>>;

/** Largest file the console sends inline (base64 grows it by a third; agents often cap bodies at a few MB). */
export const MAX_UPLOAD_BYTES = 2 * 1024 * 1024;
const MEDIA_TYPE = /^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+(\s*;.*)?$/i;

function jsonObject(text: string, what: string): { ok: true; value?: Record<string, unknown> } | { ok: false; error: string } {
  if (!text.trim()) return { ok: true };
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    return { ok: false, error: `${what} is not valid JSON: ${e instanceof Error ? e.message : String(e)}` };
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return { ok: false, error: `${what} must be a JSON object, e.g. {"key": "value"}.` };
  return { ok: true, value: v as Record<string, unknown> };
}

/** The URIs of a comma-separated list (blanks dropped, duplicates kept once, order kept). */
export const extensionList = (text: string): string[] => [
  ...new Set(
    text
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  ),
];

export interface ComposeContext {
  generation?: Generation;
  /** The card declares streaming. */
  streaming?: boolean;
}

/** Checks a draft; the send it makes, or an error for each field that is wrong. */
export function buildSend(d: ComposeDraft, ctx: ComposeContext = {}): { ok: true; request: SendRequest } | { ok: false; errors: DraftErrors } {
  const errors: DraftErrors = {};
  const parts: OutPart[] = [];
  const text = d.text.trim() ? d.text : '';
  if (text) parts.push({ kind: 'text', text });
  const data = jsonObject(d.dataJson, 'The data part');
  if (!data.ok) errors.dataJson = data.error;
  else if (data.value) parts.push({ kind: 'data', data: data.value });
  if (d.fileMode === 'upload') {
    if (!d.file) errors.file = 'Choose a file to upload, or choose "No file".';
    else if (d.file.size > MAX_UPLOAD_BYTES)
      errors.file = `The file is ${Math.round(d.file.size / 1024)} KB; the console sends files up to ${MAX_UPLOAD_BYTES / 1024 / 1024} MB inline. Give a URI instead.`;
    else parts.push({ kind: 'file', mediaType: d.file.mediaType || 'application/octet-stream', name: d.file.name, bytes: d.file.bytes });
  } else if (d.fileMode === 'uri') {
    const uri = d.fileUri.trim();
    let ok: boolean;
    try {
      ok = /^(https?|ftp|s3|gs|data):$/i.test(new URL(uri).protocol);
    } catch {
      ok = false;
    }
    const type = d.fileUriType.trim() || 'application/octet-stream';
    if (!ok) errors.fileUri = 'Enter an absolute URI for the file, e.g. https://example.com/report.pdf.';
    else if (!MEDIA_TYPE.test(type)) errors.fileUri = `"${type.slice(0, 100)}" is not a media type (e.g. application/pdf).`;
    else parts.push({ kind: 'file', mediaType: type, name: uri.split(/[?#]/)[0]!.split('/').pop() || 'file', uri });
  }
  if (!parts.length && !errors.dataJson && !errors.file && !errors.fileUri) errors.text = 'Write a message, or add a data or file part.';

  let historyLength: number | undefined;
  if (d.historyLength.trim()) {
    const n = Number(d.historyLength);
    if (!Number.isInteger(n) || n < 0 || n > 10_000) errors.historyLength = 'History length is a whole number from 0 to 10000 (empty: not sent).';
    else historyLength = n;
  }
  let acceptedOutputModes: string[] | undefined;
  if (d.outputModes.trim()) {
    acceptedOutputModes = d.outputModes
      .split(',')
      .map((m) => m.trim())
      .filter(Boolean);
    const bad = acceptedOutputModes.find((m) => !MEDIA_TYPE.test(m) && m !== '*/*');
    if (bad) errors.outputModes = `"${bad.slice(0, 100)}" is not a media type; list them separated by commas, e.g. text/plain, application/json.`;
  }
  const metadata = jsonObject(d.metadataJson, 'Metadata');
  if (!metadata.ok) errors.metadataJson = metadata.error;

  let taskId: string | undefined;
  let contextId: string | undefined;
  if (d.target === 'continue') {
    taskId = d.taskId.trim() || undefined;
    contextId = d.contextId.trim() || undefined;
    if (!taskId && !contextId) errors.taskId = 'Give the task id (to answer it) or the context id (to continue the conversation), or choose "New task".';
    if (ctx.generation === 'legacy' && !taskId) errors.taskId = 'The legacy protocol continues a task by its id: give the task id.';
  }
  if (d.mode === 'streaming' && ctx.streaming === false)
    errors.mode = 'The card does not declare streaming (capabilities.streaming); send it anyway with a blocking call, or expect an error.';
  const extensions = extensionList(d.extensions ?? '');
  const notUri = extensions.find((u) => !URL.canParse(u));
  if (notUri) errors.extensions = `"${notUri.slice(0, 100)}" is not an absolute URI; extensions are named by URIs, e.g. https://example.com/ext/v1.`;
  else if (extensions.length && ctx.generation === 'legacy') errors.extensions = 'The legacy protocol has no extensions.';
  if (Object.keys(errors).length) return { ok: false, errors };
  return {
    ok: true,
    request: {
      stream: d.mode === 'streaming',
      text: text || describeParts(parts),
      parts,
      blocking: d.mode !== 'non-blocking',
      ...(d.skill && { skill: d.skill }),
      ...(historyLength !== undefined && { historyLength }),
      ...(acceptedOutputModes?.length && { acceptedOutputModes }),
      ...(metadata.ok && metadata.value && { metadata: metadata.value }),
      ...(taskId && { taskId }),
      ...(contextId && { contextId }),
      ...(extensions.length && { extensions }),
    },
  };
}

/** What a message without text says, in words (for the call log and exports). */
function describeParts(parts: readonly OutPart[]): string {
  return parts
    .map((p) =>
      p.kind === 'text'
        ? p.text
        : p.kind === 'data'
          ? 'a JSON data part'
          : 'uri' in p
            ? `a file by URI (${p.mediaType})`
            : `a file "${p.name}" (${p.mediaType})`,
    )
    .join(' + ');
}

/** Reads a File chosen by the user into an UploadedFile (base64). */
export async function readUpload(f: Blob & { name: string }): Promise<UploadedFile> {
  const buf = new Uint8Array(await f.arrayBuffer());
  let bin = '';
  const CHUNK = 0x8000;
  for (let i = 0; i < buf.length; i += CHUNK) bin += String.fromCharCode(...buf.subarray(i, i + CHUNK));
  return { name: f.name || 'upload', mediaType: f.type || 'application/octet-stream', bytes: btoa(bin), size: buf.length };
}
