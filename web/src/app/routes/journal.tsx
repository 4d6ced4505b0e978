import { JournalScreen } from '../../features/journal/components/journal-screen';

/** /journal (guarded). */
export function Component() {
  return <JournalScreen />;
}
