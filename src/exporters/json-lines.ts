/**
 * A JSON value printed the way `JSON.stringify(value, null, 2)` prints it, with the line (1-based) where each
 * property or array element starts: the "synthetic agent-card.json" that SARIF regions point into, so a code-scanning
 * alert about `capabilities.streaming` names a line instead of the whole card.
 */
export interface JsonLines {
  lines: string[];
  /** `skills[0].description` -> its line; `''` (the root) is line 1. */
  lineOf: Map<string, number>;
}

const key = (parent: string, k: string) => (/^[A-Za-z_$][\w$-]*$/.test(k) ? (parent ? `${parent}.${k}` : k) : `${parent}[${JSON.stringify(k)}]`);

export function jsonLines(value: unknown, maxLines = 20_000): JsonLines {
  const lines: string[] = [];
  const lineOf = new Map<string, number>([['', 1]]);
  const write = (v: unknown, path: string, indent: string, prefix: string, suffix: string, depth: number): void => {
    if (lines.length >= maxLines) return;
    if (v !== null && typeof v === 'object' && depth < 64) {
      const entries: [string, unknown, string][] = Array.isArray(v)
        ? v.map((x, i) => [`${path}[${i}]`, x === undefined || typeof x === 'function' ? null : x, ''])
        : Object.entries(v as Record<string, unknown>)
            .filter(([, x]) => x !== undefined && typeof x !== 'function')
            .map(([k, x]) => [key(path, k), x, `${JSON.stringify(k)}: `]);
      const [open, close] = Array.isArray(v) ? ['[', ']'] : ['{', '}'];
      if (!entries.length) {
        lines.push(`${indent}${prefix}${open}${close}${suffix}`);
        return;
      }
      lines.push(`${indent}${prefix}${open}`);
      entries.forEach(([p, x, pre], i) => {
        lineOf.set(p, lines.length + 1);
        write(x, p, `${indent}  `, pre, i < entries.length - 1 ? ',' : '', depth + 1);
      });
      lines.push(`${indent}${close}${suffix}`);
      return;
    }
    const text = typeof v === 'object' ? '"[nested too deep]"' : (JSON.stringify(v) ?? 'null');
    lines.push(`${indent}${prefix}${text}${suffix}`);
  };
  write(value, '', '', '', '', 0);
  return { lines, lineOf };
}

/**
 * The line of `path` (`capabilities.streaming`, `$.skills[0].name`, `/skills/0/name`, `skills.0.name`), or of its
 * nearest ancestor that exists; 1 when nothing matches.
 */
export function lineOfPath(doc: JsonLines, path: string | undefined): number {
  if (!path) return 1;
  let p = path.trim();
  if (p.startsWith('/'))
    p = p
      .slice(1)
      .split('/')
      .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
      .map((s) => (/^\d+$/.test(s) ? `[${s}]` : s))
      .join('.')
      .replace(/\.\[/g, '[');
  p = p.replace(/^\$\.?/, '').replace(/\.(\d+)(?=\.|\[|$)/g, '[$1]');
  while (p) {
    const line = doc.lineOf.get(p);
    if (line !== undefined) return line;
    const cut = Math.max(p.lastIndexOf('.'), p.lastIndexOf('['));
    p = cut > 0 ? p.slice(0, cut) : '';
  }
  return 1;
}
