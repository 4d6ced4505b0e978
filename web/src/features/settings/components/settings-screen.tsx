import type { LucideIcon } from 'lucide-react';
import { Eye, KeyRound, Trash2, UserRound } from 'lucide-react';
import type { ReactNode } from 'react';
import { Card } from '../../../components/ui/card';
import { LoadingState } from '../../../components/ui/states';
import { useUser } from '../../../lib/auth';
import { cn } from '../../../lib/utils';
import { ChangePasswordForm } from './change-password-form';
import { DataAccessSection } from './data-access-section';
import { DeleteAccountSection } from './delete-account-section';
import { ProfileForm } from './profile-form';

/** /settings: her profile, her password, who looked at her data, and deleting her account. */
export function SettingsScreen() {
  const { data: user } = useUser();
  if (!user) return <LoadingState text="Loading your settings..." />;

  return (
    <div className="mx-auto w-full max-w-3xl px-4 py-10 sm:px-6 lg:py-14">
      <header className="max-w-2xl">
        <h1 className="text-3xl font-semibold tracking-tight text-night-950 sm:text-4xl">Settings</h1>
        <p className="mt-3 text-lg text-night-700">Your profile, your password and your account.</p>
      </header>

      <div className="mt-10 grid gap-6">
        <Section
          id="profile"
          icon={UserRound}
          title="Profile"
          description="How we greet you, your timezone for the study, and the hormonal stage you're in."
        >
          <ProfileForm user={user} />
        </Section>
        <Section
          id="password"
          icon={KeyRound}
          title="Change password"
          description="You'll stay signed in here; your other devices will be signed out."
        >
          <ChangePasswordForm />
        </Section>
        <Section
          id="data-access"
          icon={Eye}
          title="Who looked at your data"
          description="Every time a study administrator opened your details or exported data that includes yours, and when."
        >
          <DataAccessSection />
        </Section>
        <Section id="delete" icon={Trash2} title="Delete account" description="Remove your account and everything in it." tone="danger">
          <DeleteAccountSection />
        </Section>
      </div>
    </div>
  );
}

function Section({
  id,
  icon: Icon,
  title,
  description,
  tone = 'default',
  children,
}: {
  id: string;
  icon: LucideIcon;
  title: string;
  description: string;
  tone?: 'default' | 'danger';
  children: ReactNode;
}) {
  const headingId = `settings-${id}-title`;
  return (
    <Card aria-labelledby={headingId} role="region" className={cn('p-6 sm:p-8', tone === 'danger' && 'border-rose-200')}>
      <div className="mb-6 flex items-start gap-4">
        <span
          className={cn(
            'grid size-11 shrink-0 place-items-center rounded-2xl',
            tone === 'danger' ? 'bg-rose-50 text-rose-700' : 'bg-night-100 text-night-700',
          )}
        >
          <Icon aria-hidden="true" className="size-5" />
        </span>
        <div className="grid gap-1">
          <h2 id={headingId} className="text-xl font-semibold text-night-950">
            {title}
          </h2>
          <p className="text-base text-night-700">{description}</p>
        </div>
      </div>
      {children}
    </Card>
  );
}
