import { CommunityScreen } from '../../features/community/components/community-screen';

/** /community (guarded). */
export function Component() {
  return <CommunityScreen />;
}
