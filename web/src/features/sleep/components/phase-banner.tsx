import { CURRENT_PROTOCOL, type StudyStatus } from '@sleepweave/contracts';
import { Check, PartyPopper, Sparkles } from 'lucide-react';
import { cn } from '../../../lib/utils';

/** docs/product.md §2: three steps (Polyester, Washout, Linen), the current one highlighted. */
export function PhaseBanner({ status }: { status: StudyStatus }) {
  const phases = CURRENT_PROTOCOL.phases;
  const currentIndex = status.completed ? phases.length : phases.findIndex((p) => p.id === status.phase);
  return (
    <section
      aria-label="Study phase"
      className="surface-night rounded-3xl bg-night-900 bg-linear-to-br from-night-900 to-night-800 p-5 text-lavender-100 sm:p-6"
    >
      <p className="text-sm font-medium tracking-wide text-lavender-200 uppercase">
        {status.completed ? 'Your study' : `Night ${status.started ? status.day : 1} of 42`}
      </p>
      <p className="mt-1 text-2xl font-semibold text-white">{status.banner}</p>
      <ol className="mt-4 grid grid-cols-3 gap-2">
        {phases.map((phase, index) => {
          const done = index < currentIndex;
          const current = index === currentIndex;
          return (
            <li
              key={phase.id}
              aria-current={current ? 'step' : undefined}
              className={cn(
                // (on a 320 px screen, or with wider letter spacing, the check goes above the
                // name, and the name breaks with a hyphen only if it cannot fit on its own line)
                'flex min-w-0 flex-wrap items-center justify-center gap-1 rounded-xl px-1.5 py-2 text-center text-sm font-semibold sm:gap-1.5 sm:px-2 sm:text-base',
                current && 'bg-sand-200 text-night-950 shadow-sm',
                done && 'bg-white/12 text-lavender-100',
                !current && !done && 'border border-white/15 text-lavender-200',
              )}
            >
              {done ? <Check aria-hidden="true" className="size-4 shrink-0" /> : null}
              <span className="hyphens-auto">{phase.name}</span>
              {done ? <span className="sr-only"> (done)</span> : null}
            </li>
          );
        })}
      </ol>
    </section>
  );
}

/**
 * The Study Guidance box (the phase message) and, on a phase's last day, the green Phase
 * Transition box: the texts of `nightGuidance` (libs/contracts), worded for the night shown.
 */
export function StudyGuidance({ message, transition }: { message: string; transition: string | null }) {
  return (
    <div className="grid gap-3">
      <div className="rounded-2xl border border-lavender-200 bg-lavender-50 p-4">
        <h2 className="flex items-center gap-2 text-base font-semibold text-night-900">
          <Sparkles aria-hidden="true" className="size-5 text-night-600" />
          Study Guidance
        </h2>
        <p className="mt-1 text-base text-night-800">{message}</p>
      </div>
      {transition ? (
        <div role="note" className="rounded-2xl border border-emerald-300 bg-emerald-50 p-4">
          <h2 className="flex items-center gap-2 text-base font-semibold text-emerald-900">
            <PartyPopper aria-hidden="true" className="size-5" />
            Phase Transition
          </h2>
          <p className="mt-1 text-base text-emerald-900">{transition}</p>
        </div>
      ) : null}
    </div>
  );
}
