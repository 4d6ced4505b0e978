// @vitest-environment happy-dom
import { cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { maria } from '../../../testing/fixtures';
import { jsonResponse, renderWithProviders } from '../../../testing/render';
import { clocksDiffer, offsetIn, TimezoneNotice } from './timezone-notice';

const winter = new Date('2026-01-15T12:00:00Z');
const summer = new Date('2026-07-15T12:00:00Z');

describe('clocksDiffer', () => {
  it('compares what the clocks show now, not the zones’ names', () => {
    expect(clocksDiffer('America/New_York', 'Europe/London', winter)).toBe(true);
    expect(clocksDiffer('Europe/London', 'Europe/Dublin', summer)).toBe(false);
    expect(clocksDiffer('America/New_York', 'America/Toronto', winter)).toBe(false);
    // London keeps UTC's time in winter only
    expect(clocksDiffer('Europe/London', 'UTC', winter)).toBe(false);
    expect(clocksDiffer('Europe/London', 'UTC', summer)).toBe(true);
    // Arizona keeps Denver's time in winter only
    expect(clocksDiffer('America/Denver', 'America/Phoenix', winter)).toBe(false);
    expect(clocksDiffer('America/Denver', 'America/Phoenix', summer)).toBe(true);
  });

  it('says nothing when the device gives no zone, or one this browser does not know', () => {
    expect(clocksDiffer('America/New_York', undefined, winter)).toBe(false);
    expect(clocksDiffer('America/New_York', 'Mars/Olympus_Mons', winter)).toBe(false);
    expect(offsetIn('Mars/Olympus_Mons', winter)).toBeNull();
    expect(offsetIn('America/New_York', winter)).toBe('GMT-05:00');
  });
});

describe('TimezoneNotice (home)', () => {
  beforeEach(() => {
    window.localStorage.clear();
    vi.stubGlobal(
      'fetch',
      vi.fn<typeof fetch>(async () => jsonResponse(200, maria)),
    );
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('asks when this device is on another clock than her profile, with a way to change it', async () => {
    renderWithProviders(<TimezoneNotice now={winter} device="Europe/London" />);
    expect(await screen.findByRole('heading', { name: 'Is your time zone right?' })).toBeTruthy();
    expect(
      screen.getByText(
        "Your profile is set to Eastern Time (America/New_York), but this device is on another clock (Europe/London). Your nights end at 04:00, and your journal days at midnight, in your profile's time zone.",
      ),
    ).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Change it in Settings' }).getAttribute('href')).toBe('/settings');
  });

  it('is not shown when the clocks agree', async () => {
    renderWithProviders(
      <>
        <p>loaded</p>
        <TimezoneNotice now={winter} device="America/Toronto" />
      </>,
    );
    await screen.findByText('loaded');
    // her user is in: the notice would be there by now
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole('heading', { name: 'Is your time zone right?' })).toBeNull();
  });

  it('once she keeps her zone, is not shown again on this device for the same two zones', async () => {
    const { unmount } = renderWithProviders(<TimezoneNotice now={winter} device="Europe/London" />);
    await userEvent.click(await screen.findByRole('button', { name: 'Keep Eastern Time (America/New_York)' }));
    expect(screen.queryByRole('heading', { name: 'Is your time zone right?' })).toBeNull();
    unmount();
    renderWithProviders(<TimezoneNotice now={winter} device="Europe/London" />);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole('heading', { name: 'Is your time zone right?' })).toBeNull();
    // on another clock again (she travels on), it asks again
    cleanup();
    renderWithProviders(<TimezoneNotice now={winter} device="Europe/Paris" />);
    expect(await screen.findByRole('heading', { name: 'Is your time zone right?' })).toBeTruthy();
  });
});
