export { ConsolePage, type ConsolePageProps } from './console-page';
export { ConsoleProvider } from './console-context';
export { ConsoleController, type ConsoleDeps } from './console-store';
export { SessionsList } from './sessions-list';
