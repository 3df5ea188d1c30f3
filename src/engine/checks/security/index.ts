/** The security review (category `security`, informational: never part of the conformance level; see report/level.ts). */
import { securityCardChecks } from './card';
import { securityNetworkChecks } from './network';

export const securityChecks = [...securityCardChecks, ...securityNetworkChecks];
