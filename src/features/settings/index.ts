export { SettingsPanel } from './settings-panel';
export { ThemeToggle } from './theme-toggle';
