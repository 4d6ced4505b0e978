// @vitest-environment happy-dom
import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../testing/render';
import { NavBar } from './nav-bar';

afterEach(cleanup);

describe('NavBar', () => {
  it('shows the Admin link to admins only, marked active on the admin pages', () => {
    renderWithProviders(<NavBar onLogout={() => {}} />, { path: '/dashboard' });
    expect(screen.queryAllByRole('link', { name: 'Admin', hidden: true })).toHaveLength(0);
    cleanup();
    renderWithProviders(<NavBar onLogout={() => {}} isAdmin />, { path: '/admin/audit' });
    const links = screen.getAllByRole('link', { name: 'Admin', hidden: true });
    expect(links.length).toBeGreaterThan(0);
    for (const link of links) {
      expect(link.getAttribute('href')).toBe('/admin');
      expect(link.getAttribute('aria-current')).toBe('page');
    }
  });

  it('closes the mobile menu after a choice and goes there', async () => {
    const { router } = renderWithProviders(<NavBar onLogout={() => {}} />, { path: '/dashboard' });
    const user = userEvent.setup();
    const toggle = screen.getByRole('button', { name: 'Menu' });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    const menu = document.getElementById(toggle.getAttribute('aria-controls')!)!;
    expect(menu.hidden).toBe(true);

    await user.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    expect(menu.hidden).toBe(false);

    await user.click(within(menu).getByRole('link', { name: 'Daily Journal' }));

    expect(router.state.location.pathname).toBe('/journal');
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(menu.hidden).toBe(true);
  });

  it('closes the mobile menu on Escape and gives focus back to the Menu button', async () => {
    renderWithProviders(<NavBar onLogout={() => {}} />, { path: '/dashboard' });
    const user = userEvent.setup();
    const toggle = screen.getByRole('button', { name: 'Menu' });
    await user.click(toggle);
    const menu = document.getElementById(toggle.getAttribute('aria-controls')!)!;
    within(menu).getByRole('link', { name: 'Community' }).focus();

    await user.keyboard('{Escape}');

    expect(menu.hidden).toBe(true);
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(document.activeElement).toBe(toggle);
  });

  it('closes the mobile menu when Tab leaves it, so focus is not on what it covers', async () => {
    renderWithProviders(
      <>
        <NavBar onLogout={() => {}} />
        <a href="/journal">Daily Journal tile</a>
      </>,
      { path: '/dashboard' },
    );
    const user = userEvent.setup();
    const toggle = screen.getByRole('button', { name: 'Menu' });
    await user.click(toggle);
    const menu = document.getElementById(toggle.getAttribute('aria-controls')!)!;
    // through the menu (focus stays in the bar: it stays open) and past its last item, Logout
    within(menu).getByRole('button', { name: 'Logout' }).focus();
    expect(menu.hidden).toBe(false);
    await user.tab();
    expect(document.activeElement?.textContent).toBe('Daily Journal tile');
    expect(menu.hidden).toBe(true);
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
  });

  it('links the brand to /dashboard and every item to its path', () => {
    renderWithProviders(<NavBar onLogout={() => {}} />, { path: '/dashboard' });
    const nav = screen.getByRole('navigation', { name: 'Main' });

    expect(within(nav).getByRole('link', { name: 'Sleepweave' }).getAttribute('href')).toBe('/dashboard');
    const hrefs = Object.fromEntries(
      within(nav)
        .getAllByRole('link')
        .map((link) => [link.textContent, link.getAttribute('href')]),
    );
    expect(hrefs).toMatchObject({
      'Sleep Study': '/sleep/consent',
      'Daily Journal': '/journal',
      Community: '/community',
      Library: '/library',
      'Clothes Frequency Calculator': '/calculator',
    });
  });

  it('marks the current section as the active item', () => {
    renderWithProviders(<NavBar onLogout={() => {}} />, { path: '/sleep/log' });
    const current = screen
      .getAllByRole('link')
      .filter((link) => link.getAttribute('aria-current') === 'page')
      .map((link) => link.textContent);
    expect(current).toEqual(['Sleep Study']);
  });

  it('logs out from the mobile menu and closes it', async () => {
    const onLogout = vi.fn();
    renderWithProviders(<NavBar onLogout={onLogout} />, { path: '/dashboard' });
    const user = userEvent.setup();
    const toggle = screen.getByRole('button', { name: 'Menu' });
    await user.click(toggle);
    const menu = document.getElementById(toggle.getAttribute('aria-controls')!)!;

    await user.click(within(menu).getByRole('button', { name: 'Logout' }));

    expect(onLogout).toHaveBeenCalledTimes(1);
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
  });

  it('links Settings from the bar and the mobile menu, marked active on /settings', async () => {
    const { router } = renderWithProviders(<NavBar onLogout={() => {}} />, { path: '/settings' });
    const inBar = screen.getByRole('link', { name: 'Settings' });
    expect(inBar.getAttribute('href')).toBe('/settings');
    expect(inBar.getAttribute('aria-current')).toBe('page');

    const user = userEvent.setup();
    const toggle = screen.getByRole('button', { name: 'Menu' });
    await user.click(toggle);
    const menu = document.getElementById(toggle.getAttribute('aria-controls')!)!;
    const inMenu = within(menu).getByRole('link', { name: 'Settings' });
    expect(inMenu.getAttribute('aria-current')).toBe('page');
    await user.click(inMenu);
    expect(router.state.location.pathname).toBe('/settings');
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
  });
});
