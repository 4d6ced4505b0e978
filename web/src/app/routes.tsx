import type { RouteObject } from 'react-router';
import { AppLayout } from '../components/layouts/app-layout';
import { FullPageSpinner } from '../components/ui/spinner';
import { paths } from '../config/paths';
import { ProtectedRoute } from './protected-route';
import { RouteError } from './routes/route-error';

const home = () => import('./routes/home');

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
        {
          element: (
            <ProtectedRoute>
              <AppLayout />
            </ProtectedRoute>
          ),
          children: [
            { index: true, lazy: home },
            { path: paths.dashboard, lazy: home },
          ],
        },
        { path: '*', lazy: () => import('./routes/not-found') },
      ],
    },
  ];
}
