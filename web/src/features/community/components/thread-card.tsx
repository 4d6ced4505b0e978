import type { ThreadListItem } from '@sleepweave/contracts';
import { Clock, Pin, Users } from 'lucide-react';
import { Link } from 'react-router';
import { paths } from '../../../config/paths';
import { messagePreview } from '../utils/display';
import { relativeTime } from '../utils/relative-time';

/** The member count; a thread nobody has joined yet invites instead of saying '0 members'. */
const members = (count: number) =>
  count === 0 ? 'Be the first to join' : `${count.toLocaleString('en-US')} ${count === 1 ? 'member' : 'members'}`;

/** One thread in the list: opens the thread. */
export function ThreadCard({ thread, now }: { thread: ThreadListItem; now: Date }) {
  const activeAt = thread.lastMessage?.createdAt ?? thread.createdAt;
  return (
    <Link
      to={paths.community.thread(thread.id)}
      className="group grid gap-2 rounded-3xl border border-night-100 bg-white/90 p-5 shadow-sm shadow-night-900/5 transition hover:-translate-y-0.5 hover:border-night-200 hover:shadow-md sm:p-6"
    >
      <div className="flex items-start justify-between gap-3">
        <h3 dir="auto" className="min-w-0 text-lg font-semibold [overflow-wrap:anywhere] text-night-950 group-hover:text-night-700">
          {thread.name}
        </h3>
        {thread.pinned ? (
          <span className="inline-flex shrink-0 items-center gap-1 rounded-full bg-sand-100 px-2.5 py-0.5 text-sm font-medium text-sand-700">
            <Pin aria-hidden="true" className="size-3.5" />
            Pinned
          </span>
        ) : null}
      </div>
      <p dir="auto" className="text-base [overflow-wrap:anywhere] text-night-700">
        {thread.lastMessage ? messagePreview(thread.lastMessage.body) : <span className="italic text-night-500">No messages yet</span>}
      </p>
      <span className="flex flex-wrap items-center gap-x-5 gap-y-1 text-sm text-night-600">
        <span className="inline-flex items-center gap-1.5">
          <Users aria-hidden="true" className="size-4" />
          {members(thread.memberCount)}
        </span>
        <span className="inline-flex items-center gap-1.5">
          <Clock aria-hidden="true" className="size-4" />
          <time dateTime={activeAt}>{relativeTime(activeAt, now)}</time>
        </span>
      </span>
    </Link>
  );
}
