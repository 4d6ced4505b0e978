import { WeeklyReportScreen } from '../../features/sleep/components/weekly-report-screen';

/** /sleep/weekly-report */
export function Component() {
  return <WeeklyReportScreen />;
}
