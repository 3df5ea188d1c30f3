import type { CheckResult } from '../../lib/engine';

/** A JSON pointer (`/skills/0/name`) or dotted path (`skills[0].name`, `$.skills.0.name`) as segments. */
export function pathSegments(path: string): string[] {
  let p = path.trim().replace(/^\$|^#/, '');
  if (p.startsWith('/')) {
    return p
      .split('/')
      .slice(1)
      .filter((s) => s !== '')
      .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  }
  p = p.replace(/\[(\d+|"[^"]*"|'[^']*')\]/g, (_, k: string) => `.${k.replace(/^["']|["']$/g, '')}`);
  return p.split('.').filter((s) => s !== '');
}

export const pathKey = (segs: readonly string[]) => `/${segs.join('/')}`;

export interface FieldVerdict {
  checkId: string;
  title: string;
  status: CheckResult['status'];
  message: string;
}

/** Card-check verdicts keyed by the field they concern (`/` for the card as a whole). */
export function verdictsByPath(results: readonly CheckResult[], role: 'agent' | 'peer' = 'agent'): Map<string, FieldVerdict[]> {
  const out = new Map<string, FieldVerdict[]>();
  for (const r of results) {
    if (r.category !== 'agent-card' || role === 'peer') continue;
    const paths = new Set(r.evidence.map((e) => e.path).filter((p): p is string => typeof p === 'string'));
    if (!paths.size) paths.add('/');
    for (const p of paths) {
      const key = pathKey(pathSegments(p));
      const list = out.get(key) ?? [];
      list.push({ checkId: r.id, title: r.test, status: r.status, message: r.message });
      out.set(key, list);
    }
  }
  return out;
}

/**
 * `value` with its object keys in the order of `reference` (the card as parsed from the bytes received),
 * recursively; keys the reference lacks keep their place after the others. The engine stores a bounded
 * copy of the card whose key order is not the card's own; the exchange body still has it.
 */
export function orderLike(value: unknown, reference: unknown, depth = 0): unknown {
  if (depth > 32 || value === null || typeof value !== 'object' || reference === null || typeof reference !== 'object') return value;
  if (Array.isArray(value)) {
    const ref = Array.isArray(reference) ? reference : [];
    return value.map((v, i) => orderLike(v, ref[i], depth + 1));
  }
  if (Array.isArray(reference)) return value;
  const src = value as Record<string, unknown>;
  const ref = reference as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(ref)) if (Object.prototype.hasOwnProperty.call(src, k)) out[k] = orderLike(src[k], ref[k], depth + 1);
  for (const k of Object.keys(src)) if (!Object.prototype.hasOwnProperty.call(out, k)) out[k] = src[k];
  return out;
}
