import { Moon } from 'lucide-react';
import { Link } from 'react-router';
import { paths } from '../../config/paths';

/** Any path the route table does not know. */
export function Component() {
  return (
    <main className="mx-auto flex min-h-dvh max-w-lg flex-col items-center justify-center gap-5 px-6 text-center">
      <span className="grid size-16 place-items-center rounded-3xl bg-night-100 text-night-700">
        <Moon aria-hidden="true" className="size-8" />
      </span>
      <h1 className="text-3xl font-semibold text-night-950">404 Page Not Found</h1>
      <p className="text-lg text-night-700">This page has drifted off. Let&apos;s get you back somewhere restful.</p>
      <Link
        to={paths.home}
        className="inline-flex min-h-12 items-center rounded-xl bg-night-700 px-6 py-3 text-lg font-medium text-white hover:bg-night-800"
      >
        Go to home
      </Link>
    </main>
  );
}
