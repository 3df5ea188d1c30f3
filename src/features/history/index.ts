export { HistoryPage } from './history-page';
