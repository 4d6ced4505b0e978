// @vitest-environment happy-dom
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../../testing/render';
import { HomeScreen } from './home-screen';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
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
});
