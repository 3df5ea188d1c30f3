/**
 * The front door of the engine: an agent URL resolved once (card, generation, binding, interfaces, credentials with
 * OAuth, required extensions, the dialect) for every door: a run, a console or MCP session, the card preview, the tap.
 */
export { acceptedOutputModes, inspectTarget, readDiscovery, type InspectedTarget, type InspectOptions } from './inspect';
export { credentialPlacement, registerSecrets } from './credentials';
export { dialectFor, resolveTarget, startOAuth, type ResolveOptions, type ResolvedTarget } from './resolve';
export { targetProblem, type TargetProblem } from './problem';
export type { Credentials, OAuthCredentials } from '../model/credentials';
