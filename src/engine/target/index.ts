/**
 * The front door of the engine: an agent URL resolved once (card, generation, binding, interfaces, credentials with
 * OAuth, required extensions, the dialect) for every door: a run, a console or MCP session, the card preview, the tap.
 */
export { acceptedOutputModes, inspectTarget, readDiscovery, type InspectedTarget } from './inspect';
export { registerSecrets } from './credentials';
export { resolveTarget, type ResolvedTarget } from './resolve';
export { targetProblem } from './problem';
