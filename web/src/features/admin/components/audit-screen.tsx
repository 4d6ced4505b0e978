import type { AdminAuditEntry } from '@sleepweave/contracts';
import { ArrowLeft, ScrollText } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Button } from '../../../components/ui/button';
import { LoadMore } from '../../../components/ui/load-more';
import { CHECK_CONNECTION, EmptyState, ErrorState, LoadingState } from '../../../components/ui/states';
import { paths } from '../../../config/paths';
import { isApiRequestError } from '../../../lib/api-client';
import { useUser } from '../../../lib/auth';
import { useAdminAudit } from '../api/get-admin-audit';
import { formatInstant } from '../../../lib/date-format';
import { cn } from '../../../lib/utils';
import { ACTION_LABELS, actorText, subjectText } from './admin-display';
import { NoAccess } from '../../../components/no-access';
import { AdminPage } from './admin-page';

const TITLE = 'Audit Trail';
const LEAD =
  'Every read of a participant’s details, every export, every role change and every account an admin deleted: who, what and when, newest first.';
export const LOADING_AUDIT = 'Loading the audit trail...';
export const NO_AUDIT =
  'Nothing recorded yet: no admin has opened a participant’s details, exported data, changed a role or deleted an account.';

function Person({ name, email }: { name: string; email: string | null }) {
  return (
    <span className="grid">
      <span className="text-night-950">{name}</span>
      {email ? <span className="text-sm break-all text-night-700">{email}</span> : null}
    </span>
  );
}

/** What was done; a research download names its zip (which run's data went out). */
function What({ entry, className }: { entry: AdminAuditEntry; className?: string }) {
  return (
    <span className={cn('grid', className)}>
      <span>{ACTION_LABELS[entry.action]}</span>
      {entry.fileName ? <span className="text-sm font-normal break-all text-night-700">{entry.fileName}</span> : null}
    </span>
  );
}

/** On a phone: one card per entry (a four-column table does not fit). */
function AuditCards({ entries }: { entries: AdminAuditEntry[] }) {
  const timeZone = useUser().data?.timezone;
  return (
    <ul className="grid gap-3 md:hidden" aria-label="Audit trail, newest first">
      {entries.map((entry) => {
        const actor = actorText(entry.actor);
        const subject = subjectText(entry.subject);
        return (
          <li key={entry.id} className="grid gap-1 rounded-2xl border border-night-100 bg-white p-4 text-base shadow-sm shadow-night-900/5">
            <What entry={entry} className="font-semibold text-night-950" />
            <span className="text-night-800">
              By {actor.name}
              {actor.email ? <span className="block text-sm break-all text-night-700">{actor.email}</span> : null}
            </span>
            <span className="text-night-800">
              Whose data: {subject.name}
              {subject.email ? <span className="block text-sm break-all text-night-700">{subject.email}</span> : null}
            </span>
            <time dateTime={entry.at} className="text-sm text-night-700">
              {formatInstant(entry.at, timeZone)}
            </time>
          </li>
        );
      })}
    </ul>
  );
}

function AuditTable({ entries }: { entries: AdminAuditEntry[] }) {
  const timeZone = useUser().data?.timezone;
  return (
    <div className="hidden overflow-x-auto rounded-3xl border border-night-100 bg-white shadow-sm shadow-night-900/5 md:block">
      <table className="w-full min-w-[44rem] border-collapse text-left text-base">
        <caption className="sr-only">Audit trail, newest first</caption>
        <thead className="bg-night-50 text-sm text-night-700">
          <tr>
            <th scope="col" className="px-4 py-3 font-semibold">
              When
            </th>
            <th scope="col" className="px-4 py-3 font-semibold">
              Who
            </th>
            <th scope="col" className="px-4 py-3 font-semibold">
              What
            </th>
            <th scope="col" className="px-4 py-3 font-semibold">
              Whose data
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-night-100 text-night-900">
          {entries.map((entry) => (
            <tr key={entry.id}>
              <td className="px-4 py-3 align-top whitespace-nowrap">{formatInstant(entry.at, timeZone)}</td>
              <td className="px-4 py-3 align-top">
                <Person {...actorText(entry.actor)} />
              </td>
              <td className="px-4 py-3 align-top">
                <What entry={entry} />
              </td>
              <td className="px-4 py-3 align-top">
                <Person {...subjectText(entry.subject)} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function Trail() {
  const audit = useAdminAudit();
  if (audit.isPending) return <LoadingState text={LOADING_AUDIT} />;
  if (!audit.data) {
    if (isApiRequestError(audit.error) && audit.error.status === 403) return <NoAccess />;
    return (
      <ErrorState
        title="Failed to load the audit trail"
        text={CHECK_CONNECTION}
        error={audit.error}
        onRetry={() => void audit.refetch()}
        retrying={audit.isFetching}
      />
    );
  }
  const entries = audit.data;
  if (entries.length === 0) return <EmptyState icon={ScrollText} text={NO_AUDIT} />;
  return (
    <div className="grid gap-4">
      <AuditTable entries={entries} />
      <AuditCards entries={entries} />
      <LoadMore
        hasMore={audit.hasNextPage}
        pending={audit.isFetchingNextPage}
        failed={audit.isFetchNextPageError}
        onLoad={() => void audit.fetchNextPage()}
        label="Show older entries"
        pendingLabel="Loading older entries..."
        errorText="Older entries could not be loaded. Please try again."
      />
    </div>
  );
}

/** /admin/audit: the audit trail, for admins only. */
export function AuditScreen() {
  const user = useUser({ fresh: true });
  let content: ReactNode;
  if (user.isPending) content = <LoadingState text={LOADING_AUDIT} />;
  else if (user.data?.role !== 'admin') content = <NoAccess />;
  else content = <Trail />;
  return (
    <AdminPage
      title={TITLE}
      lead={LEAD}
      actions={
        user.data?.role === 'admin' ? (
          <Button asChild variant="outline">
            <Link to={paths.admin.root}>
              <ArrowLeft aria-hidden="true" className="size-5" />
              Admin dashboard
            </Link>
          </Button>
        ) : undefined
      }
    >
      {content}
    </AdminPage>
  );
}
