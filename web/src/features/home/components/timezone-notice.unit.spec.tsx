// @vitest-environment happy-dom
import { cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { maria } from '../../../testing/fixtures';
import { jsonResponse, renderWithProviders } from '../../../testing/render';
import { useUser } from '../../../lib/auth';
import { clocksDiffer, offsetIn, TimezoneNotice } from './timezone-notice';

function SignedInAs() {
  const { data: user } = useUser();
  return user ? <p>Signed in as {user.firstName}</p> : null;
}

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
        "Your profile is set to Eastern Time (America/New_York), but this device is on another clock (Europe/London). Your nights end at 04:00, and your journal days at midnight, in your profile's time zone: on this device's clock, your night ends at 9:00 AM and your journal day at 5:00 AM. Log each night once it has ended.",
      ),
    ).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Change it in Settings' }).getAttribute('href')).toBe('/settings');
    // London is one the study offers: no list of them
    expect(screen.queryByText(/The study offers six time zones/)).toBeNull();
  });

  it('on a device in a zone the study does not offer, says when 04:00 comes in each that it does', async () => {
    renderWithProviders(<TimezoneNotice now={winter} device="Asia/Kathmandu" />);
    expect(await screen.findByText(/on this device's clock, your night ends at 2:45 PM and your journal day at 10:45 AM\./)).toBeTruthy();
    expect(screen.getByText(/The study offers six time zones, and this device's is not one of them\./)).toBeTruthy();
    expect(screen.getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      'Eastern Time (America/New_York): 2:45 PM',
      'Central Time (America/Chicago): 3:45 PM',
      'Mountain Time (America/Denver): 4:45 PM',
      'Pacific Time (America/Los_Angeles): 5:45 PM',
      'GMT (Europe/London): 9:45 AM',
      'Central European (Europe/Paris): 8:45 AM',
    ]);
  });

  /** The notice with her name beside it: once the name shows, her user is in and the notice has decided. */
  async function shown(device: string) {
    renderWithProviders(
      <main>
        <h1>Home</h1>
        <SignedInAs />
        <TimezoneNotice now={winter} device={device} />
      </main>,
    );
    await screen.findByText(`Signed in as ${maria.firstName}`);
    return screen.queryByRole('heading', { name: 'Is your time zone right?' }) !== null;
  }

  it('is not shown when the clocks agree', async () => {
    expect(await shown('America/Toronto')).toBe(false);
    cleanup();
    expect(await shown('Europe/London')).toBe(true);
  });

  it('once she keeps her zone, is not shown again on this device for the same two zones, for her', async () => {
    expect(await shown('Europe/London')).toBe(true);
    await userEvent.click(screen.getByRole('button', { name: 'Keep Eastern Time (America/New_York)' }));
    expect(screen.queryByRole('heading', { name: 'Is your time zone right?' })).toBeNull();
    // the focus, on the button gone with it, goes to the page's heading (it fell to the page's body)
    expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Home' }));
    cleanup();
    expect(await shown('Europe/London')).toBe(false);
    // on another clock again (she travels on), it asks again
    cleanup();
    expect(await shown('Europe/Paris')).toBe(true);
    // and another user signed in on this device is asked herself
    cleanup();
    vi.stubGlobal(
      'fetch',
      vi.fn<typeof fetch>(async () => jsonResponse(200, { ...maria, id: '0f1c1b5e-2f37-4f61-9a53-8f1de3b1a0a2', firstName: 'Ines' })),
    );
    renderWithProviders(<TimezoneNotice now={winter} device="Europe/London" />);
    expect(await screen.findByRole('heading', { name: 'Is your time zone right?' })).toBeTruthy();
  });
});
