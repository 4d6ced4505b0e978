import { SLEEP_LOG_FIELD_LIST, type IntegrationEventData } from '@sleepweave/contracts';
import type { Tx } from '@sleepweave/event-store';
import { defineConsumer, lockDirectoryRowForEvent, userOrderKey } from '@sleepweave/service-kit';
import { NIGHT_ACTIVITY_TABLE, refreshNightActivity } from '../admin/activity.ts';
import { refreshUserOrder } from '../admin/user-order.ts';

type Night = IntegrationEventData<'study.sleep_log.recorded'> | IntegrationEventData<'study.sleep_log.revised'>;

/** Every field of a night but her free-text comments, which research never keeps. */
export const RESEARCH_NIGHT_FIELDS = SLEEP_LOG_FIELD_LIST.filter((field) => field.kind !== 'text');

/** A night as a `research_nights` row (its fields under their columns). */
function nightColumns(night: Night): Record<string, unknown> {
  const row: Record<string, unknown> = {
    log_id: night.logId,
    user_id: night.userId,
    date: night.date,
    study_day: night.studyDay,
    phase: night.phase,
    recommended_material: night.recommendedMaterial,
    // where her night ended at 04:00 (absent from nights logged before study sent it)
    timezone: night.timezone ?? null,
  };
  for (const field of RESEARCH_NIGHT_FIELDS) row[field.column] = night[field.key] ?? null;
  return row;
}

async function recorded(tx: Tx, night: IntegrationEventData<'study.sleep_log.recorded'>): Promise<void> {
  const row = { ...nightColumns(night), recorded_at: night.recordedAt };
  // A revision that arrived first already holds the night as it is now: only its recording time is new.
  await tx`
    insert into research_nights ${tx(row)}
    on conflict (log_id) do update set recorded_at = excluded.recorded_at`;
}

async function revised(tx: Tx, night: IntegrationEventData<'study.sleep_log.revised'>): Promise<void> {
  const [current] = await tx<{ revised_at: Date | null }[]>`
    select revised_at from research_nights where log_id = ${night.logId} for update`;
  if (!current) {
    // Before its recording (a redelivery out of order): the night as it is now; recorded_at until the recording arrives.
    const row = { ...nightColumns(night), recorded_at: night.revisedAt, revised_at: night.revisedAt, revisions: 1 };
    await tx`insert into research_nights ${tx(row)}`;
    return;
  }
  // Each revision counts; only a newer one replaces the values (an older one redelivered late does not).
  if (current.revised_at && current.revised_at >= new Date(night.revisedAt)) {
    await tx`update research_nights set revisions = revisions + 1 where log_id = ${night.logId}`;
    return;
  }
  const row = { ...nightColumns(night), revised_at: night.revisedAt };
  await tx`
    update research_nights set ${tx(row)}, revisions = revisions + 1
    where log_id = ${night.logId}`;
}

/** study.sleep_log.recorded and .revised -> `research_nights`, the night as study last published it. */
export const studySleepLogs = () =>
  defineConsumer({
    name: 'research-export-nights',
    types: ['study.sleep_log.recorded', 'study.sleep_log.revised'],
    // and her counts for the admin dashboard
    tables: ['research_nights', NIGHT_ACTIVITY_TABLE],
    // her rows only, which the directory's and the other research consumers lock too (her last
    // activity, her place in the admin list): all take users in one order
    orderKey: (envelope) => userOrderKey(envelope.data.userId),
    async handle(tx, envelope) {
      if (!(await lockDirectoryRowForEvent(tx, envelope.data.userId))) return;
      if (envelope.type === 'study.sleep_log.recorded') await recorded(tx, envelope.data);
      else await revised(tx, envelope.data);
      await refreshNightActivity(tx, envelope.data.userId);
      // and where she stands in the list sorted by last log or compliance
      await refreshUserOrder(tx, envelope.data.userId);
    },
  });
