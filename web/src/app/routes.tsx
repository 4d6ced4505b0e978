import type { RouteObject } from 'react-router';
import { AppLayout } from '../components/layouts/app-layout';
import { FullPageSpinner } from '../components/ui/spinner';
import { paths } from '../config/paths';
import { ProtectedRoute } from './protected-route';
import { RootLayout, type RouteHandle } from './root-layout';
import { PageError, RouteError } from './routes/route-error';

const home = () => import('./routes/home');
const sleepDashboard = () => import('./routes/sleep-dashboard');
/** The page's name in the browser tab ("Daily Journal · Sleepweave", app/root-layout.tsx). */
const titled = (title: string): RouteHandle => ({ title });

/**
 * The route table (docs/product.md §2). Guarded paths that later issues build
 * (/sleep/consent, /journal, /community, /library, /calculator ...) are added with their
 * features; until then they fall to the not-found screen.
 */
export function createRoutes(): RouteObject[] {
  return [
    {
      id: 'root',
      Component: RootLayout,
      HydrateFallback: FullPageSpinner,
      ErrorBoundary: RouteError,
      children: [
        { path: paths.auth, handle: titled('Sign In'), lazy: () => import('./routes/auth') },
        { path: paths.resetPassword, handle: titled('Reset Password'), lazy: () => import('./routes/reset-password') },
        {
          element: (
            <ProtectedRoute>
              <AppLayout />
            </ProtectedRoute>
          ),
          children: [
            {
              // a screen that fails to load or render is said so under the nav bar, which stays
              ErrorBoundary: PageError,
              children: [
                { index: true, handle: titled('Home'), lazy: home },
                { path: paths.dashboard, handle: titled('Home'), lazy: home },
                { path: paths.sleep.consent, handle: titled('Sleep Study Consent'), lazy: () => import('./routes/sleep-consent') },
                { path: paths.sleep.log, handle: titled('Sleep Log'), lazy: () => import('./routes/sleep-log') },
                { path: paths.sleep.root, handle: titled('Sleep Dashboard'), lazy: sleepDashboard },
                { path: paths.sleep.dashboard, handle: titled('Sleep Dashboard'), lazy: sleepDashboard },
                { path: paths.sleep.charts, handle: titled('Sleep Analytics'), lazy: () => import('./routes/sleep-charts') },
                { path: paths.sleep.export, handle: titled('Export Sleep Data'), lazy: () => import('./routes/sleep-export') },
                {
                  path: paths.sleep.weeklyReport,
                  handle: titled('Weekly Sleep Report'),
                  lazy: () => import('./routes/sleep-weekly-report'),
                },
                { path: paths.settings, handle: titled('Settings'), lazy: () => import('./routes/settings') },
                { path: paths.community.root, handle: titled('Community'), lazy: () => import('./routes/community') },
                {
                  path: `${paths.community.root}/thread/:id`,
                  handle: titled('Community Thread'),
                  lazy: () => import('./routes/community-thread'),
                },
                { path: paths.journal, handle: titled('Daily Journal'), lazy: () => import('./routes/journal') },
                { path: paths.calculator, handle: titled('Clothes Frequency Calculator'), lazy: () => import('./routes/calculator') },
                { path: paths.library.root, handle: titled('Knowledge Library'), lazy: () => import('./routes/library') },
                {
                  path: `${paths.library.root}/article/:id`,
                  handle: titled('Library Article'),
                  lazy: () => import('./routes/library-article'),
                },
                { path: paths.admin.root, handle: titled('Admin Dashboard'), lazy: () => import('./routes/admin') },
                { path: paths.admin.research, handle: titled('Research Runs'), lazy: () => import('./routes/admin-research') },
                { path: paths.admin.audit, handle: titled('Audit Trail'), lazy: () => import('./routes/admin-audit') },
              ],
            },
          ],
        },
        { path: '*', handle: titled('Page Not Found'), lazy: () => import('./routes/not-found') },
      ],
    },
  ];
}
