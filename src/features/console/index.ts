export { ConsolePage } from './console-page';
export { ConsoleProvider } from './console-context';
export { ConsoleController } from './console-store';
