import { X } from 'lucide-react';
import { Toast as ToastPrimitive } from 'radix-ui';
import { cn } from '../../lib/utils';
import { useToast } from './toast-store';

export { toast, useToast } from './toast-store';

/** Renders the toasts of the store. Mount once, near the root. */
export function Toaster() {
  const { toasts, dismiss } = useToast();
  return (
    <ToastPrimitive.Provider swipeDirection="right" label="Notification">
      {toasts.map((t) => (
        <ToastPrimitive.Root
          key={t.id}
          open={t.open}
          duration={t.duration ?? (t.variant === 'destructive' ? Number.POSITIVE_INFINITY : 5000)}
          type={t.variant === 'destructive' ? 'foreground' : 'background'}
          onOpenChange={(open) => {
            if (!open) dismiss(t.id);
          }}
          // a tap on it closes it: on a phone it lies over the top of the page, and the tap
          // meant for what is under it (the Sign Up tab, a dialog's close button) only hit it
          onClick={() => dismiss(t.id)}
          className={cn(
            'pointer-events-auto relative flex w-full items-start gap-3 rounded-2xl border p-4 pr-12 shadow-lg',
            'data-[state=closed]:opacity-0 data-[swipe=move]:translate-x-(--radix-toast-swipe-move-x) motion-safe:transition-opacity',
            t.variant === 'destructive' ? 'border-rose-200 bg-rose-50 text-rose-900' : 'border-night-200 bg-white text-night-950',
          )}
        >
          <div className="grid gap-1">
            <ToastPrimitive.Title className="text-base font-semibold">{t.title}</ToastPrimitive.Title>
            {t.description ? (
              <ToastPrimitive.Description className="text-base leading-snug opacity-90">{t.description}</ToastPrimitive.Description>
            ) : null}
          </div>
          <ToastPrimitive.Close
            aria-label="Close notification"
            // 44 px to touch (it was 28), its icon where it was
            className="absolute top-1 right-1 grid size-11 place-items-center rounded-full opacity-70 hover:opacity-100"
          >
            <X aria-hidden="true" className="size-4" />
          </ToastPrimitive.Close>
        </ToastPrimitive.Root>
      ))}
      {/*
        At the top, under the header (at the right on a wide screen): an error stays until
        she closes it, and at the bottom it covered the button to try again with (Sign In,
        Save, Send) meanwhile.
      */}
      <ToastPrimitive.Viewport className="fixed inset-x-0 top-16 z-[100] m-0 flex max-h-screen list-none flex-col gap-2 p-4 outline-none sm:inset-x-auto sm:right-0 sm:w-[24rem]" />
    </ToastPrimitive.Provider>
  );
}
