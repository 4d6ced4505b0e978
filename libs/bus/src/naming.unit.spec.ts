import { describe, expect, it } from 'vitest';
import { durableNameFor, normalizePrefix, streamNameFor, streamOfType, streamSubjectsFor, subjectFor } from './naming.ts';
import { redeliveryDelayMs } from './nats-bus.ts';

describe('bus naming', () => {
  it('prefixes streams, subjects and durables', () => {
    expect(streamNameFor('t1a2b', 'IDENTITY')).toBe('T1A2B_IDENTITY');
    expect(streamSubjectsFor('t1a2b', 'IDENTITY')).toBe('t1a2b.identity.>');
    expect(subjectFor('t1a2b', 'identity.user.registered')).toBe('t1a2b.identity.user.registered');
    expect(durableNameFor('t1a2b', 'study-identity-users')).toBe('t1a2b-study-identity-users');
  });

  it('uses the plain names without a prefix', () => {
    expect(streamNameFor('', 'RESEARCH')).toBe('RESEARCH');
    expect(streamSubjectsFor('', 'RESEARCH')).toBe('research.>');
    expect(subjectFor('', 'study.consent.given')).toBe('study.consent.given');
    expect(durableNameFor('', 'gateway-identity-sessions')).toBe('gateway-identity-sessions');
  });

  it('keeps durable names valid and prefixes well formed', () => {
    expect(durableNameFor('t1', 'a.b c*d>e')).toBe('t1-a-b-c-d-e');
    expect(normalizePrefix(undefined)).toBe('');
    expect(normalizePrefix(' T1A2B ')).toBe('t1a2b');
    expect(() => normalizePrefix('a.b')).toThrow(/invalid bus prefix/);
  });

  it('finds the stream of a wire type', () => {
    expect(streamOfType('identity.user.registered')).toBe('IDENTITY');
    expect(streamOfType('community.message.posted')).toBe('COMMUNITY');
    expect(streamOfType('research.export.ready')).toBe('RESEARCH');
    expect(streamOfType('nope.x.y')).toBeUndefined();
  });

  it('backs off redeliveries', () => {
    expect(redeliveryDelayMs(1)).toBe(250);
    expect(redeliveryDelayMs(2)).toBe(500);
    expect(redeliveryDelayMs(100)).toBe(30_000);
  });
});
