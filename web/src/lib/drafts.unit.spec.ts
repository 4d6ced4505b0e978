// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { dropDrafts, keepDraft, sweepDrafts, takeDraft } from './drafts';

const her = '6f1c2a52-3c1e-4a53-9a0e-0a7c7c1d2f11';
const other = '9b2e6f1c-4d3a-4c8b-8e7f-1a2b3c4d5e6f';

afterEach(() => {
  window.sessionStorage.clear();
  vi.useRealTimers();
});

describe('drafts', () => {
  it('gives a draft back once, to the user who wrote it', () => {
    keepDraft('journal', her, { gratitude: 'Linen' });
    expect(takeDraft('journal', her)).toEqual({ gratitude: 'Linen' });
    expect(takeDraft('journal', her)).toBeNull();
    keepDraft('journal', her, { gratitude: 'Linen' });
    expect(takeDraft('journal', other)).toBeNull();
    expect(takeDraft('journal', her)).toBeNull(); // dropped when another user met it
  });

  it('keeps a draft a day at most', () => {
    vi.useFakeTimers({ now: new Date('2026-11-29T10:00:00Z') });
    keepDraft('message:a', her, 'Hello');
    vi.setSystemTime(new Date('2026-11-30T10:00:01Z'));
    expect(takeDraft('message:a', her)).toBeNull();
  });

  it('sweeps what is not hers or is past its day, keeping hers', () => {
    vi.useFakeTimers({ now: new Date('2026-11-29T10:00:00Z') });
    keepDraft('message:old', her, 'Yesterday');
    vi.setSystemTime(new Date('2026-11-30T10:00:01Z'));
    keepDraft('message:a', other, 'Not hers');
    keepDraft('journal', her, { gratitude: 'Linen' });
    window.sessionStorage.setItem('sleepweave:draft:broken', '{');
    sweepDrafts(her);
    expect(Object.keys(window.sessionStorage).sort()).toEqual(['sleepweave:draft:journal']);
  });

  it('drops every draft of the tab, and only drafts', () => {
    window.sessionStorage.setItem('something-else', 'kept');
    keepDraft('journal', her, { gratitude: 'Linen' });
    keepDraft('message:a', her, 'Hello');
    dropDrafts();
    expect(takeDraft('journal', her)).toBeNull();
    expect(takeDraft('message:a', her)).toBeNull();
    expect(window.sessionStorage.getItem('something-else')).toBe('kept');
  });
});
