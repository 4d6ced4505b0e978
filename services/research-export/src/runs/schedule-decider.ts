import type { Decider, DomainEvent } from '@sleepweave/event-store';

/** The schedule's record of one date: which run is that night's. */
export type NightlyRunScheduled = DomainEvent<'NightlyRunScheduled', { date: string; runId: string }>;
type ScheduleState = { runId: string | null };

/** A date gets one nightly run: asked again (another instance, a restart), nothing happens. */
export const scheduleDecider: Decider<{ date: string; runId: string }, ScheduleState, NightlyRunScheduled> = {
  initialState: () => ({ runId: null }),
  evolve: (_state, event) => ({ runId: event.data.runId }),
  decide: (command, state) => (state.runId ? [] : [{ type: 'NightlyRunScheduled', data: { date: command.date, runId: command.runId } }]),
};
