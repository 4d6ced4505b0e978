import { useEffect, useRef } from 'react';
import { Outlet } from 'react-router';
import { useLogout, useUser } from '../../lib/auth';
import { NavBar } from './nav-bar';
import { OfflineNotice } from './offline-notice';

/** Every guarded screen: skip link, navigation bar, then the page. */
export function AppLayout() {
  const logout = useLogout();
  const { data: user } = useUser();
  // A field focused or scrolled to stays clear of what sticks at the top: the nav bar (taller
  // when it wraps, at 320 px or with large text) and the offline notice (index.css).
  const sticky = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = sticky.current;
    if (!element || typeof ResizeObserver === 'undefined') return;
    const root = document.documentElement;
    const follow = new ResizeObserver(() => root.style.setProperty('--sticky-top', `${element.offsetHeight}px`));
    follow.observe(element);
    return () => {
      follow.disconnect();
      root.style.removeProperty('--sticky-top');
    };
  }, []);
  return (
    <div className="flex min-h-dvh flex-col">
      <a
        href="#main"
        className="sr-only z-50 rounded-xl bg-white px-4 py-2 text-night-900 shadow focus:not-sr-only focus:fixed focus:top-3 focus:left-3"
      >
        Skip to main content
      </a>
      {/* the offline notice stays in view with the nav bar */}
      <div ref={sticky} className="sticky top-0 z-40">
        <NavBar onLogout={() => logout.mutate()} logoutPending={logout.isPending} isAdmin={user?.role === 'admin'} />
        <OfflineNotice />
      </div>
      <main id="main" tabIndex={-1} className="flex-1 outline-none">
        <Outlet />
      </main>
    </div>
  );
}
