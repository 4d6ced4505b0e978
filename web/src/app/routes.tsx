import type { RouteObject } from 'react-router';
import { AppLayout } from '../components/layouts/app-layout';
import { FullPageSpinner } from '../components/ui/spinner';
import { paths } from '../config/paths';
import { ProtectedRoute } from './protected-route';
import { RouteError } from './routes/route-error';

const home = () => import('./routes/home');
const sleepDashboard = () => import('./routes/sleep-dashboard');

/**
 * The route table (spec section 2). Guarded paths that later issues build
 * (/sleep/consent, /journal, /community, /library, /calculator ...) are added with their
 * features; until then they fall to the not-found screen.
 */
export function createRoutes(): RouteObject[] {
  return [
    {
      id: 'root',
      HydrateFallback: FullPageSpinner,
      ErrorBoundary: RouteError,
      children: [
        { path: paths.auth, lazy: () => import('./routes/auth') },
        { path: paths.resetPassword, lazy: () => import('./routes/reset-password') },
        {
          element: (
            <ProtectedRoute>
              <AppLayout />
            </ProtectedRoute>
          ),
          children: [
            { index: true, lazy: home },
            { path: paths.dashboard, lazy: home },
            { path: paths.sleep.consent, lazy: () => import('./routes/sleep-consent') },
            { path: paths.sleep.log, lazy: () => import('./routes/sleep-log') },
            { path: paths.sleep.root, lazy: sleepDashboard },
            { path: paths.sleep.dashboard, lazy: sleepDashboard },
            { path: paths.sleep.charts, lazy: () => import('./routes/sleep-charts') },
            { path: paths.sleep.weeklyReport, lazy: () => import('./routes/sleep-weekly-report') },
            { path: paths.settings, lazy: () => import('./routes/settings') },
            { path: paths.community.root, lazy: () => import('./routes/community') },
            { path: `${paths.community.root}/thread/:id`, lazy: () => import('./routes/community-thread') },
            { path: paths.journal, lazy: () => import('./routes/journal') },
            { path: paths.calculator, lazy: () => import('./routes/calculator') },
            { path: paths.library.root, lazy: () => import('./routes/library') },
            { path: `${paths.library.root}/article/:id`, lazy: () => import('./routes/library-article') },
          ],
        },
        { path: '*', lazy: () => import('./routes/not-found') },
      ],
    },
  ];
}
