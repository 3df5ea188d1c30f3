/**
 * The conversation tap (issue 26): a recording, judging relay between an A2A client and an agent. `createTap` is
 * Web-standard; the CLI (`a2a-interop tap`) and the local server (`/api/taps`, `/tap/<id>/…`) mount it.
 */
export { createTap } from './tap';
export { DEFAULT_TAP_LIMITS } from './record';
export type * from './types';
