import { useParams } from 'react-router';
import { ThreadScreen } from '../../features/community/components/thread-screen';

/** /community/thread/{id} (guarded). A new id mounts a new screen (its own socket). */
export function Component() {
  const { id = '' } = useParams();
  return <ThreadScreen key={id} threadId={id} />;
}
