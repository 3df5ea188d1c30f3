/** The interop checks, in run order: browser readiness (CORS), the other declared interfaces, and two-agent checks. */
import type { CheckDef } from '../define';
import { interopBindings } from './bindings';
import { interopCorsCard, interopCorsRpc, interopCorsStream } from './cors';
import { interopExtensions } from './extensions';
import { interopPeerCard, interopPeerCommon, interopPeerConcurrent, interopPeerRelay } from './peer';

/** Browser readiness and the other declared interfaces (card.extended follows them in the catalogue, see ../index.ts). */
export const interopChecks: CheckDef[] = [interopCorsCard, interopCorsRpc, interopCorsStream, interopBindings, interopExtensions];

/** Two-agent checks (a peer agent given). */
export const peerChecks: CheckDef[] = [interopPeerCard, interopPeerCommon, interopPeerConcurrent, interopPeerRelay];
