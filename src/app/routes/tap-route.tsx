import { browserTapApi, TapController, TapPage, TapProvider } from '../../features/tap';
import { Timeline, WireInspector } from '../../features/timeline';
import { createRunStore, RunStoreProvider } from '../../lib/run-store';

// One tap page per page load, loaded with this route: an open tap and its conversation survive leaving the page.
const timelineStore = createRunStore();
const controller = new TapController({ api: browserTapApi, timeline: timelineStore });
const orchestrator = () => browserTapApi.orchestrator();
const openTaps = () => browserTapApi.list();

/** The Tap page (loaded lazily, app.tsx): the run views' timeline and wire inspector show the tap's exchanges. */
export function TapRoute() {
  return (
    <TapProvider controller={controller}>
      <RunStoreProvider value={timelineStore}>
        <TapPage timeline={<Timeline />} inspector={<WireInspector />} orchestrator={orchestrator} openTaps={openTaps} />
      </RunStoreProvider>
    </TapProvider>
  );
}
