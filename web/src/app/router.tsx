import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { setUnauthorizedHandler } from '../lib/api-client';
import { createRoutes } from './routes';
import { createUnauthorizedHandler } from './unauthorized';

export function AppRouter() {
  const queryClient = useQueryClient();
  const router = useMemo(() => createBrowserRouter(createRoutes()), []);

  useEffect(() => setUnauthorizedHandler(createUnauthorizedHandler(queryClient, router)), [queryClient, router]);

  return <RouterProvider router={router} />;
}
