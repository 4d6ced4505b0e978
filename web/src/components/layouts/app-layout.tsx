import { Outlet } from 'react-router';
import { useLogout, useUser } from '../../lib/auth';
import { NavBar } from './nav-bar';
import { OfflineNotice } from './offline-notice';

/** Every guarded screen: skip link, navigation bar, then the page. */
export function AppLayout() {
  const logout = useLogout();
  const { data: user } = useUser();
  return (
    <div className="flex min-h-dvh flex-col">
      <a
        href="#main"
        className="sr-only z-50 rounded-xl bg-white px-4 py-2 text-night-900 shadow focus:not-sr-only focus:fixed focus:top-3 focus:left-3"
      >
        Skip to main content
      </a>
      {/* the offline notice stays in view with the nav bar */}
      <div className="sticky top-0 z-40">
        <NavBar onLogout={() => logout.mutate()} logoutPending={logout.isPending} isAdmin={user?.role === 'admin'} />
        <OfflineNotice />
      </div>
      <main id="main" tabIndex={-1} className="flex-1 outline-none">
        <Outlet />
      </main>
    </div>
  );
}
