import type { AdminUserDetail, Role } from '@sleepweave/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { ArrowLeft, MousePointerClick, ShieldCheck, ShieldOff, Trash2 } from 'lucide-react';
import { format } from 'date-fns';
import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Dialog, DialogActions, DialogContent, DialogDescription, DialogTitle, DialogTrigger } from '../../../components/ui/dialog';
import { Input } from '../../../components/ui/input';
import { EmptyState, ErrorState, LoadingState } from '../../../components/ui/states';
import { toast } from '../../../components/ui/toast';
import { failureMessage, isApiRequestError, serverMessage } from '../../../lib/api-client';
import { formatInstantDay } from '../../../lib/date-format';
import { useUser } from '../../../lib/auth';
import { useLoggedOutRedirect } from '../../../lib/logged-out-redirect';
import { useOneAtATime } from '../../../lib/one-at-a-time';
import { dropFromLists, useDeleteUser } from '../api/delete-user';
import { adminStatsQueryKey } from '../api/get-admin-stats';
import { useAdminUser } from '../api/get-admin-user';
import { useSetUserRole } from '../api/set-user-role';
import { ageText, displayName, formatDate, lastLogText, phaseText, stageText } from './admin-display';

export const SELECT_A_USER = 'Select a user to view their details';

function Facts({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="grid gap-2">
      <h3 className="text-base font-semibold text-night-950">{title}</h3>
      <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-1.5 text-base">{children}</dl>
    </section>
  );
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <>
      <dt className="text-night-700">{label}</dt>
      <dd className="min-w-0 [overflow-wrap:anywhere] text-night-950">{children}</dd>
    </>
  );
}

/**
 * What a dialog of the panel says when its change is not made ("The role could not be
 * changed."): the server's words for a refusal (her own role revoked meanwhile, the user
 * gone, the last admin), else why it failed.
 */
function refusalText(error: Error, failed: string): string {
  if (isApiRequestError(error) && [403, 404, 409].includes(error.status)) return serverMessage(error) ?? failed;
  return failureMessage(error, `${failed} Please try again.`);
}

/** A dialog's refusal, as an alert over its buttons; nothing when there is none. */
function Refusal({ text }: { text: string | null }) {
  if (text === null) return null;
  return (
    <p role="alert" className="rounded-xl border border-rose-200 bg-rose-50 px-4 py-3 text-base text-rose-900">
      {text}
    </p>
  );
}

function RoleSection({ user }: { user: AdminUserDetail }) {
  const [open, setOpen] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  const loggedOut = useLoggedOutRedirect();
  const next: Role = user.role === 'admin' ? 'participant' : 'admin';
  const change = useSetUserRole({
    onSuccess: (result) => {
      setOpen(false);
      toast({ title: result.message });
    },
    onError: (error) => {
      if (isApiRequestError(error) && error.status === 401) return loggedOut();
      setRefusal(refusalText(error, 'The role could not be changed.'));
    },
  });
  const name = displayName(user);
  /** An admin stepping down herself is told of herself ("Mei Novak will lose access" was said to Mei). */
  const herself = useUser().data?.id === user.id;
  const action = next === 'admin' ? 'Grant admin role' : 'Revoke admin role';
  return (
    <section className="grid gap-2">
      <h3 className="text-base font-semibold text-night-950">Admin Role</h3>
      <p className="text-base text-night-700">
        {user.role === 'admin'
          ? 'An admin: sees every participant’s data, exports it, and manages roles.'
          : 'A participant: no access to the admin pages.'}
      </p>
      <Dialog
        open={open}
        onOpenChange={(value) => {
          setOpen(value);
          setRefusal(null);
        }}
      >
        {/* The dialog's trigger: when it closes (cancelled, or the role changed), focus comes back here. */}
        <DialogTrigger asChild>
          <Button variant={next === 'admin' ? 'outline' : 'destructive'} className="justify-self-start">
            {next === 'admin' ? <ShieldCheck aria-hidden="true" className="size-5" /> : <ShieldOff aria-hidden="true" className="size-5" />}
            {action}
          </Button>
        </DialogTrigger>
        <DialogContent>
          <DialogTitle>{action}?</DialogTitle>
          <DialogDescription>
            {next === 'admin'
              ? `${name} will see every participant’s personal data, export it, and manage roles. The change is recorded in the audit trail.`
              : `${herself ? 'You' : name} will lose access to the admin pages at once. The change is recorded in the audit trail.`}
          </DialogDescription>
          <Refusal text={refusal} />
          <DialogActions>
            <Button variant="outline" onClick={() => setOpen(false)}>
              Cancel
            </Button>
            <Button
              variant={next === 'admin' ? 'primary' : 'destructive'}
              pending={change.isPending}
              onClick={() => {
                setRefusal(null);
                change.mutate({ userId: user.id, role: next });
              }}
            >
              {action}
            </Button>
          </DialogActions>
        </DialogContent>
      </Dialog>
    </section>
  );
}

