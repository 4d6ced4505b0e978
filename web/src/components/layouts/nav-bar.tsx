import { LogOut, Menu, Moon, Settings, ShieldCheck, X } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import { Link, matchPath, useLocation } from 'react-router';
import { paths } from '../../config/paths';
import { cn } from '../../lib/utils';
import { Button } from '../ui/button';

/** Spec docs/product.md §2, "Navigation bar". `section` marks the item active for its sub-pages too. */
export const navItems = [
  { label: 'Sleep Study', to: paths.sleep.consent, section: '/sleep' },
  { label: 'Daily Journal', to: paths.journal, section: paths.journal },
  { label: 'Community', to: paths.community.root, section: paths.community.root },
  { label: 'Library', to: paths.library.root, section: paths.library.root },
  { label: 'Clothes Frequency Calculator', to: paths.calculator, section: paths.calculator },
] as const;

export interface NavBarProps {
  onLogout: () => void;
  logoutPending?: boolean;
  /** Shows the Admin link (to /admin) beside Settings. */
  isAdmin?: boolean;
}

export function NavBar({ onLogout, logoutPending = false, isAdmin = false }: NavBarProps) {
  const { pathname } = useLocation();
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const toggleRef = useRef<HTMLButtonElement>(null);
  const menuRef = useRef<HTMLDivElement>(null);

  // The mobile menu closes when the page changes (a link, Back, a redirect): adjusted while
  // rendering (react.dev, "Adjusting some state when a prop changes").
  const [menuPath, setMenuPath] = useState(pathname);
  if (menuPath !== pathname) {
    setMenuPath(pathname);
    setOpen(false);
  }

  // And on Escape, which gives focus back to the Menu button when it was in the menu (a
  // hidden link would leave it on <body>).
  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      const focused = document.activeElement;
      if (!focused || focused === document.body || menuRef.current?.contains(focused)) toggleRef.current?.focus();
      setOpen(false);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [open]);

  const isActive = (section: string) => matchPath({ path: section, end: false }, pathname) !== null;
  const settingsActive = isActive(paths.settings);
  // With the Admin link too, the bar is full: Admin and Settings show as icons (named for
  // screen readers, and in a tooltip) at every width, as the bar is no wider than 1280 px
  // (their words from 1536 px on broke the admin's bar into two rows).
  const compact = (variant: 'bar' | 'menu') => isAdmin && variant === 'bar';
  const settingsLink = (variant: 'bar' | 'menu') => (
    <Link
      to={paths.settings}
      aria-current={settingsActive ? 'page' : undefined}
      onClick={() => setOpen(false)}
      title={compact(variant) ? 'Settings' : undefined}
      className={cn(
        'items-center gap-2 rounded-xl text-base font-medium transition-colors',
        variant === 'bar' ? 'hidden min-h-11 py-2.5 xl:inline-flex' : 'flex px-4 py-3',
        variant === 'bar' && (compact(variant) ? 'px-3' : 'px-4'),
        settingsActive
          ? 'bg-white/12 text-sand-200 shadow-[inset_0_-2px_0_var(--color-sand-300)]'
          : 'text-lavender-100 hover:bg-white/10 hover:text-white',
      )}
    >
      <Settings aria-hidden="true" className="size-5" />
      <span className={compact(variant) ? 'sr-only' : undefined}>Settings</span>
    </Link>
  );

  const adminActive = isActive(paths.admin.root);
  const adminLink = (variant: 'bar' | 'menu') =>
    isAdmin ? (
      <Link
        to={paths.admin.root}
        aria-current={adminActive ? 'page' : undefined}
        onClick={() => setOpen(false)}
        title={variant === 'bar' ? 'Admin' : undefined}
        className={cn(
          'items-center gap-2 rounded-xl text-base font-medium transition-colors',
          variant === 'bar' ? 'hidden min-h-11 px-3 py-2.5 xl:inline-flex' : 'flex px-4 py-3',
          adminActive
            ? 'bg-white/12 text-sand-200 shadow-[inset_0_-2px_0_var(--color-sand-300)]'
            : 'text-lavender-100 hover:bg-white/10 hover:text-white',
        )}
      >
        <ShieldCheck aria-hidden="true" className="size-5" />
        <span className={variant === 'bar' ? 'sr-only' : undefined}>Admin</span>
      </Link>
    ) : null;

  const items = (variant: 'bar' | 'menu') =>
    navItems.map((item) => {
      const active = isActive(item.section);
      return (
        <li key={item.to}>
          <Link
            to={item.to}
            aria-current={active ? 'page' : undefined}
            onClick={() => setOpen(false)}
            className={cn(
              'block rounded-xl text-base font-medium transition-colors',
              variant === 'bar' ? 'px-3 py-2' : 'px-4 py-3',
              active
                ? 'bg-white/12 text-sand-200 shadow-[inset_0_-2px_0_var(--color-sand-300)]'
                : 'text-lavender-100 hover:bg-white/8 hover:text-white',
            )}
          >
            {item.label}
          </Link>
        </li>
      );
    });

  return (
    <header
      className="surface-night sticky top-0 z-40 border-b border-white/10 bg-night-900 text-lavender-100 shadow-sm"
      // Tab past the menu's last item closes it: focus went on behind it, to what it covers.
      onBlur={(event) => {
        if (open && !event.currentTarget.contains(event.relatedTarget as Node | null)) setOpen(false);
      }}
    >
      <nav aria-label="Main" className="mx-auto max-w-7xl px-4 sm:px-6">
        {/* one row at 320 px (two left a thread at 400% zoom 32 px of messages); wraps with large
            text instead of widening the page */}
        <div className="flex min-h-16 flex-wrap items-center justify-between gap-x-2 sm:gap-x-4">
          {/* with text at 200% on a 390 px phone the name widened the page: it grows no
              wider than a phone's screen has room for, and breaks rather than widen it */}
          <Link
            to={paths.dashboard}
            className="flex min-w-0 items-center gap-2 rounded-xl py-1 pr-2 text-[min(1.25rem,6vw)] font-semibold tracking-tight wrap-anywhere text-white sm:gap-2.5"
          >
            <span className="grid size-9 shrink-0 place-items-center rounded-xl bg-sand-200 text-night-900">
              <Moon aria-hidden="true" className="size-5" />
            </span>
            Sleepweave
          </Link>

          <ul className="hidden items-center gap-1 xl:flex">{items('bar')}</ul>

          <div className="ml-auto flex items-center gap-2">
            {adminLink('bar')}
            {settingsLink('bar')}
            <Button
              variant="ghost"
              onClick={onLogout}
              pending={logoutPending}
              className="hidden text-lavender-100 hover:bg-white/10 hover:text-white xl:inline-flex"
            >
              {logoutPending ? null : <LogOut aria-hidden="true" className="size-5" />}
              Logout
            </Button>
            <Button
              ref={toggleRef}
              variant="ghost"
              aria-expanded={open}
              aria-controls={menuId}
              onClick={() => setOpen((o) => !o)}
              // narrower at 320 px, so the bar stays one row (two rows left a thread at 400% zoom 32 px of messages)
              className="px-3 text-lavender-100 hover:bg-white/10 hover:text-white sm:px-5 xl:hidden"
            >
              {open ? <X aria-hidden="true" className="size-6" /> : <Menu aria-hidden="true" className="size-6" />}
              Menu
            </Button>
          </div>
        </div>

        <div
          ref={menuRef}
          id={menuId}
          hidden={!open}
          className="max-h-[calc(100dvh-4rem)] overflow-y-auto border-t border-white/10 pt-2 pb-4 xl:hidden"
        >
          <ul className="grid gap-1">{items('menu')}</ul>
          <div className="mt-2 grid gap-1 border-t border-white/10 pt-3">
            {adminLink('menu')}
            {settingsLink('menu')}
            <Button
              variant="ghost"
              onClick={() => {
                setOpen(false);
                onLogout();
              }}
              pending={logoutPending}
              className="w-full justify-start px-4 text-lavender-100 hover:bg-white/10 hover:text-white"
            >
              {logoutPending ? null : <LogOut aria-hidden="true" className="size-5" />}
              Logout
            </Button>
          </div>
        </div>
      </nav>
    </header>
  );
}
