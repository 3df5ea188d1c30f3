/**
 * The behaviours every demo and test agent offers, and the skill examples that trigger them.
 * Matching is by keyword so a conformance tool that sends a skill's first example gets that behaviour.
 */
export type Behaviour = 'quick' | 'slow' | 'input' | 'fail' | 'plain';

export interface SkillSpec {
  id: string;
  name: string;
  description: string;
  tags: string[];
  examples: string[];
  behaviour: Exclude<Behaviour, 'plain'>;
}

export const SKILLS: readonly SkillSpec[] = [
  {
    id: 'haiku',
    name: 'Streamed haiku',
    description: 'Writes a three-line haiku and streams it as an artifact, one line per chunk, then completes.',
    tags: ['quick', 'streaming', 'artifact'],
    examples: ['Write a haiku about interoperability'],
    behaviour: 'quick',
  },
  {
    id: 'slow-report',
    name: 'Slow report',
    description: 'Works for a while (configurable, about 1.5 s by default) before completing; can be canceled.',
    tags: ['slow', 'cancelable'],
    examples: ['Prepare the slow report'],
    behaviour: 'slow',
  },
  {
    id: 'book-table',
    name: 'Table booking',
    description: 'Asks which day you want (input-required), then completes when you answer in the same task.',
    tags: ['multi-turn', 'input-required'],
    examples: ['Book a table for two'],
    behaviour: 'input',
  },
  {
    id: 'always-fails',
    name: 'Failing job',
    description: 'Starts working and then ends in the failed state, with an explanation.',
    tags: ['failure'],
    examples: ['Run the job that fails'],
    behaviour: 'fail',
  },
];

/** Which behaviour a user's text asks for; anything unrecognised is a plain reply that completes at once. */
export function behaviourFor(text: string): Behaviour {
  const t = text.toLowerCase();
  if (/\bhaiku\b/.test(t)) return 'quick';
  if (/\bslow\b/.test(t)) return 'slow';
  if (/\bbook\b|\btable\b/.test(t)) return 'input';
  if (/\bfail/.test(t)) return 'fail';
  return 'plain';
}

export const HAIKU_LINES = ['Two agents exchange', 'cards across the quiet wire', 'tasks complete in spring'] as const;
export const INPUT_QUESTION = 'Which day would you like to book?';
export const FAIL_REASON = 'The job failed on purpose: this skill demonstrates the failed state.';

/** Default pacing, in ms. Quick tasks take 3 steps; input-required and failing tasks one step each. */
export const DEFAULT_STEP_MS = 50;
export const DEFAULT_SLOW_TASK_MS = 1500;

/**
 * The deliberate delay of each behaviour (time from request to the terminal or interrupted state),
 * the floor no client can beat. `input` counts both turns.
 */
export function behaviourDelays(stepMs: number, slowTaskMs: number): Record<Behaviour, number> {
  return { quick: 3 * stepMs, slow: slowTaskMs, input: 2 * stepMs, fail: stepMs, plain: 0 };
}
