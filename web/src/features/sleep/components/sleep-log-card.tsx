import { formatDuration, type SleepLog } from '@sleepweave/contracts';
import { format, parseISO } from 'date-fns';
import { PencilLine } from 'lucide-react';
import { Link } from 'react-router';
import { Card } from '../../../components/ui/card';
import { paths } from '../../../config/paths';
import { useUser } from '../../../lib/auth';
import { PHASE_NAMES } from './sleep-log-groups';
import { dateTimeFormat } from '../../../lib/date-format';

const orDash = (value: number | string | null, unit = '') => (value === null ? '--' : `${value}${unit}`);
const yesNo = (value: boolean | null) => (value === null ? '--' : value ? 'Yes' : 'No');

export const editLink = (log: SleepLog) => `${paths.sleep.log}?edit=${encodeURIComponent(log.id)}&date=${log.date}`;

/** The day she saved it ('Logged'), on her profile's clock (the browser's until it is known). */
function loggedOn(createdAt: string, timeZone: string | undefined): string {
  return dateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric', ...(timeZone ? { timeZone } : {}) }).format(
    new Date(createdAt),
  );
}

/** One night in Recent Sleep Logs (docs/product.md §2). */
export function SleepLogCard({ log }: { log: SleepLog }) {
  const timeZone = useUser().data?.timezone;
  const fullDate = format(parseISO(log.date), 'EEEE, MMMM d, yyyy');
  const items: [string, string][] = [
    ['Total sleep', formatDuration(log.totalSleepMinutes)],
    ['Efficiency', orDash(log.sleepEfficiency, '%')],
    ['Resting HR', orDash(log.restingHr, ' bpm')],
    ['Avg HRV', orDash(log.avgHrv, ' ms')],
    ['Morning mood', orDash(log.morningMood)],
    ['Fabric comfort', orDash(log.fabricComfort)],
    ['Dream recall', yesNo(log.dreamRecall)],
    ['Heat wave', yesNo(log.heatWave)],
  ];
  return (
    <Card className="grid gap-3 p-4 sm:gap-4 sm:p-6">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="grid gap-0.5">
          <h3 className="text-base font-semibold text-night-950 sm:text-lg">{fullDate}</h3>
          <p className="text-sm text-night-600">
            Logged {loggedOn(log.createdAt, timeZone)} · Night {log.studyDay} · {PHASE_NAMES[log.phase]}
            {log.sleepwearMaterial ? ` · ${log.sleepwearMaterial}` : ''}
          </p>
        </div>
        <div className="flex flex-wrap items-center gap-3">
          <span className="rounded-full bg-night-100 px-3 py-1 text-base font-semibold text-night-800">
            Sleep score {orDash(log.sleepScore)}
          </span>
          <Link
            to={editLink(log)}
            className="inline-flex min-h-11 items-center gap-1.5 rounded-xl border border-night-300 bg-white px-4 text-base font-medium text-night-800 hover:bg-night-50"
          >
            <PencilLine aria-hidden="true" className="size-4" />
            Edit<span className="sr-only"> {fullDate}</span>
          </Link>
        </div>
      </div>
      <dl className="grid grid-cols-2 gap-x-4 gap-y-2 sm:grid-cols-4 sm:gap-y-3">
        {items.map(([label, value]) => (
          <div key={label} className="grid gap-0.5">
            <dt className="text-sm text-night-600">{label}</dt>
            <dd className="text-base font-semibold text-night-950">{value}</dd>
          </div>
        ))}
      </dl>
      {log.comments ? (
        <p dir="auto" className="rounded-2xl bg-sand-50 p-3 text-base whitespace-pre-wrap text-night-800 [overflow-wrap:anywhere]">
          {log.comments}
        </p>
      ) : null}
    </Card>
  );
}
