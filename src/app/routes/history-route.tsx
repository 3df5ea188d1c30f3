import { HistoryPage } from '../../features/history';
import { OpenReport } from '../../features/reports';

export function HistoryRoute() {
  return (
    <>
      <HistoryPage />
      <OpenReport />
    </>
  );
}
