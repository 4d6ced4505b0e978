import { CircleAlert, CircleCheck, type LucideIcon } from 'lucide-react';

export interface FormMessageValue {
  kind: 'error' | 'success';
  text: string;
}

/**
 * The message under a form (an error, or a confirmation such as 'Account created
 * successfully! Redirecting...'), inside a polite live region so it is read out when it
 * appears. Errors are alerts.
 */
export function FormMessage({
  message,
  successIcon: SuccessIcon = CircleCheck,
}: {
  message: FormMessageValue | null;
  successIcon?: LucideIcon;
}) {
  return (
    <div aria-live="polite" className="empty:-mb-5">
      {message ? (
        <p
          role={message.kind === 'error' ? 'alert' : 'status'}
          className={
            message.kind === 'error'
              ? 'flex items-start gap-2 rounded-xl border border-rose-200 bg-rose-50 p-4 text-base text-rose-800'
              : 'flex items-start gap-2 rounded-xl border border-emerald-200 bg-emerald-50 p-4 text-base text-emerald-900'
          }
        >
          {message.kind === 'error' ? (
            <CircleAlert aria-hidden="true" className="mt-0.5 size-5 shrink-0" />
          ) : (
            <SuccessIcon aria-hidden="true" className="mt-0.5 size-5 shrink-0" />
          )}
          {message.text}
        </p>
      ) : null}
    </div>
  );
}
