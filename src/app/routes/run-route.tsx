import { useRef } from 'react';
import { OpenReport } from '../../features/reports';
import { RunForm, type RunFormHandle } from '../../features/run';
import { RunViewer } from '../run-viewer';

export function RunRoute() {
  const form = useRef<RunFormHandle>(null);
  return (
    <>
      <RunForm ref={form}>
        <OpenReport />
      </RunForm>
      <RunViewer onEdit={() => form.current?.edit()} onRetry={() => form.current?.retry()} />
    </>
  );
}
