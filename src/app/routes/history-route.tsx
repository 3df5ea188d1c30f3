import { ConsoleProvider } from '../../features/console/console-context';
import { SessionsList } from '../../features/console/sessions-list';
import { HistoryPage } from '../../features/history';
import { consoleArchive } from '../../lib/console-db';
import { OpenReport } from '../../features/reports';

export function HistoryRoute() {
  return (
    <>
      <HistoryPage />
      <OpenReport />
      <ConsoleProvider archive={consoleArchive()}>
        <SessionsList compact />
      </ConsoleProvider>
    </>
  );
}
