import type { CheckResult, TargetInfo } from '../../lib/engine';

/** A declared extension as the card gives it (agent text: rendered as text only). */
export interface DeclaredExtension {
  uri: string;
  description?: string;
  required: boolean;
  params?: string;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** capabilities.extensions of a card as received (bounded: a hostile card may list thousands). */
function declaredExtensions(card: unknown): DeclaredExtension[] {
  const caps = isRecord(card) ? card.capabilities : undefined;
  const list = isRecord(caps) && Array.isArray(caps.extensions) ? caps.extensions : [];
  return list
    .filter(isRecord)
    .slice(0, 50)
    .map((e) => ({
      uri: typeof e.uri === 'string' ? e.uri.slice(0, 500) : '',
      description: typeof e.description === 'string' ? e.description.slice(0, 500) : undefined,
      required: e.required === true,
      params: isRecord(e.params) ? JSON.stringify(e.params).slice(0, 300) : undefined,
    }));
}

/** One line per signature from card.signatures.verified (its evidence is labelled `signatures[i] <status>`). */
function signatureLines(card: unknown, results: readonly CheckResult[]): { status: string; text: string }[] {
  const sigs = isRecord(card) && Array.isArray(card.signatures) ? card.signatures : [];
  if (!sigs.length) return [];
  const r = results.find((x) => x.id === 'card.signatures.verified');
  const lines = (r?.evidence ?? [])
    .filter((e) => /^signatures\[\d+\] (valid|invalid|unverifiable)$/.test(e.label))
    .map((e) => ({ status: e.label.split(' ')[1] ?? '', text: e.value }));
  if (lines.length) return lines;
  const why = r ? r.message : 'not verified yet';
  return [{ status: r?.status === 'skip' ? 'unverifiable' : 'pending', text: `${sigs.length} signature(s): ${why}` }];
}

/** Signature status and declared extensions of a card, under its summary. */
export function CardSignals({ target, results }: { target: TargetInfo; results: readonly CheckResult[] }) {
  const extensions = declaredExtensions(target.rawCard);
  const signatures = signatureLines(target.rawCard, target.role === 'agent' ? results : []);
  if (!extensions.length && !signatures.length) return null;
  return (
    <div className="card-signals">
      {signatures.length ? (
        <>
          <h4>Signatures</h4>
          <ul aria-label="Card signatures">
            {signatures.map((s, i) => (
              <li key={i} data-status={s.status}>
                <strong>{s.status}</strong> {s.text}
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {extensions.length ? (
        <>
          <h4>Declared extensions</h4>
          <ul aria-label="Declared extensions">
            {extensions.map((e, i) => (
              <li key={i}>
                <code>{e.uri || '(no uri)'}</code>
                {e.required ? ' (required)' : ' (optional)'}
                {e.description ? `: ${e.description}` : ''}
                {e.params ? (
                  <>
                    {' '}
                    params <code>{e.params}</code>
                  </>
                ) : null}
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </div>
  );
}
