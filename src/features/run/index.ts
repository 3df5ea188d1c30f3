export { RunForm } from './run-form';
export type { RunFormHandle } from './run-form';
