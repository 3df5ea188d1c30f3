/**
 * Cancel: the answer to a cancel, and whether the task really stopped (both read from the cancel fixture).
 */
import { JSONRPC_CODE } from '../../protocol/errors';
import { defineCheck } from '../define';
import { cancelFixture } from '../setups/cancel';
import { CANCEL } from './shared';

export const lifecycleCancel = defineCheck({
  id: 'lifecycle.cancel',
  title: 'Cancel answers with the task (in whatever state the attempt left it), or TaskNotCancelable / TaskNotFound',
  category: 'lifecycle',
  level: 'MUST',
  phase: 'suite',
  specRefs: CANCEL,
  recommendation: `On cancel, stop the work and return the Task in state canceled (or return TaskNotCancelable, ${JSONRPC_CODE.TaskNotCancelable}, when it cannot be stopped). In @a2a-js/sdk implement AgentExecutor.cancelTask and publish a canceled status; never answer with an internal error.`,
  requires: ['dialect'],
  run: async (ctx) => {
    const c = await cancelFixture(ctx);
    return c.verdict;
  },
});

export const lifecycleCancelEffective = defineCheck({
  id: 'lifecycle.cancel.effective',
  title: 'A running task can be canceled, and stays canceled (read back)',
  category: 'lifecycle',
  level: 'SHOULD',
  phase: 'suite',
  specRefs: CANCEL,
  recommendation:
    'Support cancellation of running work: check for cancellation between steps of the executor, and publish a final canceled status (seed procedure step 2.3).',
  requires: ['dialect'],
  run: async (ctx) => {
    const c = await cancelFixture(ctx);
    return c.effective;
  },
});
