import { NIGHT_ENDS_AT_HOUR, wallClockIn } from '@sleepweave/contracts';
import { ArrowRight, BookOpen, Moon, NotebookPen, Users, type LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { paths } from '../../../config/paths';
import { useUser } from '../../../lib/auth';
import { TimezoneNotice } from './timezone-notice';

interface Tile {
  title: string;
  description: string;
  to: string;
  icon: LucideIcon;
  tint: string;
}

/** The four tiles of the home page (docs/product.md §1). */
const tiles: Tile[] = [
  {
    title: 'Sleep Study',
    description: 'Take part in the 42-day sleepwear study and log how you sleep each night.',
    to: paths.sleep.consent,
    icon: Moon,
    tint: 'bg-night-100 text-night-700',
  },
  {
    title: 'Daily Journal',
    description: 'A few quiet minutes for today’s affirmation, gratitude and forgiveness.',
    to: paths.journal,
    icon: NotebookPen,
    tint: 'bg-sand-100 text-sand-700',
  },
  {
    title: 'Library',
    description: 'Read about natural fabrics, sleep tips and the research behind the study.',
    to: paths.library.root,
    icon: BookOpen,
    tint: 'bg-lavender-100 text-night-700',
  },
  {
    title: 'Community',
    description: 'Share experiences and find support among women on the same path.',
    to: paths.community.root,
    icon: Users,
    tint: 'bg-sand-100 text-sand-700',
  },
];

/** By her clock; the small hours are still the evening's night (it ends at 04:00, as the study's nights do). */
export function greeting(hour: number): string {
  if (hour < NIGHT_ENDS_AT_HOUR) return 'Good evening';
  if (hour < 12) return 'Good morning';
  if (hour < 18) return 'Good afternoon';
  return 'Good evening';
}

export interface HomeScreenProps {
  /** Where she is in the sleep study (shown above the tiles; nothing before she joins). */
  study?: ReactNode;
  /** The Sleep Study tile as it fits where she is (joined, complete). */
  sleepStudyTile?: { description: string; to: string };
  /**
   * Where she is in the study is still loading: the tiles wait with it, so the card that
   * comes above them does not push them down once they are on screen (a layout shift).
   */
  studyPending?: boolean;
}

/** The home page: a greeting, where she is in the study, and the four tiles. */
export function HomeScreen({ study, sleepStudyTile, studyPending = false }: HomeScreenProps = {}) {
  const { data: user } = useUser();
  const shown = tiles.map((tile) => (tile.title === 'Sleep Study' && sleepStudyTile ? { ...tile, ...sleepStudyTile } : tile));
  // the hour where she lives (her profile's zone, as every day of her study), not the device's
  const hello = greeting(user ? wallClockIn(user.timezone, new Date()).hour : new Date().getHours());

  return (
    <div className="mx-auto w-full max-w-5xl px-4 py-10 sm:px-6 lg:py-14">
      <header className="max-w-2xl">
        <h1 className="text-3xl font-semibold tracking-tight text-night-950 sm:text-4xl">{user ? `${hello}, ${user.firstName}` : hello}</h1>
        <p className="mt-3 text-lg text-night-700">Welcome to your space for rest and reflection. Where would you like to begin?</p>
      </header>

      <TimezoneNotice className="mt-8" />

      {study ? <div className="mt-8">{study}</div> : null}

      {studyPending ? null : (
        <ul className="mt-10 grid gap-5 sm:grid-cols-2">
          {shown.map(({ title, description, to, icon: Icon, tint }) => (
            <li key={title}>
              <Link
                to={to}
                className="group flex h-full flex-wrap items-start gap-5 rounded-3xl border border-night-100 bg-white/90 p-6 shadow-sm shadow-night-900/5 transition hover:-translate-y-0.5 hover:border-night-200 hover:shadow-md sm:p-7"
              >
                <span className={`grid size-14 shrink-0 place-items-center rounded-2xl ${tint}`}>
                  <Icon aria-hidden="true" className="size-7" />
                </span>
                {/* beside the icon, or below it when her text is too large for both */}
                <div className="grid grow basis-48 gap-1.5">
                  <h2 className="flex flex-wrap items-center gap-2 text-xl font-semibold text-night-950">
                    {title}
                    <ArrowRight
                      aria-hidden="true"
                      className="size-5 text-night-400 transition group-hover:translate-x-0.5 group-hover:text-night-700"
                    />
                  </h2>
                  <span className="text-base text-night-700">{description}</span>
                </div>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
