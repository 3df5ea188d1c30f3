/**
 * The error-handling checks, in run order (the order is historical, so it interleaves the seams: malformed requests,
 * task errors, undeclared capabilities, A2A-Version, error shapes).
 */
import type { CheckDef } from '../define';
import { errorsPushNotSupported, errorsStreamingUnsupported, errorsSubscribeTerminal } from './capabilities';
import { errorsInvalidJson, errorsInvalidParams, errorsInvalidRequest, errorsNotification, errorsUnknownMethod } from './requests';
import { errorsGrpcStatus } from './grpc';
import { errorsDetails, errorsShape } from './shape';
import { errorsCancelTerminal, errorsCancelTwice, errorsContextMismatch, errorsMessageToTerminal, errorsTaskNotFound, errorsUnknownTaskMessage } from './tasks';
import { errorsVersionMissing, errorsVersionUnsupported } from './versions';
import { errorsExtensionRequired } from '../interop/extensions';

export const errorChecks: CheckDef[] = [
  errorsUnknownMethod,
  errorsInvalidJson,
  errorsInvalidRequest,
  errorsInvalidParams,
  errorsTaskNotFound,
  errorsCancelTerminal,
  errorsCancelTwice,
  errorsMessageToTerminal,
  errorsPushNotSupported,
  errorsVersionUnsupported,
  errorsVersionMissing,
  errorsExtensionRequired,
  errorsShape,
  errorsDetails,
  errorsUnknownTaskMessage,
  errorsContextMismatch,
  errorsStreamingUnsupported,
  errorsSubscribeTerminal,
  errorsNotification,
  errorsGrpcStatus,
];
