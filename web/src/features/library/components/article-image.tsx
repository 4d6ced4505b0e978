import { LIBRARY_IMAGE_PATH } from '@sleepweave/contracts';
import { BookOpen } from 'lucide-react';
import { useState } from 'react';
import { cn } from '../../../lib/utils';

/**
 * An article's illustration (served by the app itself). Decorative: the title next to it
 * says what the article is. If it cannot be loaded, a calm placeholder takes its place, as
 * it does for a path that is not one of the library's images (an article saved before the
 * library refused them: the browser would fetch any other path with her session).
 */
export function ArticleImage({ src, className, eager = false }: { src: string; className?: string; eager?: boolean }) {
  const [failed, setFailed] = useState(false);
  if (failed || !LIBRARY_IMAGE_PATH.test(src)) {
    return (
      <div
        aria-hidden="true"
        className={cn('grid place-items-center bg-gradient-to-br from-lavender-100 to-sand-100 text-night-400', className)}
      >
        <BookOpen className="size-10" />
      </div>
    );
  }
  return (
    <img
      src={src}
      alt=""
      loading={eager ? 'eager' : 'lazy'}
      decoding="async"
      onError={() => setFailed(true)}
      className={cn('bg-lavender-50 object-cover', className)}
    />
  );
}
