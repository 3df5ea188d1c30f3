/**
 * Test input for a skill, built from the media types the skill accepts (its `inputModes`, else the card's
 * `defaultInputModes`, else text). An agent that declares image-only input gets an image, not our text; when no
 * declared type can be produced, the text is sent and a ContentTypeNotSupported refusal is the right answer.
 */

/** One part of a test message, generation-neutral (the dialect renders it per generation and binding). */
export type InputPart =
  | { kind: 'text'; text: string }
  | { kind: 'data'; data: Record<string, unknown> }
  | { kind: 'file'; mediaType: string; name: string; bytes: string }
  /** A file by reference (the console's "file by URI"). */
  | { kind: 'file'; mediaType: string; name: string; uri: string };

export interface MessageInput {
  /** What the message says in words (the text part, or a description of the file/data sent): for evidence. */
  text: string;
  parts: InputPart[];
  /** The media type chosen, from the accepted ones. */
  mediaType: string;
  /**
   * Set when none of the accepted media types can be produced by this tool: text is sent anyway, and a refusal
   * (ContentTypeNotSupported) is correct.
   */
  unsupported?: string;
  /** The output media types to accept with it: the skill's outputModes and the card's defaults (set by checks/tasks.ts). */
  acceptedOutputModes?: string[];
}

/** Tiny valid samples of common binary types (base64). */
const SAMPLES: Record<string, { name: string; bytes: string }> = {
  'image/png': { name: 'a2a-interop-1x1.png', bytes: 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=' },
  'image/gif': { name: 'a2a-interop-1x1.gif', bytes: 'R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7' },
  'image/jpeg': {
    name: 'a2a-interop-1x1.jpg',
    bytes:
      '/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAP//////////////////////////////////////////////////////////////////////////////////////wgALCAABAAEBAREA/8QAFBABAAAAAAAAAAAAAAAAAAAAAP/aAAgBAQABPxA=',
  },
  'audio/wav': { name: 'a2a-interop-silence.wav', bytes: 'UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAIA+AAACABAAZGF0YQAAAAA=' },
  'application/pdf': {
    name: 'a2a-interop-blank.pdf',
    bytes:
      'JVBERi0xLjQKMSAwIG9iajw8L1R5cGUvQ2F0YWxvZy9QYWdlcyAyIDAgUj4+ZW5kb2JqCjIgMCBvYmo8PC9UeXBlL1BhZ2VzL0tpZHNbMyAwIFJdL0NvdW50IDE+PmVuZG9iagozIDAgb2JqPDwvVHlwZS9QYWdlL1BhcmVudCAyIDAgUi9NZWRpYUJveFswIDAgMyAzXT4+ZW5kb2JqCnRyYWlsZXI8PC9Sb290IDEgMCBSPj4KJSVFT0YK',
  },
  'application/octet-stream': { name: 'a2a-interop.bin', bytes: 'YTJhLWludGVyb3A=' },
};
const ALIASES: Record<string, string> = { 'image/jpg': 'image/jpeg', 'audio/x-wav': 'audio/wav', 'audio/wave': 'audio/wav' };

const base = (m: string) => m.split(';')[0]!.trim().toLowerCase();
const isText = (m: string) => m === 'text' || m === '*/*' || m === '*' || m.startsWith('text/');
const isJson = (m: string) => m === 'json' || m === 'data' || m === 'application/json' || m.endsWith('+json') || m === 'application/*';

/** The accepted input media types of a skill: its own, else the card's defaults, else text (legacy default). */
export function acceptedInputModes(skillModes: readonly string[] | undefined, defaultModes: readonly string[]): string[] {
  const own = (skillModes ?? []).filter((m) => typeof m === 'string' && m.trim());
  if (own.length) return [...own];
  const dflt = defaultModes.filter((m) => typeof m === 'string' && m.trim());
  return dflt.length ? [...dflt] : ['text/plain'];
}

/** Builds the input for `text` (a skill example or a neutral sentence) in the first accepted type we can produce. */
export function buildInput(text: string, modes: readonly string[]): MessageInput {
  const norm = modes.map(base);
  if (!norm.length || norm.some(isText)) return { text, parts: [{ kind: 'text', text }], mediaType: norm.find(isText) ?? 'text/plain' };
  const json = norm.find(isJson);
  if (json)
    return {
      text: `JSON data: {"message": ${JSON.stringify(text)}}`,
      parts: [{ kind: 'data', data: { message: text } }],
      mediaType: json === 'json' || json === 'data' ? 'application/json' : json,
    };
  for (const m of norm) {
    const wanted = ALIASES[m] ?? m;
    const exact = SAMPLES[wanted];
    const wildcard = wanted.endsWith('/*') ? Object.keys(SAMPLES).find((k) => k.startsWith(wanted.slice(0, -1))) : undefined;
    const type = exact ? wanted : wildcard;
    if (type) {
      const s = SAMPLES[type]!;
      // A wildcard (image/*) is answered with a concrete type; an alias keeps the spelling the agent declared.
      const mediaType = exact ? m : type;
      return { text: `a ${mediaType} file (${s.name})`, parts: [{ kind: 'file', mediaType, name: s.name, bytes: s.bytes }], mediaType };
    }
  }
  return {
    text,
    parts: [{ kind: 'text', text }],
    mediaType: 'text/plain',
    unsupported: `The skill accepts only ${modes.slice(0, 5).join(', ')}, which this tool cannot produce; text was sent, and refusing it is correct.`,
  };
}
