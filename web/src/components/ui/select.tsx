import { Check, ChevronDown } from 'lucide-react';
import { Select as SelectPrimitive } from 'radix-ui';
import type { ComponentProps, Ref } from 'react';
import { cn } from '../../lib/utils';

export interface SelectOption {
  value: string;
  label: string;
}

export interface SelectProps {
  /** Id of the trigger, for `<Label htmlFor>`. */
  id: string;
  /** The trigger (a form library focuses it when the field is in error). */
  ref?: Ref<HTMLButtonElement>;
  name?: string;
  value: string;
  onValueChange: (value: string) => void;
  options: readonly SelectOption[];
  placeholder?: string;
  disabled?: boolean;
  required?: boolean;
  'aria-describedby'?: string;
  'aria-invalid'?: boolean;
  className?: string;
}

/** A single-choice list (radix Select) with its options; the trigger is labelled via `id`. */
export function Select({ id, ref, name, value, onValueChange, options, placeholder, disabled, required, className, ...aria }: SelectProps) {
  return (
    <SelectPrimitive.Root name={name} value={value} onValueChange={onValueChange} disabled={disabled} required={required}>
      <SelectPrimitive.Trigger
        id={id}
        ref={ref}
        className={cn(
          'flex min-h-12 w-full items-center justify-between gap-2 rounded-xl border border-night-400 bg-white px-4 py-2.5 text-left text-base text-night-950',
          'data-placeholder:text-night-600 disabled:cursor-not-allowed disabled:opacity-60 aria-invalid:border-rose-600',
          className,
        )}
        {...aria}
      >
        {/* may be narrower than its longest word (Radix's Value takes no class) */}
        <span className="min-w-0">
          <SelectPrimitive.Value placeholder={placeholder} />
        </span>
        <SelectPrimitive.Icon className="shrink-0">
          <ChevronDown aria-hidden="true" className="size-5 text-night-500" />
        </SelectPrimitive.Icon>
      </SelectPrimitive.Trigger>
      <SelectPrimitive.Portal>
        <SelectContent>
          {options.map((option) => (
            <SelectItem key={option.value} value={option.value}>
              {option.label}
            </SelectItem>
          ))}
        </SelectContent>
      </SelectPrimitive.Portal>
    </SelectPrimitive.Root>
  );
}

function SelectContent({ className, children, ...props }: ComponentProps<typeof SelectPrimitive.Content>) {
  return (
    <SelectPrimitive.Content
      position="popper"
      sideOffset={6}
      className={cn(
        'z-50 max-h-(--radix-select-content-available-height) w-(--radix-select-trigger-width) overflow-hidden rounded-xl border border-night-100 bg-white text-night-950 shadow-xl',
        className,
      )}
      {...props}
    >
      <SelectPrimitive.Viewport className="p-1.5">{children}</SelectPrimitive.Viewport>
    </SelectPrimitive.Content>
  );
}

function SelectItem({ className, children, ...props }: ComponentProps<typeof SelectPrimitive.Item>) {
  return (
    <SelectPrimitive.Item
      className={cn(
        'relative flex min-h-11 cursor-default items-center rounded-lg py-2 pr-3 pl-9 text-base outline-none select-none',
        'data-highlighted:bg-night-700 data-highlighted:text-white data-[state=checked]:font-semibold',
        className,
      )}
      {...props}
    >
      <SelectPrimitive.ItemIndicator className="absolute left-3 inline-flex items-center">
        <Check aria-hidden="true" className="size-4" />
      </SelectPrimitive.ItemIndicator>
      <SelectPrimitive.ItemText>{children}</SelectPrimitive.ItemText>
    </SelectPrimitive.Item>
  );
}
