import type { CommunityStats } from '@sleepweave/contracts';

/**
 * A line under each Community Stats number that is true and kind at any size: at 0 it
 * says the community is new and invites her, at 1 it says one, never "members" for one
 * person (definitions in docs/community.md). Pure.
 */
export function statCaptions(stats: Pick<CommunityStats, 'activeMembers' | 'discussionsToday' | 'sleepStudiesShared'>) {
  const { activeMembers, discussionsToday, sleepStudiesShared } = stats;
  return {
    activeMembers:
      activeMembers === 0
        ? 'No one has posted in the last 30 days yet: your message could be the first.'
        : activeMembers === 1
          ? 'One member posted in the last 30 days.'
          : 'Members who posted in the last 30 days.',
    discussionsToday:
      discussionsToday === 0
        ? 'A quiet day so far. Say hello in a thread.'
        : discussionsToday === 1
          ? 'One thread has new messages today.'
          : 'Threads with new messages today.',
    sleepStudiesShared:
      sleepStudiesShared === 0
        ? 'No one has finished the 42 nights yet.'
        : sleepStudiesShared === 1
          ? 'One participant has completed the 42-night study.'
          : 'Participants who completed the 42-night study.',
  };
}