/** Her e-mail address as she would type it to confirm: case and surrounding spaces aside. */
const sameAddress = (typed: string, email: string) => typed.trim().toLowerCase() === email.trim().toLowerCase();

/**
 * Deleting her account for her (a participant who asks to leave and cannot sign in, say):
 * what she can do herself in Settings, with her password; here the admin types her e-mail
 * address to confirm. Not offered on the admin's own account (Settings, with her password).
 */
function DeleteSection({ user, onDeleted }: { user: AdminUserDetail; onDeleted: () => void }) {
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState('');
  const [refusal, setRefusal] = useState<string | null>(null);
  const loggedOut = useLoggedOutRedirect();
  const confirmId = useId();
  // deleted: once the dialog has closed, the screen lets her go (the focus the dialog would
  // give back to its button, gone with her, goes to the empty panel)
  const deleted = useRef(false);
  const once = useOneAtATime();
  const remove = useDeleteUser({
    onSuccess: (result) => {
      deleted.current = true;
      toast({ title: result.message });
      setOpen(false);
    },
    onError: (error) => {
      if (isApiRequestError(error) && error.status === 401) return loggedOut();
      setRefusal(refusalText(error, 'The account could not be deleted.'));
    },
  });
  const name = displayName(user);
  const confirmed = sameAddress(typed, user.email);
  return (
    <section className="grid gap-2">
      <h3 className="text-base font-semibold text-night-950">Delete Account</h3>
      <p className="text-base text-night-700">
        For a participant who asks to leave and cannot delete her account herself in Settings. Everything goes, for good: her profile,
        nights, journal, messages and her rows in research runs.
      </p>
      <Dialog
        open={open}
        onOpenChange={(value) => {
          setOpen(value);
          setTyped('');
          setRefusal(null);
        }}
      >
        <DialogTrigger asChild>
          <Button variant="destructive" className="justify-self-start">
            <Trash2 aria-hidden="true" className="size-5" />
            Delete account
          </Button>
        </DialogTrigger>
        <DialogContent
          onCloseAutoFocus={(event) => {
            if (!deleted.current) return;
            event.preventDefault();
            onDeleted();
          }}
        >
          <DialogTitle>Delete {name}’s account?</DialogTitle>
          <DialogDescription>
            This permanently deletes the account of {user.email} and all its data. It cannot be undone. The deletion is recorded in the
            audit trail.
          </DialogDescription>
          <form
            noValidate
            aria-label="Delete account"
            className="grid gap-4"
            onSubmit={(event) => {
              event.preventDefault();
              if (!confirmed) return;
              once(() => {
                setRefusal(null);
                return remove.mutateAsync(user.id);
              });
            }}
          >
            <div className="grid gap-2">
              <label htmlFor={confirmId} className="text-base font-medium text-night-900">
                Type {user.email} to confirm
              </label>
              <Input
                id={confirmId}
                type="email"
                autoComplete="off"
                spellCheck={false}
                value={typed}
                onChange={(event) => setTyped(event.target.value)}
              />
            </div>
            <Refusal text={refusal} />
            <DialogActions>
              <Button type="button" variant="outline" onClick={() => setOpen(false)}>
                Cancel
              </Button>
              <Button type="submit" variant="destructive" disabled={!confirmed} pending={remove.isPending}>
                Delete account
              </Button>
            </DialogActions>
          </form>
        </DialogContent>
      </Dialog>
    </section>
  );
}

