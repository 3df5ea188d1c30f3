/** The streaming checks, in run order: how the shared stream opens, how it ends, its events, leaving and rejoining. */
import type { CheckDef } from '../define';
import { streamingAfterFinal, streamingCloses, streamingTerminal } from './ending';
import { streamingArtifacts, streamingConsistency } from './events';
import { streamingContentType, streamingFirstEvent, streamingFraming } from './opening';
import { streamingDisconnect, streamingResubscribe } from './reconnect';

export const streamingChecks: CheckDef[] = [
  streamingContentType,
  streamingFraming,
  streamingFirstEvent,
  streamingTerminal,
  streamingAfterFinal,
  streamingCloses,
  streamingArtifacts,
  streamingConsistency,
  streamingDisconnect,
  streamingResubscribe,
];
