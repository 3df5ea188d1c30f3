export { RunForm } from './run-form';
