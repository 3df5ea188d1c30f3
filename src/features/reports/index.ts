export { OpenReport } from './open-report';
export { ExportButtons } from './export-buttons';
