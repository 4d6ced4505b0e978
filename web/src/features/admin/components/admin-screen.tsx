import { FlaskConical, ScrollText } from 'lucide-react';
import { ADMIN_SEARCH_MAX, AdminPhaseFilter, AdminUserSort, Uuid } from '@sleepweave/contracts';
import { useEffect, useRef } from 'react';
import { Link, useLocation, useSearchParams } from 'react-router';
import { Button } from '../../../components/ui/button';
import { LoadingState } from '../../../components/ui/states';
import { paths } from '../../../config/paths';
import { useUser } from '../../../lib/auth';
import { searchFromAddress, useAddressSearch } from '../../../lib/use-address-search';
import { scrollBehavior } from '../../../lib/utils';
import type { AdminUsersParams } from '../api/get-admin-users';
import { useAdminRefused } from '../api/use-admin-refused';
import { NoAccess } from '../../../components/no-access';
import { AdminPage } from './admin-page';
import { ExportCard } from './export-card';
import { StatTiles } from './stat-tiles';
import { UserDetailPanel } from './user-detail';
import { UsersList } from './users-list';

const TITLE = 'Admin Dashboard';
const LEAD = 'Who is taking part, who has stopped logging, and the study’s data.';

const INITIAL: AdminUsersParams = { q: '', sort: 'joined', order: 'desc', phase: 'all', notLogged: false };
const SEARCH_DELAY_MS = 300;

/**
 * The list's search, filters and sort live in the address (?q=, sort=, order=, phase=,
 * notLogged=1), and the user shown in the history entry's state: Back (from the audit trail,
 * say) and a reload return to both. Not the user in the address: opening her details is an
 * audited read, and a link from another site could have had an admin's browser make one.
 * What the address holds that cannot be used (an old link, a typo) reads as the default.
 */
function fromAddress(search: URLSearchParams, state: unknown): { params: AdminUsersParams; userId: string | null } {
  const sort = AdminUserSort.safeParse(search.get('sort'));
  const phase = AdminPhaseFilter.safeParse(search.get('phase'));
  const order = search.get('order');
  const userId = Uuid.safeParse((state as { user?: unknown } | null)?.user);
  return {
    params: {
      q: searchFromAddress(search.get('q'), ADMIN_SEARCH_MAX),
      sort: sort.success ? sort.data : INITIAL.sort,
      order: order === 'asc' || order === 'desc' ? order : INITIAL.order,
      phase: phase.success ? phase.data : INITIAL.phase,
      notLogged: search.get('notLogged') === '1',
    },
    userId: userId.success ? userId.data : null,
  };
}

/** The address of a list; what is as by default is left out. */
function toAddress(params: AdminUsersParams): Record<string, string> {
  const address: Record<string, string> = {};
  if (params.q !== '') address.q = params.q;
  if (params.sort !== INITIAL.sort || params.order !== INITIAL.order) Object.assign(address, { sort: params.sort, order: params.order });
  if (params.phase !== INITIAL.phase) address.phase = params.phase;
  if (params.notLogged) address.notLogged = '1';
  return address;
}

function Links() {
  return (
    <nav aria-label="Admin pages" className="flex flex-wrap gap-3">
      <Button asChild variant="outline">
        <Link to={paths.admin.research}>
          <FlaskConical aria-hidden="true" className="size-5" />
          Research runs
        </Link>
      </Button>
      <Button asChild variant="outline">
        <Link to={paths.admin.audit}>
          <ScrollText aria-hidden="true" className="size-5" />
          Audit trail
        </Link>
      </Button>
    </nav>
  );
}

