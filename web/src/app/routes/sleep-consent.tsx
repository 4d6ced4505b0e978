import { ConsentScreen } from '../../features/sleep/components/consent-screen';

/** /sleep/consent */
export function Component() {
  return <ConsentScreen />;
}
