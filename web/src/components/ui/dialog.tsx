import { X } from 'lucide-react';
import { Dialog as DialogPrimitive } from 'radix-ui';
import type { ComponentProps, ReactNode } from 'react';
import { cn } from '../../lib/utils';
import { dismiss } from './toast-store';

export const Dialog = DialogPrimitive.Root;
export const DialogTrigger = DialogPrimitive.Trigger;
export const DialogClose = DialogPrimitive.Close;

/**
 * A modal dialog. The page's toasts close as it opens: drawn above it, they covered its
 * title and its Close button (an "Agreement Required" left open, then Learn More), and while
 * it is open they are out of the keyboard's and screen readers' reach.
 */
export function DialogContent({
  className,
  children,
  onOpenAutoFocus,
  ...props
}: ComponentProps<typeof DialogPrimitive.Content> & { children: ReactNode }) {
  return (
    <DialogPrimitive.Portal>
      <DialogPrimitive.Overlay className="fixed inset-0 z-50 bg-night-950/50 backdrop-blur-[2px]" />
      <DialogPrimitive.Content
        className={cn(
          'fixed top-1/2 left-1/2 z-50 grid max-h-[calc(100dvh-2rem)] w-[calc(100%-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 gap-4 overflow-y-auto',
          'rounded-3xl border border-night-100 bg-white p-6 text-night-950 shadow-2xl sm:p-8',
          className,
        )}
        onOpenAutoFocus={(event) => {
          dismiss();
          onOpenAutoFocus?.(event);
        }}
        {...props}
      >
        {children}
        <DialogPrimitive.Close
          aria-label="Close"
          // 44 px to touch (it was 36), its icon where it was
          className="absolute top-2.5 right-2.5 grid size-11 place-items-center rounded-full text-night-600 hover:bg-night-50 hover:text-night-950"
        >
          <X aria-hidden="true" className="size-5" />
        </DialogPrimitive.Close>
      </DialogPrimitive.Content>
    </DialogPrimitive.Portal>
  );
}

export function DialogTitle({ className, ...props }: ComponentProps<typeof DialogPrimitive.Title>) {
  return <DialogPrimitive.Title className={cn('pr-8 text-2xl font-semibold', className)} {...props} />;
}

export function DialogDescription({ className, ...props }: ComponentProps<typeof DialogPrimitive.Description>) {
  return <DialogPrimitive.Description className={cn('text-base text-night-700', className)} {...props} />;
}

/**
 * A dialog's buttons, Cancel first: side by side from `sm` up (the main action on the right),
 * stacked on a phone in the same order, so that Tab goes through them as they are seen
 * (stacked in reverse, the main action on top, Tab went down to Cancel and back up to it).
 */
export function DialogActions({ className, ...props }: ComponentProps<'div'>) {
  return <div className={cn('flex flex-col gap-3 sm:flex-row sm:justify-end', className)} {...props} />;
}
