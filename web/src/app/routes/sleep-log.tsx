import { SleepLogScreen } from '../../features/sleep/components/sleep-log-screen';

/** /sleep/log?edit={id}&date={date} */
export function Component() {
  return <SleepLogScreen />;
}