function Dashboard() {
  const [address, setAddress] = useSearchParams();
  const { params, userId: selectedId } = fromAddress(address, useLocation().state);
  // The user she chose last, as she chose her: a search that applied as she clicked a row
  // (its pause ended before the click's own address was rendered) wrote the one before.
  const chosen = useRef(selectedId);
  useEffect(() => {
    chosen.current = selectedId;
  }, [selectedId]);
  const show = (changes: Partial<AdminUsersParams>, userId = chosen.current) =>
    // the same page in another state: where she scrolled to stays (not a new page's top)
    setAddress(toAddress({ ...params, ...changes }), { replace: true, preventScrollReset: true, state: userId ? { user: userId } : null });
  const search = useAddressSearch({ search: params.q, write: (q) => show({ q }), delayMs: SEARCH_DELAY_MS });
  const detailRef = useRef<HTMLDivElement>(null);
  // the server refuses any part (the role was revoked while the page was open): say so
  const refused = useAdminRefused();

  // On a phone the panel is below the list: brought into view once her details are in (the
  // page may be too short to scroll to it before), with the focus, so that a keyboard or a
  // screen reader goes on from her details rather than from the list's row.
  const scrollPending = useRef(false);
  const select = (id: string) => {
    chosen.current = id;
    show({}, id);
    scrollPending.current = !window.matchMedia('(min-width: 64rem)').matches;
  };
  const goToDetails = () => {
    detailRef.current?.scrollIntoView({ behavior: scrollBehavior(), block: 'start' });
    detailRef.current?.querySelector<HTMLElement>('[role="region"]')?.focus({ preventScroll: true });
  };
  const detailShown = () => {
    if (!scrollPending.current) return;
    scrollPending.current = false;
    goToDetails();
  };
  // back to her row (on a phone the panel is below the whole list: 200 rows were 35,000 px
  // above it); the list's search box when her row is not among those loaded
  const listRef = useRef<HTMLDivElement>(null);
  const backToList = () => {
    const row = listRef.current?.querySelector<HTMLElement>('[aria-label="Users"] button[aria-current="true"]');
    const target = row ?? listRef.current?.querySelector<HTMLElement>('input');
    target?.scrollIntoView({ behavior: scrollBehavior(), block: 'center' });
    target?.focus({ preventScroll: true });
  };

  // the user shown was deleted: the panel is empty again, and has the focus (the dialog's
  // button it would have gone back to is gone with her)
  const deleted = () => {
    chosen.current = null;
    show({}, null);
    detailRef.current?.querySelector<HTMLElement>('[role="region"]')?.focus({ preventScroll: true });
  };

  if (refused) return <NoAccess />;

  return (
    <>
      <StatTiles />
      <ExportCard />
      <div className="grid items-start gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <div ref={listRef} className="min-w-0">
          <UsersList
            params={params}
            onParamsChange={(changes) => show(changes)}
            searchText={search.text}
            onSearchTextChange={search.change}
            selectedId={selectedId}
            onSelect={select}
            onGoToDetails={goToDetails}
          />
        </div>
        {/* sticky as the grid's item, which the list's height gives room to stick in (on the
            card inside it, as tall as it, the panel scrolled away with the list) */}
        <div ref={detailRef} className="scroll-mt-20 lg:sticky lg:top-24">
          <UserDetailPanel userId={selectedId} onShown={detailShown} onBack={backToList} onDeleted={deleted} />
        </div>
      </div>
    </>
  );
}

/**
 * /admin: the study team's overview (docs/admin.md). Only for admins: the server refuses
 * everyone else (401/403); this screen tells a participant so instead of showing nothing.
 */
export function AdminScreen() {
  const user = useUser({ fresh: true });
  // her role revoked while the page was open: "No access", and no links to the other admin pages
  const refused = useAdminRefused();
  if (user.isPending) {
    return (
      <AdminPage title={TITLE} lead={LEAD}>
        <LoadingState text="Loading the dashboard..." />
      </AdminPage>
    );
  }
  if (user.data?.role !== 'admin') {
    return (
      <AdminPage title={TITLE} lead={LEAD}>
        <NoAccess />
      </AdminPage>
    );
  }
  return (
    <AdminPage title={TITLE} lead={LEAD} actions={refused ? undefined : <Links />}>
      <Dashboard />
    </AdminPage>
  );
}
