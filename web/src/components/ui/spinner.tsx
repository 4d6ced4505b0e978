import { LoaderCircle } from 'lucide-react';
import { cn } from '../../lib/utils';

export function Spinner({ className, label = 'Loading' }: { className?: string; label?: string }) {
  return (
    <span role="status" className="inline-flex items-center">
      <LoaderCircle aria-hidden="true" className={cn('size-6 motion-safe:animate-spin', className)} />
      <span className="sr-only">{label}</span>
    </span>
  );
}

/** A centred spinner for whole screens (session check, lazy route loading). */
export function FullPageSpinner({ label = 'Loading' }: { label?: string }) {
  return (
    <div className="flex min-h-[60vh] items-center justify-center text-night-600">
      <Spinner className="size-10" label={label} />
    </div>
  );
}
