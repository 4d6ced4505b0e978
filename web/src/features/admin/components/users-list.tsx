import { ADMIN_SEARCH_MAX, type AdminUserListItem } from '@sleepweave/contracts';
import { Search, UserRound } from 'lucide-react';
import { memo, useId } from 'react';
import { Card } from '../../../components/ui/card';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { LoadMore } from '../../../components/ui/load-more';
import { Select } from '../../../components/ui/select';
import { CHECK_CONNECTION, EmptyState, ErrorState, LoadingState } from '../../../components/ui/states';
import { cn } from '../../../lib/utils';
import { useLoadMore } from '../../../lib/use-load-more';
import { useAdminUsers, type AdminUsersParams } from '../api/get-admin-users';
import {
  ageText,
  count,
  displayName,
  FOLLOW_UP_BADGE,
  FOLLOW_UP_FILTER,
  lastLogText,
  PHASE_FILTERS,
  phaseText,
  SORTS,
  stageText,
} from './admin-display';

export const LOADING_USERS = 'Loading users...';
export const NO_USERS = 'No users found';

function Badge({ tone, children }: { tone: 'night' | 'amber'; children: string }) {
  return (
    <span
      className={cn(
        'rounded-full px-2.5 py-0.5 text-sm font-medium',
        tone === 'amber' ? 'bg-amber-100 text-amber-950' : 'bg-night-100 text-night-800',
      )}
    >
      {children}
    </span>
  );
}

/**
 * One user of the list. Memoised, and given only what stays the same as pages are added (her
 * item, whether she is chosen, the screen's callbacks): each Load more rendered every row
 * again. (Laid out only near the screen, with content-visibility, the rows far below had a
 * guessed height, and on a phone the scroll to her details, below the list, stopped short.)
 */
const UserRow = memo(function UserRow({
  user,
  selected,
  onSelect,
  onGoToDetails,
}: {
  user: AdminUserListItem;
  selected: boolean;
  onSelect: (id: string) => void;
  onGoToDetails: () => void;
}) {
  const name = displayName(user);
  return (
    <li>
      <button
        type="button"
        onClick={() => onSelect(user.id)}
        aria-current={selected ? 'true' : undefined}
        className={cn(
          'grid w-full gap-2 rounded-2xl border px-4 py-3 text-left transition-colors sm:grid-cols-[minmax(0,1fr)_auto] sm:gap-4',
          selected
            ? 'border-night-500 bg-night-50 shadow-[inset_3px_0_0_var(--color-night-600)]'
            : 'border-night-100 bg-white hover:bg-night-50',
        )}
      >
        <span className="grid min-w-0 grid-cols-1 gap-1">
          <span className="flex flex-wrap items-center gap-2">
            {/* the whole name on hover; a screen reader reads it all */}
            <span title={name} className="max-w-full min-w-0 truncate text-base font-semibold text-night-950">
              {name}
            </span>
            {user.role === 'admin' ? <Badge tone="night">Admin</Badge> : null}
            {user.followUp ? <Badge tone="amber">{FOLLOW_UP_BADGE}</Badge> : null}
          </span>
          {/* wrapped, not cut: at 1024 px every address was "participant-0079@d…", and the domain tells them apart */}
          <span className="text-sm wrap-anywhere text-night-700">{user.email}</span>
          <span className="text-sm text-night-700">
            Age {ageText(user.age)} · {stageText(user.hormonalStage)} · {count(user.sleepLogCount, 'sleep log', 'sleep logs')} ·{' '}
            {count(user.journalEntryCount, 'journal entry', 'journal entries')}
          </span>
        </span>
        <span className="grid content-start gap-0.5 text-sm text-night-700 sm:justify-items-end sm:text-right">
          {user.study ? (
            <>
              <span className="font-semibold text-night-950">
                {user.study.compliancePercent === null ? 'No night due yet' : `${user.study.compliancePercent}% of nights logged`}
              </span>
              <span>{phaseText(user.study)}</span>
            </>
          ) : (
            <span className="font-semibold text-night-950">Not in the study</span>
          )}
          <span>{lastLogText(user) ? `Last log ${lastLogText(user)}` : 'No sleep logs yet'}</span>
        </span>
      </button>
      {/* the next Tab stop after her row, seen only with the focus: the details beside the
          list were otherwise reached through every row below hers */}
      {selected ? (
        <button
          type="button"
          onClick={onGoToDetails}
          className="sr-only rounded-xl bg-night-900 px-4 py-2 text-base font-semibold text-white focus:not-sr-only focus:mt-2 focus:inline-block"
        >
          Go to the details
        </button>
      ) : null}
    </li>
  );
});

