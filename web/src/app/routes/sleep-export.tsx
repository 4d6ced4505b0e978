import { SleepExportScreen } from '../../features/sleep/components/sleep-export-screen';

/** /sleep/export */
export function Component() {
  return <SleepExportScreen />;
}
