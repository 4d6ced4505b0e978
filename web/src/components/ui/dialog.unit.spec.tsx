// @vitest-environment happy-dom
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { renderWithProviders } from '../../testing/render';
import { Dialog, DialogContent, DialogDescription, DialogTitle, DialogTrigger } from './dialog';
import { toast } from './toast';

afterEach(cleanup);

describe('DialogContent', () => {
  it("closes the page's toasts as it opens (drawn above it, they covered its title and Close button); one raised in it stays", async () => {
    renderWithProviders(
      <Dialog>
        <DialogTrigger>Learn More</DialogTrigger>
        <DialogContent>
          <DialogTitle>The protocol</DialogTitle>
          <DialogDescription>What the study asks of you.</DialogDescription>
          <button type="button" onClick={() => toast({ title: 'Copied' })}>
            Copy
          </button>
        </DialogContent>
      </Dialog>,
    );
    act(() => {
      toast({ title: 'Agreement Required', variant: 'destructive' });
    });
    expect(await screen.findByText('Agreement Required')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Learn More' }));
    const dialog = await screen.findByRole('dialog', { name: 'The protocol' });
    await waitFor(() => expect(screen.queryByText('Agreement Required')).toBeNull());
    await userEvent.click(within(dialog).getByRole('button', { name: 'Copy' }));
    expect(await screen.findByText('Copied')).toBeTruthy();
  });
});
