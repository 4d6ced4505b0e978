import { SleepDashboardScreen } from '../../features/sleep/components/sleep-dashboard-screen';

/** /sleep and /sleep/dashboard: the same screen. */
export function Component() {
  return <SleepDashboardScreen />;
}
