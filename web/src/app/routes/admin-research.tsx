import { ResearchScreen } from '../../features/research/components/research-screen';

/** /admin/research: guarded; for admins (the screen tells anyone else it is not for them). */
export function Component() {
  return <ResearchScreen />;
}