export interface UsersListProps {
  params: AdminUsersParams;
  onParamsChange: (changes: Partial<AdminUsersParams>) => void;
  /** What the search box shows (searched once typing pauses). */
  searchText: string;
  onSearchTextChange: (text: string) => void;
  selectedId: string | null;
  onSelect: (id: string) => void;
  /** Moves the focus to the chosen user's details. */
  onGoToDetails: () => void;
}

/**
 * The user list: searched, filtered and sorted by the server, a page at a time ('Load more
 * users'). No total of the matches: counting them reads every matching user; once the last
 * page is in, the count shown is the whole.
 */
export function UsersList({ params, onParamsChange, searchText, onSearchTextChange, selectedId, onSelect, onGoToDetails }: UsersListProps) {
  const users = useAdminUsers(params);
  // compliance and the last log move as nights are logged; when members joined, and names, stay
  const loadMore = useLoadMore(users, { orderMoves: params.sort === 'compliance' || params.sort === 'lastLog' });
  const ids = { search: useId(), phase: useId(), sort: useId(), follow: useId() };
  const list = users.data;

  let content;
  if (users.isPending) {
    content = <LoadingState inline text={LOADING_USERS} />;
  } else if (!list) {
    content = (
      <ErrorState
        inline
        title="Failed to load users"
        text={CHECK_CONNECTION}
        error={users.error}
        onRetry={() => void users.refetch()}
        retrying={users.isFetching}
      />
    );
  } else if (list.length === 0) {
    content = <EmptyState icon={UserRound} text={NO_USERS} />;
  } else {
    content = (
      <>
        <ul className={cn('grid gap-2', users.isPlaceholderData && 'opacity-60')} aria-label="Users" aria-busy={users.isFetching}>
          {list.map((user) => (
            <UserRow key={user.id} user={user} selected={user.id === selectedId} onSelect={onSelect} onGoToDetails={onGoToDetails} />
          ))}
        </ul>
        {users.isPlaceholderData ? null : (
          <LoadMore
            hasMore={users.hasNextPage}
            pending={loadMore.isPending}
            failed={loadMore.isError}
            onLoad={() => loadMore.mutate()}
            label="Load more users"
            pendingLabel="Loading more users..."
            errorText="More users could not be loaded. Please try again."
          />
        )}
      </>
    );
  }

  return (
    <Card className="grid content-start gap-4 p-4 sm:p-6" role="region" aria-labelledby="users-title">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="users-title" className="text-xl font-semibold text-night-950">
          Users
        </h2>
        {/* always there, so that a screen reader hears each search's count (a region added
            with its text is not read) */}
        <p className="text-sm text-night-700" aria-live="polite">
          {list && !users.isPlaceholderData
            ? users.hasNextPage
              ? `${list.length.toLocaleString('en-US')} shown`
              : `${list.length.toLocaleString('en-US')} ${list.length === 1 ? 'user' : 'users'}`
            : null}
        </p>
      </div>

      <div className="grid gap-3 md:grid-cols-2">
        <div className="grid gap-1.5 md:col-span-2">
          <Label htmlFor={ids.search}>Search by name or e-mail</Label>
          <div className="relative">
            <Search aria-hidden="true" className="pointer-events-none absolute top-1/2 left-3.5 size-5 -translate-y-1/2 text-night-500" />
            <Input
              id={ids.search}
              type="search"
              value={searchText}
              maxLength={ADMIN_SEARCH_MAX}
              placeholder="e.g. Maya or maya@example.com"
              onChange={(event) => onSearchTextChange(event.target.value)}
              className="pl-11"
            />
          </div>
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor={ids.phase}>Study phase</Label>
          <Select
            id={ids.phase}
            value={params.phase}
            options={PHASE_FILTERS}
            onValueChange={(value) => onParamsChange({ phase: value as AdminUsersParams['phase'] })}
          />
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor={ids.sort}>Sort by</Label>
          <Select
            id={ids.sort}
            value={`${params.sort}:${params.order}`}
            options={SORTS}
            onValueChange={(value) => {
              const [sort, order] = value.split(':') as [AdminUsersParams['sort'], AdminUsersParams['order']];
              onParamsChange({ sort, order });
            }}
          />
        </div>
        <label htmlFor={ids.follow} className="flex min-h-11 items-center gap-3 text-base text-night-900 md:col-span-2">
          <input
            id={ids.follow}
            type="checkbox"
            checked={params.notLogged}
            onChange={(event) => onParamsChange({ notLogged: event.target.checked })}
            className="size-5 rounded border-night-300 accent-night-700"
          />
          {FOLLOW_UP_FILTER}
        </label>
      </div>

      {content}
    </Card>
  );
}
