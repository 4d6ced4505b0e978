import type { LibraryCategory } from '@sleepweave/contracts';
import { cn } from '../../../lib/utils';

const tones: Record<LibraryCategory, string> = {
  'Fabric info': 'bg-sand-100 text-sand-700 ring-sand-300/60',
  'Sleep tips': 'bg-lavender-100 text-night-700 ring-lavender-300/60',
  'Research Studies': 'bg-night-100 text-night-800 ring-night-200',
};

export function CategoryBadge({ category, className }: { category: LibraryCategory; className?: string }) {
  return (
    <span
      className={cn('inline-flex items-center rounded-full px-3 py-0.5 text-sm font-medium ring-1 ring-inset', tones[category], className)}
    >
      {category}
    </span>
  );
}
