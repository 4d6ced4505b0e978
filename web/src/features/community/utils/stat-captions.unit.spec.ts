import { describe, expect, it } from 'vitest';
import { statCaptions } from './stat-captions';

describe('statCaptions', () => {
  it('invites at 0, says one at 1, and describes the number above that', () => {
    expect(statCaptions({ activeMembers: 0, discussionsToday: 0, sleepStudiesShared: 0 })).toEqual({
      activeMembers: 'No one has posted in the last 30 days yet: your message could be the first.',
      discussionsToday: 'A quiet day so far. Say hello in a thread.',
      sleepStudiesShared: 'No one has finished the 42 nights yet.',
    });
    expect(statCaptions({ activeMembers: 1, discussionsToday: 1, sleepStudiesShared: 1 })).toEqual({
      activeMembers: 'One member posted in the last 30 days.',
      discussionsToday: 'One thread has new messages today.',
      sleepStudiesShared: 'One participant has completed the 42-night study.',
    });
    expect(statCaptions({ activeMembers: 1247, discussionsToday: 23, sleepStudiesShared: 89 })).toEqual({
      activeMembers: 'Members who posted in the last 30 days.',
      discussionsToday: 'Threads with new messages today.',
      sleepStudiesShared: 'Participants who completed the 42-night study.',
    });
  });
});
