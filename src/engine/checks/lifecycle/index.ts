/** The lifecycle checks, in run order: the test tasks, cancel, conversation, ListTasks, push configs and delivery, blocking. */
import type { CheckDef } from '../define';
import { lifecycleBlocking } from './blocking';
import { lifecycleCancel, lifecycleCancelEffective } from './cancel';
import { lifecycleContext, lifecycleHistory, lifecycleHistoryLength, lifecycleMultiTurn } from './conversation';
import { lifecycleList } from './list';
import { lifecyclePushConfig } from './push-config';
import { lifecyclePushAfterDelete, lifecyclePushAuth, lifecyclePushDelivery, lifecyclePushOrder } from './push-delivery';
import { lifecycleGet, lifecycleSend, lifecycleShape, lifecycleTaskIdStable, lifecycleTerminal, lifecycleTransitions } from './tasks';

export const lifecycleChecks: CheckDef[] = [
  lifecycleSend,
  lifecycleGet,
  lifecycleTerminal,
  lifecycleTransitions,
  lifecycleTaskIdStable,
  lifecycleShape,
  lifecycleCancel,
  lifecycleCancelEffective,
  lifecycleMultiTurn,
  lifecycleHistory,
  lifecycleHistoryLength,
  lifecycleContext,
  lifecycleList,
  lifecyclePushConfig,
  lifecyclePushDelivery,
  lifecyclePushAuth,
  lifecyclePushOrder,
  lifecyclePushAfterDelete,
  lifecycleBlocking,
];
