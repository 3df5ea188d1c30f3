/**
 * Extension checks (v1.0.1 §3.3.4, §4.6): a message that does not activate a required extension is refused with
 * ExtensionSupportRequiredError; a message that activates the declared extensions, or names one the agent does not
 * know, is served (the unknown one ignored). Every other request of the suite activates the card's required
 * extensions (protocol/extensions.ts), so an agent that enforces them serves the suite.
 */
import type { Evidence } from '../../model/check';
import { JSONRPC_CODE } from '../../protocol/errors';
import { extensionHeaderName, splitExtensions } from '../../protocol/extensions';
import type { CheckContextWith } from '../context';
import { judge } from '../card/common';
import { defineCheck, ev, exchangeEvidence, fail, refusedForCredentials, skip, type Verdict } from '../define';
import { answered, crashVerdict, expectError, sendProbe, type Probe } from '../setups/probes';
import { primarySkill, skillInput } from '../setups/tasks';
import { isSuccess } from '../errors/shared';

/** A URI no agent supports (the .invalid TLD is reserved): named to see it ignored. */
const UNKNOWN_EXTENSION = 'https://a2a-interop.invalid/extensions/unknown/v1';

/** Sends one message (returning at once where the generation allows) with the extension header set or left out. */
function sendWith(ctx: CheckContextWith<'dialect'>, name: string, header: { value?: string; omit?: boolean }): Promise<Probe> {
  const d = ctx.dialect;
  const h = extensionHeaderName(d.generation) ?? 'A2A-Extensions';
  const input = skillInput(ctx, primarySkill(ctx));
  const params = d.sendParams({ text: input.text, parts: input.parts, returnImmediately: true });
  const headers = header.value !== undefined ? { [h]: header.value } : undefined;
  const omit = header.omit ? [h] : undefined;
  return sendProbe(ctx, name, () => ({ ...d.request('send', params), headers, omit, lane: ctx.checkId }));
}

const declaredUris = (ctx: CheckContextWith<'dialect'>) => [...new Set(ctx.card.capabilities.extensions.map((e) => e.uri).filter(Boolean))];
const requiredUris = (ctx: CheckContextWith<'dialect'>) => [...new Set(ctx.card.capabilities.extensions.filter((e) => e.required && e.uri).map((e) => e.uri))];

export const errorsExtensionRequired = defineCheck({
  id: 'errors.extension-required',
  title: `A message without a required extension is refused with ExtensionSupportRequired (${JSONRPC_CODE.ExtensionSupportRequired})`,
  category: 'error-handling',
  level: 'MUST',
  phase: 'suite',
  specRefs: { 'v1.0': `v1.0.1 §3.3.4 Capability Validation, §5.4 (${JSONRPC_CODE.ExtensionSupportRequired} / HTTP 400 / gRPC FAILED_PRECONDITION), §10.2` },
  recommendation: `When the card marks an extension required: true, refuse a message whose A2A-Extensions header (gRPC: a2a-extensions metadata) does not name it with ExtensionSupportRequiredError ${JSONRPC_CODE.ExtensionSupportRequired} (HTTP+JSON: 400; gRPC: FAILED_PRECONDITION; ErrorInfo reason EXTENSION_SUPPORT_REQUIRED), so clients learn what they must support. If the agent can serve clients without it, mark the extension required: false.`,
  requires: ['dialect'],
  run: async (ctx): Promise<Verdict> => {
    const required = requiredUris(ctx);
    if (!required.length) return skip('The card declares no required extension.', 'not-applicable');
    const p = await sendWith(ctx, 'extension-required', { omit: true });
    const refused = refusedForCredentials(ctx, p.http);
    if (refused) return refused;
    const what = `A message without ${extensionHeaderName(ctx.generation) ?? 'A2A-Extensions'} (the card requires ${required.join(', ')})`;
    if (isSuccess(ctx, p)) {
      return fail(`${what} was served: the agent did not enforce the extension its card marks required.`, [exchangeEvidence(p.http)]);
    }
    return expectError(ctx, p, what, 'ExtensionSupportRequired');
  },
});

export const interopExtensions = defineCheck({
  id: 'interop.extensions',
  title: 'Messages activating the declared extensions, or naming an unknown one, are served',
  category: 'interop',
  level: 'SHOULD',
  phase: 'suite',
  specRefs: { 'v1.0': 'v1.0.1 §4.6 Extensions (§4.6.3 Extension Versioning and Compatibility), §10.2 (gRPC: a2a-extensions metadata)' },
  recommendation:
    'Read A2A-Extensions on each request: activate the extensions you support, ignore URIs you do not know (v1.0.1 §4.6.3), and refuse only when a required extension is missing. Listing the activated extensions in an A2A-Extensions response header tells the client which ones applied (@a2a-js/sdk does).',
  requires: ['dialect'],
  run: async (ctx): Promise<Verdict> => {
    const declared = declaredUris(ctx);
    if (!declared.length) return skip('The card declares no extension.', 'not-applicable');
    const h = extensionHeaderName(ctx.generation) ?? 'A2A-Extensions';
    const required = requiredUris(ctx);
    const [all, unknown] = await Promise.all([
      sendWith(ctx, 'extensions-declared', { value: declared.join(',') }),
      sendWith(ctx, 'extensions-unknown', { value: [...required, UNKNOWN_EXTENSION].join(',') }),
    ]);
    for (const p of [all, unknown]) {
      const refused = refusedForCredentials(ctx, p.http);
      if (refused) return refused;
      const crash = crashVerdict(ctx, p, `A message with ${h}: ${p === all ? declared.join(',') : UNKNOWN_EXTENSION}`);
      if (crash) return crash;
    }
    const problems: string[] = [];
    const advisories: string[] = [];
    const evidence: Evidence[] = [exchangeEvidence(all.http, `${h}: ${declared.join(',')}`), exchangeEvidence(unknown.http, `${h}: ${UNKNOWN_EXTENSION}`)];
    if (!isSuccess(ctx, unknown)) {
      problems.push(
        `a message naming an extension the agent does not support (${UNKNOWN_EXTENSION}) was refused (${answered(unknown)}) instead of served without it`,
      );
    }
    if (!isSuccess(ctx, all)) advisories.push(`a message activating every declared extension was refused (${answered(all)})`);
    const echoed = splitExtensions(all.http.headers.get(h));
    const listed = isSuccess(ctx, all)
      ? echoed.length
        ? ` The answer listed the activated extensions: ${echoed.join(', ')}.`
        : ` The answer did not list activated extensions in a ${h} response header (not required by the specification text).`
      : '';
    if (echoed.includes(UNKNOWN_EXTENSION) || splitExtensions(unknown.http.headers.get(h)).includes(UNKNOWN_EXTENSION)) {
      advisories.push(`the answer lists ${UNKNOWN_EXTENSION} as activated, an extension the agent cannot support`);
    }
    evidence.push(
      ev('declared extensions', ctx.card.capabilities.extensions.map((e) => `${e.uri || '(no uri)'}${e.required ? ' (required)' : ''}`).join('\n')),
    );
    return judge({
      problems,
      advisories,
      evidence,
      ok: `Messages activating the ${declared.length} declared extension(s), and one naming an unknown extension, were served.${listed}`,
      bad: 'Extension activation',
      advisoryReason: 'No sentence of the specification requires serving a message that activates declared extensions; shown as advice.',
    });
  },
});
