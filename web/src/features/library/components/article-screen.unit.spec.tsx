// @vitest-environment happy-dom
import type { LibraryArticle } from '@sleepweave/contracts';
import { cleanup, fireEvent, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useParams } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, reloadQueries, renderWithProviders } from '../../../testing/render';
import { ArticleScreen } from './article-screen';
import { LibraryScreen } from './library-screen';

const fetchMock = vi.fn<typeof fetch>();

const article: LibraryArticle = {
  id: 'c4cc3ba4-d882-46af-bb30-e10a494dbbd7',
  category: 'Research Studies',
  title: 'How the study works',
  summary: 'Three phases of 14 nights.',
  imagePath: '/api/library/images/study-phases.svg',
  tags: ['study protocol', 'linen'],
  bodyHtml: '<h2>The phases</h2><ol><li>Polyester</li><li>Washout</li><li>Linen</li></ol><p>See <a href="/library">the library</a>.</p>',
  createdAt: '2026-11-20T10:00:00.000Z',
  updatedAt: '2026-11-20T10:00:00.000Z',
};

beforeEach(() => {
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const routes = (id: string) => [
  { path: '/library/article/:id', element: <ArticleScreen articleId={id} /> },
  { path: '/library', element: <p>The library list</p> },
];

function ArticleRoute() {
  return <ArticleScreen articleId={useParams().id!} />;
}

describe('ArticleScreen', () => {
  it('goes Back to Library with the search she opened the article from', async () => {
    fetchMock.mockImplementation(async (input) =>
      String(input).startsWith('/api/library/cards') ? jsonResponse(200, [article]) : jsonResponse(200, article),
    );
    const { router } = renderWithProviders(
      [
        { path: '/library', element: <LibraryScreen /> },
        { path: '/library/article/:id', element: <ArticleRoute /> },
      ],
      { path: '/library?search=linen' },
    );
    await userEvent.setup().click(await screen.findByRole('link', { name: 'How the study works' }));
    await screen.findByRole('heading', { level: 1, name: 'How the study works' });
    expect(router.state.location.pathname).toBe(`/library/article/${article.id}`);
    const backLinks = screen.getAllByRole('link', { name: 'Back to Library' });
    expect(backLinks.map((link) => link.getAttribute('href'))).toEqual(backLinks.map(() => '/library?search=linen'));
  });

  it('shows the hero image, back link, category, title, summary, tags and the body as HTML', async () => {
    fetchMock.mockResolvedValue(jsonResponse(200, article));
    const { container } = renderWithProviders(routes(article.id), { path: `/library/article/${article.id}` });

    expect(await screen.findByRole('heading', { level: 1, name: 'How the study works' })).toBeTruthy();
    expect(fetchMock.mock.calls[0]![0]).toBe(`/api/library/card/${article.id}`);
    expect(container.querySelector('img')!.getAttribute('src')).toBe('/api/library/images/study-phases.svg');
    expect(screen.getAllByRole('link', { name: 'Back to Library' })[0]!.getAttribute('href')).toBe('/library');
    expect(screen.getByText('Research Studies')).toBeTruthy();
    expect(screen.getByText('Three phases of 14 nights.')).toBeTruthy();
    expect(screen.getByText('#study protocol')).toBeTruthy();
    expect(screen.getByRole('heading', { level: 2, name: 'The phases' })).toBeTruthy();
    expect(screen.getAllByRole('listitem').map((li) => li.textContent)).toEqual(expect.arrayContaining(['Polyester', 'Washout', 'Linen']));
  });

  it("shows the placeholder, and fetches nothing, for an image path that is not one of the library's", async () => {
    fetchMock.mockResolvedValue(jsonResponse(200, { ...article, imagePath: '/api/admin/export/users' }));
    const { container } = renderWithProviders(routes(article.id), { path: `/library/article/${article.id}` });
    expect(await screen.findByRole('heading', { level: 1, name: 'How the study works' })).toBeTruthy();
    expect(container.querySelector('img')).toBeNull();
  });

  it('follows a link inside the body without leaving the app', async () => {
    fetchMock.mockResolvedValue(jsonResponse(200, article));
    const { router } = renderWithProviders(routes(article.id), { path: `/library/article/${article.id}` });
    await userEvent.setup().click(await screen.findByRole('link', { name: 'the library' }));
    expect(await screen.findByText('The library list')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/library');
  });

  it('leaves API and file links to the browser instead of routing them to a 404', async () => {
    fetchMock.mockResolvedValue(
      jsonResponse(200, {
        ...article,
        bodyHtml:
          '<p><a href="/api/library/files/sleep-diary.pdf">the diary</a>, <a href="/api/research/export">the export</a>, <a href="/guide.txt">the guide</a>, <a href="/library?search=linen">linen articles</a></p>',
      }),
    );
    const { router } = renderWithProviders(routes(article.id), { path: `/library/article/${article.id}` });
    const start = router.state.location.pathname;
    // What the browser is left to do: recorded here, then stopped (no real navigation in tests).
    let leftToBrowser: boolean | null = null;
    const record = (event: Event) => {
      leftToBrowser = !event.defaultPrevented;
      event.preventDefault();
    };
    document.addEventListener('click', record);
    try {
      for (const name of ['the diary', 'the export', 'the guide']) {
        leftToBrowser = null;
        fireEvent.click(await screen.findByRole('link', { name }));
        expect(leftToBrowser).toBe(true);
        expect(router.state.location.pathname).toBe(start);
      }
      leftToBrowser = null;
      fireEvent.click(screen.getByRole('link', { name: 'linen articles' }));
      expect(leftToBrowser).toBe(false);
      expect(await screen.findByText('The library list')).toBeTruthy();
      expect(router.state.location.search).toBe('?search=linen');
    } finally {
      document.removeEventListener('click', record);
    }
  });

  it('keeps the article on screen when a reload fails', async () => {
    fetchMock.mockResolvedValue(jsonResponse(200, article));
    const { queryClient } = renderWithProviders(routes(article.id), { path: `/library/article/${article.id}` });
    expect(await screen.findByRole('heading', { level: 1, name: 'How the study works' })).toBeTruthy();

    fetchMock.mockResolvedValue(jsonResponse(503, { error: 'unavailable', message: 'down' }));
    await reloadQueries(queryClient);

    expect(screen.getByRole('heading', { level: 1, name: 'How the study works' })).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('says Article Not Found for an unknown article, with a way back', async () => {
    fetchMock.mockResolvedValue(
      jsonResponse(404, { error: 'not_found', message: "Sorry, we couldn't find the article you're looking for." }),
    );
    renderWithProviders(routes('nope'), { path: '/library/article/nope' });

    expect(await screen.findByRole('heading', { name: 'Article Not Found' })).toBeTruthy();
    expect(screen.getByText("Sorry, we couldn't find the article you're looking for.")).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to Library' }).getAttribute('href')).toBe('/library');
  });

  it('shows the failure text when the article cannot be loaded, under the page’s heading', async () => {
    fetchMock.mockResolvedValue(jsonResponse(500, { error: 'internal', message: 'down' }));
    renderWithProviders(routes(article.id), { path: `/library/article/${article.id}` });

    expect((await screen.findByRole('alert')).textContent).toContain('Failed to load library content. Please try refreshing the page.');
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Library Article');
  });
});
