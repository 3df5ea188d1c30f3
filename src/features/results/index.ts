export { LevelSummary } from './level-summary';
export { ResultsTable } from './results-table';
export { FailedTests } from './failed-tests';
