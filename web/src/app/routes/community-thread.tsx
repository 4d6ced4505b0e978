import { Navigate, useLocation, useParams } from 'react-router';
import { paths } from '../../config/paths';
import { ThreadScreen } from '../../features/community/components/thread-screen';

/**
 * /community/thread/{id} (guarded). A new id mounts a new screen (its own socket). Ids are
 * lower case everywhere (the API answers in lower case, live frames name threads so): an id
 * typed or linked in capitals goes to its lower-case address, else the screen would never
 * recognise its own thread's frames.
 */
export function Component() {
  const { id = '' } = useParams();
  const location = useLocation();
  const canonical = id.toLowerCase();
  if (id !== canonical) return <Navigate to={`${paths.community.thread(canonical)}${location.search}`} replace state={location.state} />;
  return <ThreadScreen key={id} threadId={id} />;
}
