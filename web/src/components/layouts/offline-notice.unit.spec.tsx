// @vitest-environment happy-dom
import { onlineManager, useMutation } from '@tanstack/react-query';
import { act, cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { leavingAsks, renderWithProviders } from '../../testing/render';
import { OFFLINE_NOTICE, OfflineNotice, waitingSaves } from './offline-notice';

afterEach(() => {
  cleanup();
  act(() => onlineManager.setOnline(true));
});

const sent: string[] = [];

function SaveButton() {
  const save = useMutation({
    mutationFn: async (text: string) => {
      sent.push(text);
    },
  });
  return (
    <button type="button" onClick={() => save.mutate('my entry')}>
      {save.isPending ? 'Saving...' : 'Save'}
    </button>
  );
}

describe('OfflineNotice', () => {
  it('says she is offline and how many saves wait, asks before the page is left while one waits, and sends it once she is back', async () => {
    renderWithProviders(
      <>
        <OfflineNotice />
        <SaveButton />
      </>,
    );
    expect(screen.queryByRole('status')).toBeNull();
    act(() => onlineManager.setOnline(false));
    expect(screen.getByRole('status').textContent).toBe(OFFLINE_NOTICE);
    expect(leavingAsks()).toBe(false);

    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.getByRole('button', { name: 'Saving...' })).toBeTruthy();
    expect(screen.getByRole('status').textContent).toBe(`${OFFLINE_NOTICE} ${waitingSaves(1)}`);
    expect(sent).toEqual([]);
    expect(leavingAsks()).toBe(true);

    act(() => onlineManager.setOnline(true));
    expect(await screen.findByRole('button', { name: 'Save' })).toBeTruthy();
    expect(sent).toEqual(['my entry']);
    expect(screen.queryByRole('status')).toBeNull();
    expect(leavingAsks()).toBe(false);
  });
});
