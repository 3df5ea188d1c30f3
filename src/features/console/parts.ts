/**
 * How the console shows what an agent sent: the parts themselves are read from the wire by the engine
 * (src/engine/protocol/parts.ts: every generation's spellings, bounded and tolerant); this file decides how a part
 * is rendered (text stays text, raster images inline, JSON as a tree, anything else a download or a link).
 */
import { parseJson, type PartView } from '../../lib/engine';

export { answerContent, foldStreamArtifacts, frameContent, parseJson, type ArtifactView, type PartView } from '../../lib/engine';

// ------------------------------------------------------------------ media types

const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/jpg', 'image/gif', 'image/webp', 'image/avif', 'image/bmp']);
const BASE64 = /^[A-Za-z0-9+/_-]*={0,2}$/;

/** The base media type, lower case, without parameters. */
const baseType = (m: string | undefined) => (m ?? '').split(';')[0]!.trim().toLowerCase();

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

function isBase64(s: string): boolean {
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
