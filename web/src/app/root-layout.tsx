import { useEffect, useRef, useState } from 'react';
import { Outlet, ScrollRestoration, useLocation, useMatches, useNavigation } from 'react-router';
import { useSessionEndsElsewhere } from '../lib/auth';
import { focusOn, pageHeading } from '../lib/focus';
import { PageTitleContext } from './page-title';
import { useScrollBack } from './scroll-back';

export const APP_NAME = 'Sleepweave';

/** What a route may say about itself in the route table (`handle`). */
export interface RouteHandle {
  /** The page's name in the browser tab: "<title> · Sleepweave". */
  title?: string;
}

/** The title of the deepest matched route that names one. */
function routeTitle(matches: ReturnType<typeof useMatches>): string | undefined {
  for (let i = matches.length - 1; i >= 0; i -= 1) {
    const title = (matches[i]?.handle as RouteHandle | undefined)?.title;
    if (title) return title;
  }
  return undefined;
}

/** How long a page that is still loading may take to show its heading and still get the focus. */
const HEADING_WAIT_MS = 10_000;

/**
 * After a page change, focus goes to the page's main heading, so a screen reader reads the
 * new page and Tab starts from it. A page still loading (an article, a thread) has none yet:
 * the focus goes to its main region, and on to the heading when it comes, unless she has
 * moved it meanwhile. Returns what stops that wait.
 */
function focusNewPage(): () => void {
  const heading = pageHeading();
  if (heading) {
    focusOn(heading);
    return () => undefined;
  }
  const main = document.querySelector<HTMLElement>('main');
  if (!main) return () => undefined;
  focusOn(main);
  const observer = new MutationObserver(() => {
    const arrived = pageHeading();
    if (!arrived) return;
    stop();
    if (document.activeElement === main) focusOn(arrived);
  });
  const timer = setTimeout(() => stop(), HEADING_WAIT_MS);
  const stop = () => {
    observer.disconnect();
    clearTimeout(timer);
  };
  observer.observe(main, { childList: true, subtree: true });
  return stop;
}

/**
 * The next page on its way (its code loading, on a slow link): a thin bar along the top of
 * the window, from 0.2 s on (a quick change shows none). A tap on a menu item left the old
 * page as it was for seconds, as if nothing had happened.
 */
function PageOnItsWay() {
  if (useNavigation().state !== 'loading') return null;
  return (
    <div role="progressbar" aria-label="Loading the page" className="page-on-its-way fixed inset-x-0 top-0 z-[200] h-1 overflow-hidden">
      <div className="h-full w-1/3 bg-night-600 motion-safe:animate-[page-on-its-way_1.2s_ease-in-out_infinite] motion-reduce:w-full" />
    </div>
  );
}

/**
 * Every page (public and guarded): names it in the tab title, and announces a page change
 * by moving focus to the new page (not on the first load, where the browser starts at the
 * top of the document). New pages open at the top; Back restores where she was, once the
 * page is tall enough again (scroll-back.ts). Follows her session's end in her other tabs.
 */
export function RootLayout() {
  // her signing out or deleting her account in another tab ends this one's session too
  useSessionEndsElsewhere();
  useScrollBack();
  const { pathname } = useLocation();
  const routeName = routeTitle(useMatches());
  /** What the page itself is called, once it says (usePageTitle): a thread's or an article's name. */
  const [pageName, setPageName] = useState<string | null>(null);
  const title = pageName ?? routeName;
  const shownPath = useRef(pathname);

  useEffect(() => {
    document.title = title ? `${title} · ${APP_NAME}` : APP_NAME;
  }, [title]);

  useEffect(() => {
    if (shownPath.current === pathname) return;
    shownPath.current = pathname;
    return focusNewPage();
  }, [pathname]);

  return (
    <PageTitleContext value={setPageName}>
      <PageOnItsWay />
      <Outlet />
      <ScrollRestoration />
    </PageTitleContext>
  );
}
