export { TapPage, type TapPageProps } from './tap-page';
export { TapProvider } from './tap-context';
export { TapController, type TapDeps } from './tap-store';
export { browserTapApi, type TapApi } from './tap-api';
