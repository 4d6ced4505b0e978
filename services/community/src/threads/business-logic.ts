import type { Decider } from '@sleepweave/event-store';
import { evolve, initialState, type ThreadEvent, type ThreadState } from './thread.ts';

export type CreateThread = {
  type: 'CreateThread';
  data: { threadId: string; name: string; isDirect: boolean; pinned: boolean; now: Date };
};
export type ThreadCommand = CreateThread;

export class ThreadAlreadyExists extends Error {
  override name = 'ThreadAlreadyExists';
}

export function createThread(command: CreateThread, state: ThreadState): ThreadEvent[] {
  if (state.status !== 'none') throw new ThreadAlreadyExists('This thread already exists');
  const { now, ...data } = command.data;
  return [{ type: 'ThreadCreated', data: { ...data, createdAt: now.toISOString() } }];
}

export function decide(command: ThreadCommand, state: ThreadState): ThreadEvent[] {
  switch (command.type) {
    case 'CreateThread':
      return createThread(command, state);
    default: {
      const exhaustive: never = command.type;
      throw new Error(`Unknown command ${JSON.stringify(exhaustive)}`);
    }
  }
}

export const threadDecider: Decider<ThreadCommand, ThreadState, ThreadEvent> = { decide, evolve, initialState };
