import { STUDY_TEAM_ID } from '@sleepweave/contracts';
import type { Decider } from '@sleepweave/event-store';
import { evolve, initialState, type ThreadEvent, type ThreadState } from './thread.ts';

export type CreateThread = {
  type: 'CreateThread';
  data: { threadId: string; name: string; isDirect: boolean; pinned: boolean; now: Date };
};
/** The study team posts a message with a fixed id: posting it again changes nothing. */
export type PostTeamMessage = {
  type: 'PostTeamMessage';
  data: { threadId: string; messageId: string; body: string; now: Date };
};
export type ThreadCommand = CreateThread | PostTeamMessage;

export class ThreadAlreadyExists extends Error {
  override name = 'ThreadAlreadyExists';
}
/** A team message for a thread that does not exist (yet). */
export class TeamThreadMissing extends Error {
  override name = 'TeamThreadMissing';
}

export function createThread(command: CreateThread, state: ThreadState): ThreadEvent[] {
  if (state.status !== 'none') throw new ThreadAlreadyExists('This thread already exists');
  const { now, ...data } = command.data;
  return [{ type: 'ThreadCreated', data: { ...data, createdAt: now.toISOString() } }];
}

export function postTeamMessage(command: PostTeamMessage, state: ThreadState): ThreadEvent[] {
  if (state.status !== 'open') throw new TeamThreadMissing('No such thread');
  const { threadId, messageId, body, now } = command.data;
  if (state.teamMessageIds.includes(messageId)) return [];
  return [{ type: 'TeamMessagePosted', data: { messageId, threadId, senderId: STUDY_TEAM_ID, body, postedAt: now.toISOString() } }];
}

export function decide(command: ThreadCommand, state: ThreadState): ThreadEvent[] {
  switch (command.type) {
    case 'CreateThread':
      return createThread(command, state);
    case 'PostTeamMessage':
      return postTeamMessage(command, state);
    default: {
      const exhaustive: never = command;
      throw new Error(`Unknown command ${JSON.stringify(exhaustive)}`);
    }
  }
}

export const threadDecider: Decider<ThreadCommand, ThreadState, ThreadEvent> = { decide, evolve, initialState };
