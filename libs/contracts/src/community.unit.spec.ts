import { describe, expect, it } from 'vitest';
import { CreateMessageRequest, CreateThreadRequest, WELCOME_THREAD_NAME } from './community.ts';
import { ClientSocketMessage, ServerSocketMessage } from './sockets.ts';

const threadId = '5d1f3c2a-7a4e-4b8e-9a51-2f0d6c7e8a10';

describe('CreateThreadRequest', () => {
  it('trims the name and bounds it to 1-120 characters', () => {
    expect(CreateThreadRequest.parse({ name: '  Linen  ' })).toEqual({ name: 'Linen' });
    expect(CreateThreadRequest.safeParse({ name: '   ' }).error?.issues[0]?.message).toBe('Please enter a name for your thread.');
    expect(CreateThreadRequest.safeParse({ name: 'n'.repeat(120) }).success).toBe(true);
    expect(CreateThreadRequest.safeParse({ name: 'n'.repeat(121) }).success).toBe(false);
    expect(CreateThreadRequest.safeParse({}).error?.issues[0]?.message).toBe('Please enter a name for your thread.');
    expect(CreateThreadRequest.safeParse({ name: 7 }).error?.issues[0]?.message).toBe('Thread name must be text');
  });

  it('refuses a name with nothing to see, control characters or bidi overrides (shown other than it is)', () => {
    for (const name of ['\u200B', '\u3164', '\u2800 \u200B', '\uFEFF', '\u034F', '\uFE0F'])
      expect(CreateThreadRequest.safeParse({ name }).error?.issues[0]?.message, JSON.stringify(name)).toBe(
        'Please enter a name for your thread.',
      );
    for (const name of ['\u202Egnp.exe', 'a\u0007b', 'one\ntwo', 'a\u2066b'])
      expect(CreateThreadRequest.safeParse({ name }).error?.issues[0]?.message, JSON.stringify(name)).toBe(
        'Thread name must be one line of text, without control characters',
      );
    expect(CreateThreadRequest.parse({ name: 'Nuits de lin 🌙 ليلة' }).name).toBe('Nuits de lin 🌙 ليلة');
  });

  it("refuses a name that reads as the study team's welcome thread, and takes others that name Sleepweave", () => {
    for (const name of [
      WELCOME_THREAD_NAME,
      'welcome to the SLEEPWEAVE community!',
      'Welcome to Sleepvveave',
      'Welc\u043Eme to the Sleepweave Community', // a Cyrillic o
      '📌 Welcome to the Sleepweave Community (official)',
    ])
      expect(CreateThreadRequest.safeParse({ name }).error?.issues[0]?.message, name).toBe(
        'Thread name must not read as the study team\'s "Welcome to the Sleepweave Community"',
      );
    // (an outside tester found these refused while "welcome" and "Sleepweave" were enough)
    for (const name of [
      'Linen in the Sleepweave study',
      'Welcome, new linen sleepers',
      'Sleepweave welcomes you',
      'Our Sleepweave welcome packs arrived late',
      'Unwelcome night sweats in the Sleepweave study',
      'Sleepweave: is linen welcome in summer?',
    ])
      expect(CreateThreadRequest.safeParse({ name }).success, name).toBe(true);
  });

  it("refuses a character with more marks stacked on it than any writing has (it drew over the page), and takes every writing's", () => {
    const stacked = `e${'\u0301'.repeat(9)}`;
    expect(CreateThreadRequest.safeParse({ name: `Linen ${stacked}` }).error?.issues[0]?.message).toBe(
      'Thread name has a character with more than 8 accents or marks on it',
    );
    expect(CreateMessageRequest.safeParse({ threadId, body: `e${'\u0301'.repeat(3000)}` }).error?.issues[0]?.message).toBe(
      'Message has a character with more than 8 accents or marks on it',
    );
    // Vietnamese, Hindi, Tibetan, Thai
    for (const name of ['Nguyễn Thị Ánh', 'नींद अच्छी', 'བསྒྲུབས', 'นอนหลับ', `e${'\u0301'.repeat(8)}`])
      expect(CreateThreadRequest.safeParse({ name }).success, name).toBe(true);
  });
});

describe('CreateMessageRequest', () => {
  it('keeps inner new lines, trims the ends, refuses blank and over 4,000 characters', () => {
    expect(CreateMessageRequest.parse({ threadId, body: '\n one\ntwo \n' }).body).toBe('one\ntwo');
    expect(CreateMessageRequest.safeParse({ threadId, body: ' \n\t ' }).error?.issues[0]?.message).toBe('Message must not be empty');
    expect(CreateMessageRequest.safeParse({ threadId, body: 'b'.repeat(4_000) }).success).toBe(true);
    expect(CreateMessageRequest.safeParse({ threadId, body: 'b'.repeat(4_001) }).success).toBe(false);
    expect(CreateMessageRequest.safeParse({ threadId: 'x', body: 'hi' }).error?.issues[0]?.path).toEqual(['threadId']);
    // missing is empty; a number is not text
    expect(CreateMessageRequest.safeParse({ threadId }).error?.issues[0]?.message).toBe('Message must not be empty');
    expect(CreateMessageRequest.safeParse({ threadId, body: 12345 }).error?.issues[0]?.message).toBe('Message must be text');
  });

  it('refuses a body with nothing to see (an empty bubble) and control characters but new lines and tabs', () => {
    for (const body of ['\u200B', '\u3164', '\u2800', '\u200B\n\u200B'])
      expect(CreateMessageRequest.safeParse({ threadId, body }).error?.issues[0]?.message, JSON.stringify(body)).toBe(
        'Message must not be empty',
      );
    expect(CreateMessageRequest.safeParse({ threadId, body: 'a\u0007b' }).error?.issues[0]?.message).toBe(
      'Message must be plain text, without control characters',
    );
    expect(CreateMessageRequest.parse({ threadId, body: 'one\r\n\ttwo 🌙' }).body).toBe('one\r\n\ttwo 🌙');
  });

  it('refuses the bidi embeddings and overrides that would show the words after them reversed, and keeps the isolates', () => {
    for (const body of ['\u202Eevil text reversed', 'see file \u202Dtxt.exe', 'a\u202Ab\u202C'])
      expect(CreateMessageRequest.safeParse({ threadId, body }).error?.issues[0]?.message, JSON.stringify(body)).toBe(
        'Message must be plain text, without control characters',
      );
    // Hebrew and Arabic need none of them; an isolate around a mixed phrase stays as written
    for (const body of ['לילה טוב, sleep well', 'نوم هادئ', 'quote: \u2067שלום\u2069 ok'])
      expect(CreateMessageRequest.parse({ threadId, body }).body, body).toBe(body);
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