function Detail({ user, readAt, onDeleted }: { user: AdminUserDetail; readAt: number; onDeleted: () => void }) {
  const me = useUser().data?.id;
  const study = user.study;
  return (
    <div className="grid gap-6">
      <header className="grid gap-1">
        <h2 className="text-2xl font-semibold [overflow-wrap:anywhere] text-night-950">{displayName(user)}</h2>
        <p className="text-base [overflow-wrap:anywhere] text-night-700">{user.email}</p>
        {/* read once (each read is in the audit trail): the dashboard's Refresh does not read it again */}
        <p className="text-sm text-night-600">Details as of {format(readAt, 'MMM d, h:mm a')}</p>
      </header>
      <Facts title="Profile Information">
        <Fact label="Email">
          {/* to write to her from here (a participant who has stopped logging, say) */}
          <a href={`mailto:${user.email}`} className="underline underline-offset-4 hover:text-night-700">
            {user.email}
          </a>
        </Fact>
        <Fact label="Age">{ageText(user.age)}</Fact>
        <Fact label="Hormonal Stage">{stageText(user.hormonalStage)}</Fact>
        <Fact label="Timezone">{user.timezone}</Fact>
        <Fact label="Joined">{formatInstantDay(user.createdAt, user.timezone)}</Fact>
        <Fact label="Consent">{user.consent ? 'Provided' : 'Not provided'}</Fact>
      </Facts>
      <Facts title="Activity Summary">
        <Fact label="Sleep Logs">{user.sleepLogCount}</Fact>
        <Fact label="Journal Entries">{user.journalEntryCount}</Fact>
        <Fact label="Compliance">
          {`${user.compliancePercent}%`}
          {/* the spec's figure, beside Study Progress's nights due: said what it counts */}
          <span className="block text-sm text-night-700">sleep logs per day since joining</span>
        </Fact>
      </Facts>
      <Facts title="Study Progress">
        {study ? (
          <>
            <Fact label="Phase">{phaseText(study)}</Fact>
            <Fact label="Study day">{study.day}</Fact>
            <Fact label="Nights logged">
              {study.compliancePercent === null
                ? 'No night due yet'
                : `${study.nightsLogged} of ${study.nightsElapsed} due (${study.compliancePercent}%)`}
            </Fact>
            <Fact label="Last log">{lastLogText(user) ?? 'No sleep logs yet'}</Fact>
          </>
        ) : (
          <Fact label="Study">Not enrolled (no consent yet)</Fact>
        )}
      </Facts>
      <section className="grid gap-2">
        <h3 className="text-base font-semibold text-night-950">Recent Sleep Logs</h3>
        {user.sleepLogs.length === 0 ? (
          <p className="text-base text-night-700">No sleep logs yet.</p>
        ) : (
          <ul className="grid gap-2">
            {user.sleepLogs.map((log) => (
              <li key={log.id} className="grid gap-0.5 rounded-xl bg-night-50 px-4 py-2.5 text-base">
                <span className="font-semibold text-night-950">{formatDate(log.date)}</span>
                <span className="text-night-800">
                  {log.sleepwearMaterial ?? 'Material not given'} ·{' '}
                  {log.sleepQuality110 === null ? 'Quality not given' : `Quality ${log.sleepQuality110}/10`} ·{' '}
                  {log.fabricComfort ?? 'Comfort not given'}
                </span>
              </li>
            ))}
          </ul>
        )}
      </section>
      {/* One section a user (not a role): the button she pressed stays, and keeps the focus. */}
      <RoleSection key={user.id} user={user} />
      {user.id === me ? null : <DeleteSection key={`delete-${user.id}`} user={user} onDeleted={onDeleted} />}
    </div>
  );
}

/** The detail panel: empty until a user is chosen; each opening is an audited read. */
export function UserDetailPanel({
  userId,
  onShown,
  onBack,
  onDeleted = () => {},
}: {
  userId: string | null;
  onShown?: () => void;
  /** The admin deleted the user shown: the screen lets her go (the panel is empty again). */
  onDeleted?: () => void;
  /** Takes her back to the user's row in the list (on a phone, far above). */
  onBack?: () => void;
}) {
  const detail = useAdminUser(userId);
  const shownId = detail.data?.id ?? null;
  useEffect(() => {
    if (shownId !== null) onShown?.();
  }, [shownId, onShown]);
  // deleted since the list was read (in another tab, by another admin): out of the list and the tiles too
  const queryClient = useQueryClient();
  const gone = userId !== null && !detail.data && isApiRequestError(detail.error) && detail.error.status === 404;
  useEffect(() => {
    if (!gone) return;
    dropFromLists(queryClient, userId);
    void queryClient.invalidateQueries({ queryKey: adminStatsQueryKey });
  }, [gone, userId, queryClient]);
  let content: ReactNode;
  if (userId === null) {
    content = <EmptyState icon={MousePointerClick} text={SELECT_A_USER} className="border-none bg-transparent" />;
  } else if (detail.isPending) {
    content = <LoadingState inline text="Loading user details..." />;
  } else if (!detail.data) {
    // a user deleted since the list was read: trying again cannot bring her back
    content = (
      <ErrorState
        inline
        title="Failed to load this user"
        text={gone ? 'This user no longer exists.' : 'Please try again.'}
        error={detail.error}
        onRetry={gone ? undefined : () => void detail.refetch()}
        retrying={detail.isFetching}
      />
    );
  } else {
    content = <Detail user={detail.data} readAt={detail.dataUpdatedAt} onDeleted={onDeleted} />;
  }
  return (
    // focusable by script only: on a phone, where the panel is below the list, choosing a user
    // brings focus here (admin-screen.tsx)
    <Card
      className="p-5 outline-none sm:p-6 lg:max-h-[calc(100dvh-7.5rem)] lg:overflow-y-auto"
      role="region"
      aria-label="User details"
      tabIndex={-1}
    >
      {userId !== null && onBack ? (
        // (beside the list on a wide screen: nothing to go back to)
        <Button variant="outline" className="mb-4 lg:hidden" onClick={onBack}>
          <ArrowLeft aria-hidden="true" className="size-5" />
          Back to the list
        </Button>
      ) : null}
      {content}
    </Card>
  );
}
