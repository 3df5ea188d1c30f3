/**
 * The card checks, in run order: they judge the agent card alone and run before the suite (card.extended, which
 * calls the agent, is a suite check: see ./extended.ts and ../index.ts). One file per seam of the card.
 */
import type { CheckDef } from '../define';
import { cardContentType, cardDiscovery, cardJson, cardWellKnownPath } from './discovery';
import { cardCapabilitiesShape, cardModes, cardModesMediaTypes, cardRequiredFields, cardSkills } from './fields';
import { cardUrlsEndpoint, cardUrlsOauth, cardUrlsOther } from './urls';
import { cardSecurityReferences, cardSecuritySchemes } from './security';
import { cardProtocolCoherence, cardProtocolConventions } from './protocol';
import { cardCaching, cardPublic, cardVary } from './serving';
import { cardSignatures } from './signatures';
import { cardSignaturesVerified } from './signature-verify';
import { cardStrictLint } from './strict-lint';

export { endpointUrlProblem } from './urls';
export { strictLint } from './strict-lint';

export const cardChecks: CheckDef[] = [
  cardDiscovery,
  cardJson,
  cardContentType,
  cardWellKnownPath,
  cardRequiredFields,
  cardCapabilitiesShape,
  cardSkills,
  cardModes,
  cardModesMediaTypes,
  cardUrlsEndpoint,
  cardUrlsOther,
  cardUrlsOauth,
  cardSecuritySchemes,
  cardSecurityReferences,
  cardProtocolCoherence,
  cardProtocolConventions,
  cardPublic,
  cardCaching,
  cardVary,
  cardSignatures,
  cardSignaturesVerified,
  cardStrictLint,
];
