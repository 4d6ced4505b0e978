import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router';
import './article-prose.css';

/**
 * Whether a link in an article is a page of this app: a same-origin path, not the API or
 * the live socket (served by the gateway, not the router) and not a file ("/guide.pdf").
 */
export function isAppPath(href: string): boolean {
  if (!href.startsWith('/') || href.startsWith('//')) return false;
  const path = href.split(/[?#]/, 1)[0] ?? '';
  if (/^\/(api|ws)(\/|$)/.test(path)) return false;
  const last = path.slice(path.lastIndexOf('/') + 1);
  return !/\.[a-z0-9]+$/i.test(last);
}

/**
 * The article's body, as the library service stored it: sanitized with an allow-list on
 * the server (no scripts, no event handlers, no javascript: URLs), and the CSP forbids
 * inline script as a second line of defence. Links to the app's pages stay in the app;
 * API and file links are left to the browser.
 */
export function ArticleBody({ html }: { html: string }) {
  const navigate = useNavigate();
  const body = useRef<HTMLDivElement>(null);

  // The links are the body's own (HTML from the server, not React elements), so their
  // clicks are caught where they bubble: on this container, which is not itself something
  // to click. A link opened with the keyboard fires the same click.
  useEffect(() => {
    const element = body.current;
    if (!element) return;
    const onClick = (event: MouseEvent) => {
      if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      const link = (event.target as Element).closest('a');
      const href = link?.getAttribute('href');
      if (!link || !href || link.target || link.hasAttribute('download') || !isAppPath(href)) return;
      event.preventDefault();
      void navigate(href);
    };
    element.addEventListener('click', onClick);
    return () => element.removeEventListener('click', onClick);
  }, [navigate]);

  return <div ref={body} className="article-prose" dangerouslySetInnerHTML={{ __html: html }} />;
}
