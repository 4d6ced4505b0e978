// @vitest-environment happy-dom
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { maria } from '../../../testing/fixtures';
import { jsonResponse, renderWithProviders } from '../../../testing/render';
import { greeting, HomeScreen } from './home-screen';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('home screen', () => {
  it('holds the tiles while her study loads, so the study card does not push them down', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn<typeof fetch>(() => new Promise<Response>(() => undefined)),
    );
    renderWithProviders(<HomeScreen study={<p>Loading your study...</p>} studyPending />);

    expect(await screen.findByText('Loading your study...')).toBeTruthy();
    expect(screen.queryByRole('heading', { level: 2, name: /Sleep Study/ })).toBeNull();
    expect(screen.queryAllByRole('link')).toHaveLength(0);
  });

  it('shows the four tiles once her study is in', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn<typeof fetch>(() => new Promise<Response>(() => undefined)),
    );
    renderWithProviders(<HomeScreen study={<p>Your sleep study</p>} />);

    expect(await screen.findByText('Your sleep study')).toBeTruthy();
    expect(screen.getAllByRole('listitem')).toHaveLength(4);
  });

  it("greets her by the hour in her profile's zone, not the device's", async () => {
    // 11:30 UTC (the test's device clock) is 12:30 in Paris
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-12-07T11:30:00Z') });
    vi.stubGlobal(
      'fetch',
      vi.fn<typeof fetch>(async (input) =>
        String(input) === '/api/user' ? jsonResponse(200, { ...maria, timezone: 'Europe/Paris' }) : new Promise<Response>(() => undefined),
      ),
    );
    renderWithProviders(<HomeScreen study={<p>Your sleep study</p>} />);
    expect(await screen.findByRole('heading', { level: 1, name: `Good afternoon, ${maria.firstName}` })).toBeTruthy();
  });

  it('says good evening until the night ends at 04:00 (at 01:27 it said good morning), then morning, afternoon, evening', () => {
    expect([0, 1, 3, 4, 11, 12, 17, 18, 23].map(greeting)).toEqual([
      'Good evening',
      'Good evening',
      'Good evening',
      'Good morning',
      'Good morning',
      'Good afternoon',
      'Good afternoon',
      'Good evening',
      'Good evening',
    ]);
  });
});
