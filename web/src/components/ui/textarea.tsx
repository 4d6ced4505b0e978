import type { ComponentProps } from 'react';
import { cn } from '../../lib/utils';

/**
 * A multi-line text field, styled like Input. Its direction follows what she writes
 * (`dir="auto"`): Hebrew or Arabic is set right to left.
 */
export function Textarea({ className, rows = 4, ...props }: ComponentProps<'textarea'>) {
  return (
    <textarea
      rows={rows}
      dir="auto"
      className={cn(
        'block w-full resize-y rounded-xl border border-night-400 bg-white px-4 py-3 text-base leading-relaxed text-night-950',
        'placeholder:text-night-500 disabled:cursor-not-allowed disabled:opacity-60',
        'aria-invalid:border-rose-600 aria-invalid:bg-rose-50/40',
        className,
      )}
      {...props}
    />
  );
}
