import type { ComponentProps } from 'react';
import { cn } from '../../lib/utils';

export function Input({ className, type = 'text', ...props }: ComponentProps<'input'>) {
  return (
    <input
      type={type}
      className={cn(
        'block min-h-12 w-full rounded-xl border border-night-400 bg-white px-4 py-2.5 text-base text-night-950',
        'placeholder:text-night-500 disabled:cursor-not-allowed disabled:opacity-60',
        'aria-invalid:border-rose-600 aria-invalid:bg-rose-50/40',
        className,
      )}
      {...props}
    />
  );
}
