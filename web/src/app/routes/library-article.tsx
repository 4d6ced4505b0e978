import { useParams } from 'react-router';
import { ArticleScreen } from '../../features/library/components/article-screen';

/** /library/article/{id} (guarded). A new id mounts a new screen. */
export function Component() {
  const { id = '' } = useParams();
  return <ArticleScreen key={id} articleId={id} />;
}
