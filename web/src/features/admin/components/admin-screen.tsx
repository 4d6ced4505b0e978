import { FlaskConical, ScrollText } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { Button } from '../../../components/ui/button';
import { LoadingState } from '../../../components/ui/states';
import { paths } from '../../../config/paths';
import { useUser } from '../../../lib/auth';
import type { AdminUsersParams } from '../api/get-admin-users';
import { useAdminRefused } from '../api/use-admin-refused';
import { AdminPage, NoAccess } from './admin-page';
import { ExportCard } from './export-card';
import { StatTiles } from './stat-tiles';
import { UserDetailPanel } from './user-detail';
import { UsersList } from './users-list';

const TITLE = 'Admin Dashboard';
const LEAD = 'Who is taking part, who has stopped logging, and the study’s data.';

const INITIAL: AdminUsersParams = { q: '', sort: 'joined', order: 'desc', phase: 'all', notLogged: false };
const SEARCH_DELAY_MS = 300;

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
  const [params, setParams] = useState(INITIAL);
  const [searchText, setSearchText] = useState('');
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const detailRef = useRef<HTMLDivElement>(null);
  // the server refuses any part (the role was revoked while the page was open): say so
  const refused = useAdminRefused();

  useEffect(() => {
    const timer = setTimeout(() => setParams((p) => (p.q === searchText ? p : { ...p, q: searchText })), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [searchText]);

  // On a phone the panel is below the list: brought into view once her details are in (the
  // page may be too short to scroll to it before), with the focus, so that a keyboard or a
  // screen reader goes on from her details rather than from the list's row.
  const scrollPending = useRef(false);
  const select = (id: string) => {
    setSelectedId(id);
    scrollPending.current = !window.matchMedia('(min-width: 64rem)').matches;
  };
  const detailShown = () => {
    if (!scrollPending.current) return;
    scrollPending.current = false;
    detailRef.current?.scrollIntoView({ behavior: 'smooth', block: 'start' });
    detailRef.current?.querySelector<HTMLElement>('[role="region"]')?.focus({ preventScroll: true });
  };

  if (refused) return <NoAccess />;

  return (
    <>
      <StatTiles />
      <ExportCard />
      <div className="grid items-start gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <UsersList
          params={params}
          onParamsChange={(changes) => setParams((p) => ({ ...p, ...changes }))}
          searchText={searchText}
          onSearchTextChange={setSearchText}
          selectedId={selectedId}
          onSelect={select}
        />
        <div ref={detailRef} className="scroll-mt-20">
          <UserDetailPanel userId={selectedId} onShown={detailShown} />
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
    <AdminPage title={TITLE} lead={LEAD} actions={<Links />}>
      <Dashboard />
    </AdminPage>
  );
}
