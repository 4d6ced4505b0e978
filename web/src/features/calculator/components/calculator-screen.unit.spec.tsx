// @vitest-environment happy-dom
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { renderWithProviders } from '../../../testing/render';
import { CalculatorScreen } from './calculator-screen';

afterEach(cleanup);

async function choose(user: ReturnType<typeof userEvent.setup>, label: string, option: string) {
  await user.click(screen.getByLabelText(label));
  await user.click(await screen.findByRole('option', { name: option }));
}

const calculateButton = () => screen.getByRole('button', { name: 'Calculate Energy Impact' }) as HTMLButtonElement;

describe('CalculatorScreen', () => {
  it('computes a single fabric once one is chosen; Try Another hides the result', async () => {
    renderWithProviders(<CalculatorScreen />);
    const user = userEvent.setup();
    expect(calculateButton().disabled).toBe(true);
    expect(document.getElementById('calculate-problem')!.textContent).toBe('Choose a fabric to see how it rates.');

    await choose(user, 'Fabric', 'Linen (5,000 Hz)');
    expect(calculateButton().disabled).toBe(false);
    expect(calculateButton().getAttribute('aria-describedby')).toBeNull();
    expect(document.getElementById('calculate-problem')).toBeNull();
    await user.click(calculateButton());

    const result = screen.getByRole('region', { name: 'Linen' });
    expect(within(result).getByText('5,000 Hz')).toBeTruthy();
    const bar = within(result).getByRole('progressbar');
    expect(bar.getAttribute('aria-valuenow')).toBe('95');
    expect(result.textContent).toContain('95/100');
    expect(within(result).getByText('High Energy')).toBeTruthy();
    expect(within(result).getByRole('heading', { name: 'Benefits' })).toBeTruthy();
    expect(within(result).getByRole('heading', { name: 'Considerations' })).toBeTruthy();
    expect(within(result).getByRole('heading', { name: 'Recommendation' })).toBeTruthy();
    const learnMore = within(result).getByRole('link', { name: /Learn More About Fabrics/ });
    expect(learnMore.getAttribute('href')).toBe('/library');
    expect(learnMore.getAttribute('target')).toBe('_blank');
    expect(learnMore.getAttribute('rel')).toBe('noopener');

    await user.click(within(result).getByRole('button', { name: 'Try Another' }));
    expect(screen.queryByRole('region', { name: 'Linen' })).toBeNull();
    // Her choice is still there to adjust, and focus waits on it (not lost to <body>).
    expect(screen.getByLabelText('Fabric').textContent).toContain('Linen');
    expect(document.activeElement).toBe(screen.getByLabelText('Fabric'));
  });

  it('computes a 60/40 blend only when the Total is exactly 100', async () => {
    renderWithProviders(<CalculatorScreen />);
    const user = userEvent.setup();
    await user.click(screen.getByRole('tab', { name: 'Fabric Blend' }));

    // Two rows, no remove buttons at two.
    expect(screen.getByLabelText('Fabric 1')).toBeTruthy();
    expect(screen.getByLabelText('Fabric 2')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Remove fabric/ })).toBeNull();

    await choose(user, 'Fabric 1', 'Linen (5,000 Hz)');
    await choose(user, 'Fabric 2', 'Polyester (0 Hz)');
    await user.type(screen.getByLabelText('Fabric 1 Percent'), '60');
    await user.type(screen.getByLabelText('Fabric 2 Percent'), '41');
    // The running Total, as read out (a screen reader also hears that it must be exactly 100%).
    const total = () => screen.getByText(/^Total:/);
    expect(total().textContent).toBe('Total: 101% (must be exactly 100%)');
    expect(calculateButton().disabled).toBe(true);

    await user.clear(screen.getByLabelText('Fabric 2 Percent'));
    await user.type(screen.getByLabelText('Fabric 2 Percent'), '39');
    expect(total().textContent).toBe('Total: 99% (must be exactly 100%)');
    expect(calculateButton().disabled).toBe(true);

    await user.clear(screen.getByLabelText('Fabric 2 Percent'));
    await user.type(screen.getByLabelText('Fabric 2 Percent'), '4x0');
    expect((screen.getByLabelText('Fabric 2 Percent') as HTMLInputElement).value).toBe('40');
    expect(total().textContent).toBe('Total: 100%');
    expect(calculateButton().disabled).toBe(false);

    // A decimal typed key by key stays as she typed it (it once became 605, then 100), and the
    // button says why it is off.
    await user.clear(screen.getByLabelText('Fabric 1 Percent'));
    await user.type(screen.getByLabelText('Fabric 1 Percent'), '60.5');
    expect((screen.getByLabelText('Fabric 1 Percent') as HTMLInputElement).value).toBe('60.5');
    expect(calculateButton().disabled).toBe(true);
    expect(document.getElementById('calculate-problem')!.textContent).toBe('Percentages are whole numbers: 50, not 50.5.');
    await user.type(screen.getByLabelText('Fabric 1 Percent'), '{Backspace}{Backspace}');
    expect(calculateButton().disabled).toBe(false);

    // A third row: remove appears; an empty row makes the blend invalid until removed.
    await user.click(screen.getByRole('button', { name: 'Add Fabric' }));
    expect(screen.getAllByRole('button', { name: /Remove fabric/ })).toHaveLength(3);
    expect(calculateButton().disabled).toBe(true);
    // The Total is green, so the button says why it is off (and a screen reader hears it with the button).
    expect(total().textContent).toBe('Total: 100%');
    expect(calculateButton().getAttribute('aria-describedby')).toBe('calculate-problem');
    expect(document.getElementById('calculate-problem')!.textContent).toBe('Choose a fabric for every row, or remove the empty one.');
    await user.click(screen.getByRole('button', { name: 'Remove fabric 3' }));
    expect(screen.queryByRole('button', { name: /Remove fabric/ })).toBeNull();
    // the focus goes to the row now last (the one above), not to the page
    await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText('Fabric 2')));

    await user.click(calculateButton());
    const result = screen.getByRole('region', { name: 'Fabric Blend Analysis' });
    expect(within(result).getByText('3,000 Hz')).toBeTruthy();
    expect(within(result).getByRole('progressbar').getAttribute('aria-valuenow')).toBe('95');
    const composition = within(result).getByRole('heading', { name: 'Blend Composition' }).parentElement!;
    const items = within(composition)
      .getAllByRole('listitem')
      .map((li) => li.textContent);
    expect(items[0]).toContain('Linen');
    expect(items[0]).toContain('60%');
    expect(items[1]).toContain('Polyester');
    expect(items[1]).toContain('40%');
    expect(within(result).queryByRole('heading', { name: 'Benefits' })).toBeNull();

    // Try Another: back to the blend, focus on its first row.
    await user.click(within(result).getByRole('button', { name: 'Try Another' }));
    expect(document.activeElement).toBe(screen.getByLabelText('Fabric 1'));
    expect(screen.getByLabelText('Fabric 1').textContent).toContain('Linen');
  });

  it('shows the legend and the honest note about the numbers', () => {
    renderWithProviders(<CalculatorScreen />);
    expect(screen.getByRole('heading', { name: 'Legend' })).toBeTruthy();
    expect(screen.getByText('Body baseline').nextElementSibling?.textContent).toBe('100 Hz');
    expect(screen.getByRole('heading', { name: 'About these numbers' })).toBeTruthy();
    expect(screen.getByText(/not established science/)).toBeTruthy();
  });
});
