import { HomeScreen } from '../../features/home/components/home-screen';

/** / and /dashboard: the same home screen. */
export function Component() {
  return <HomeScreen />;
}
