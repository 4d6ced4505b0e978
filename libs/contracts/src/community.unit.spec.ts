import { describe, expect, it } from 'vitest';
import { CreateMessageRequest, CreateThreadRequest } from './community.ts';
import { ClientSocketMessage, ServerSocketMessage } from './sockets.ts';

const threadId = '5d1f3c2a-7a4e-4b8e-9a51-2f0d6c7e8a10';

describe('CreateThreadRequest', () => {
  it('trims the name and bounds it to 1-120 characters', () => {
    expect(CreateThreadRequest.parse({ name: '  Linen  ' })).toEqual({ name: 'Linen' });
    expect(CreateThreadRequest.safeParse({ name: '   ' }).error?.issues[0]?.message).toBe('Please enter a name for your thread.');
    expect(CreateThreadRequest.safeParse({ name: 'n'.repeat(120) }).success).toBe(true);
    expect(CreateThreadRequest.safeParse({ name: 'n'.repeat(121) }).success).toBe(false);
  });
});

describe('CreateMessageRequest', () => {
  it('keeps inner new lines, trims the ends, refuses blank and over 4,000 characters', () => {
    expect(CreateMessageRequest.parse({ threadId, body: '\n one\ntwo \n' }).body).toBe('one\ntwo');
    expect(CreateMessageRequest.safeParse({ threadId, body: ' \n\t ' }).error?.issues[0]?.message).toBe('Message must not be empty');
    expect(CreateMessageRequest.safeParse({ threadId, body: 'b'.repeat(4_000) }).success).toBe(true);
    expect(CreateMessageRequest.safeParse({ threadId, body: 'b'.repeat(4_001) }).success).toBe(false);
    expect(CreateMessageRequest.safeParse({ threadId: 'x', body: 'hi' }).error?.issues[0]?.path).toEqual(['threadId']);
  });
});

describe('socket messages', () => {
  it('accept join_thread with a thread id and refuse anything else', () => {
    expect(ClientSocketMessage.safeParse({ type: 'join_thread', threadId }).success).toBe(true);
    expect(ClientSocketMessage.safeParse({ type: 'join_thread', threadId: 'nope' }).success).toBe(false);
    expect(ClientSocketMessage.safeParse({ type: 'shout' }).success).toBe(false);
    expect(
      ServerSocketMessage.safeParse({ type: 'new_message', threadId, message: { id: threadId, senderId: threadId, createdAt: 'now' } })
        .success,
    ).toBe(true);
  });
});
