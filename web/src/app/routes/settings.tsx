import { SettingsScreen } from '../../features/settings/components/settings-screen';

/** /settings: guarded; reached from the navigation bar. */
export function Component() {
  return <SettingsScreen />;
}
