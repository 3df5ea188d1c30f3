export { TapPage } from './tap-page';
export { TapProvider } from './tap-context';
export { TapController } from './tap-store';
export { browserTapApi } from './tap-api';
