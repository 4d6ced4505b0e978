import { LibraryScreen } from '../../features/library/components/library-screen';

/** /library (guarded). */
export function Component() {
  return <LibraryScreen />;
}
