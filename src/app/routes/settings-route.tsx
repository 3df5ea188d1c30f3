import { SettingsPanel } from '../../features/settings';

export function SettingsRoute() {
  return <SettingsPanel />;
}
