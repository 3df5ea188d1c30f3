/**
 * The distinct interfaces a card declares (a v0.3 card repeats its main url in additionalInterfaces: one interface,
 * not two), and their list with each kind once, so the count said and the list agree: 3 interfaces,
 * `JSONRPC 1.0 (2 URLs), HTTP+JSON 1.0`.
 */
export function declaredInterfaces(interfaces: readonly { url: string; binding: string; protocolVersion?: string }[]): { count: number; list: string } {
  const seen = new Set<string>();
  const kinds = new Map<string, number>();
  for (const i of interfaces) {
    const k = `${i.binding}${i.protocolVersion ? ` ${i.protocolVersion}` : ''}`;
    if (seen.has(`${k} ${i.url}`)) continue;
    seen.add(`${k} ${i.url}`);
    kinds.set(k, (kinds.get(k) ?? 0) + 1);
  }
  return { count: seen.size, list: [...kinds].map(([k, n]) => (n > 1 ? `${k} (${n} URLs)` : k)).join(', ') };
}
