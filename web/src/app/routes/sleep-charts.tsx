import { SleepChartsScreen } from '../../features/sleep/components/sleep-charts-screen';

/** /sleep/charts */
export function Component() {
  return <SleepChartsScreen />;
}
