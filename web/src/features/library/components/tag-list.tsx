import { cn } from '../../../lib/utils';

export function TagList({ tags, className }: { tags: string[]; className?: string }) {
  if (tags.length === 0) return null;
  return (
    <ul aria-label="Tags" className={cn('flex flex-wrap gap-1.5', className)}>
      {tags.map((tag) => (
        <li key={tag} className="rounded-full border border-night-100 bg-white px-2.5 py-0.5 text-sm text-night-600">
          #{tag}
        </li>
      ))}
    </ul>
  );
}
