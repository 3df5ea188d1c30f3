import { OpenReport } from '../../features/reports';
import { RunForm } from '../../features/run';
import { RunViewer } from '../run-viewer';

export function RunRoute() {
  return (
    <>
      <RunForm>
        <OpenReport />
      </RunForm>
      <RunViewer />
    </>
  );
}
