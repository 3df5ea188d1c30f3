export { Timeline } from './timeline';
export { WireInspector } from './wire-inspector';
