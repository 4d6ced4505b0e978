// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Button } from './button';

afterEach(cleanup);

describe('Button', () => {
  it('while pending keeps the focus and refuses clicks and the form’s submission, Enter in a field included', async () => {
    const onClick = vi.fn();
    const onSubmit = vi.fn((event: Event) => event.preventDefault());
    const { rerender } = render(
      <form onSubmit={(event) => onSubmit(event.nativeEvent)}>
        <input aria-label="Name" />
        <Button type="submit" pending onClick={onClick}>
          Saving...
        </Button>
      </form>,
    );
    const button = screen.getByRole('button', { name: 'Saving...' });
    expect(button.hasAttribute('disabled')).toBe(false);
    expect(button.getAttribute('aria-disabled')).toBe('true');
    expect(button.getAttribute('aria-busy')).toBe('true');
    const user = userEvent.setup();
    await user.click(button);
    expect(document.activeElement).toBe(button);
    await user.type(screen.getByLabelText('Name'), 'Ines{Enter}');
    expect(onClick).not.toHaveBeenCalled();
    expect(onSubmit).not.toHaveBeenCalled();

    rerender(
      <form onSubmit={(event) => onSubmit(event.nativeEvent)}>
        <input aria-label="Name" />
        <Button type="submit" onClick={onClick}>
          Save
        </Button>
      </form>,
    );
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(onClick).toHaveBeenCalledTimes(1);
    expect(onSubmit).toHaveBeenCalledTimes(1);
  });
});
