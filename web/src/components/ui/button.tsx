import { LoaderCircle } from 'lucide-react';
import { Slot } from 'radix-ui';
import type { ComponentProps } from 'react';
import { cn } from '../../lib/utils';

const variants = {
  primary: 'bg-night-700 text-white shadow-sm hover:bg-night-800 active:bg-night-900',
  secondary: 'bg-sand-200 text-night-950 hover:bg-sand-300',
  outline: 'border border-night-300 bg-white text-night-800 hover:bg-night-50',
  ghost: 'text-night-800 hover:bg-night-100',
  link: 'h-auto min-h-0 px-0 py-0 text-night-700 underline underline-offset-4 hover:text-night-900',
  destructive: 'bg-rose-700 text-white hover:bg-rose-800',
} as const;

const sizes = {
  md: 'min-h-11 px-5 py-2.5 text-base',
  lg: 'min-h-12 px-6 py-3 text-lg',
  icon: 'size-11 p-0',
} as const;

export interface ButtonProps extends ComponentProps<'button'> {
  variant?: keyof typeof variants;
  size?: keyof typeof sizes;
  /**
   * Shows a spinner and refuses clicks (and a form's submission) while an action runs. The
   * button stays focusable (aria-disabled, not disabled): a disabled button loses the
   * focus, which fell to the page, and a keyboard or screen-reader user lost her place.
   */
  pending?: boolean;
  /** Renders the child element (a link, say) with the button's look. */
  asChild?: boolean;
}

export function Button({
  variant = 'primary',
  size = 'md',
  pending = false,
  asChild = false,
  disabled,
  className,
  children,
  type,
  onClick,
  ...props
}: ButtonProps) {
  const classes = cn(
    'inline-flex items-center justify-center gap-2 rounded-xl font-medium transition-colors',
    // in a high-contrast theme a filled button's fill is dropped: its edge shows it is one
    variant === 'link' ? '' : 'forced-colors:border forced-colors:border-[ButtonText]',
    'disabled:cursor-not-allowed disabled:opacity-60 aria-disabled:cursor-not-allowed aria-disabled:opacity-60',
    sizes[size],
    variants[variant],
    className,
  );
  if (asChild) {
    return (
      <Slot.Root className={classes} onClick={onClick} {...props}>
        {children}
      </Slot.Root>
    );
  }
  return (
    <button
      type={type ?? 'button'}
      className={classes}
      disabled={disabled}
      aria-disabled={(pending && !disabled) || undefined}
      aria-busy={pending || undefined}
      onClick={(event) => {
        // a submit button's click is the form's submission (Enter in a field included)
        if (pending) return event.preventDefault();
        onClick?.(event);
      }}
      {...props}
    >
      {pending ? <LoaderCircle aria-hidden="true" className="size-5 motion-safe:animate-spin" /> : null}
      {children}
    </button>
  );
}
