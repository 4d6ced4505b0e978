import type { MouseEvent } from 'react';
import { useNavigate } from 'react-router';
import './article-prose.css';

/**
 * The article's body, as the library service stored it: sanitized with an allow-list on
 * the server (no scripts, no event handlers, no javascript: URLs), and the CSP forbids
 * inline script as a second line of defence. Links within the app stay in the app.
 */
export function ArticleBody({ html }: { html: string }) {
  const navigate = useNavigate();

  const onClick = (event: MouseEvent<HTMLDivElement>) => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    const link = (event.target as Element).closest('a');
    const href = link?.getAttribute('href');
    if (!link || !href || link.target || !href.startsWith('/') || href.startsWith('//')) return;
    event.preventDefault();
    void navigate(href);
  };

  return <div className="article-prose" onClick={onClick} dangerouslySetInnerHTML={{ __html: html }} />;
}
