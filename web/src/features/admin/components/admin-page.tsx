import type { ReactNode } from 'react';

/** The frame of the admin pages: heading, lead, actions (links, buttons). */
export function AdminPage({ title, lead, actions, children }: { title: string; lead: string; actions?: ReactNode; children: ReactNode }) {
  return (
    <div className="mx-auto grid w-full max-w-7xl gap-8 px-4 py-10 sm:px-6 lg:py-14">
      <header className="flex flex-col gap-5 lg:flex-row lg:items-end lg:justify-between">
        <div className="max-w-2xl">
          <h1 className="text-3xl font-semibold tracking-tight text-night-950 sm:text-4xl">{title}</h1>
          <p className="mt-3 text-lg text-night-700">{lead}</p>
        </div>
        {actions}
      </header>
      {children}
    </div>
  );
}
