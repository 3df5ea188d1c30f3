export { VerdictCard } from './verdict-card';
export { ResultsTable } from './results-table';
export { FailedTests } from './failed-tests';
export { NotAssessedMessage, useNotAssessedOutcome } from './not-assessed-message';
