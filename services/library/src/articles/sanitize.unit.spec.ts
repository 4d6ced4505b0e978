import { describe, expect, it } from 'vitest';
import { htmlToText, MAX_ARTICLE_DEPTH, nestsTooDeep, sanitizeArticleHtml } from './sanitize.ts';

describe('sanitizeArticleHtml', () => {
  it('removes script and style elements with their content', () => {
    const clean = sanitizeArticleHtml('<p>Before</p><script>alert("x")</script><style>p { color: red }</style><p>After</p>');
    expect(clean).toBe('<p>Before</p><p>After</p>');
  });

  it('removes iframes, objects and forms', () => {
    const clean = sanitizeArticleHtml(
      '<iframe src="https://evil.example/"></iframe><object data="x.swf"></object><form action="/steal"><input name="a"></form><p>ok</p>',
    );
    expect(clean).toBe('<p>ok</p>');
  });

  it('removes every event handler attribute, and style and class', () => {
    const clean = sanitizeArticleHtml(
      '<p onclick="steal()" style="position:fixed" class="x">Hi</p><img src="/api/library/images/linen.svg" onerror="steal()" alt="Linen"><a href="/library" onmouseover="steal()">Library</a>',
    );
    expect(clean).not.toMatch(/on\w+=|style=|class=|steal/);
    expect(clean).toBe('<p>Hi</p><img src="/api/library/images/linen.svg" alt="Linen" /><a href="/library">Library</a>');
  });

  it.each([
    'javascript:alert(1)',
    'JavaScript:alert(1)',
    ' javascript:alert(1)',
    'java&#x09;script:alert(1)',
    'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==',
    'vbscript:msgbox(1)',
  ])('removes the link target %s', (href) => {
    const clean = sanitizeArticleHtml(`<p><a href="${href}">click</a></p>`);
    expect(clean).toBe('<p><a>click</a></p>');
  });

  it('keeps headings, paragraphs, lists, emphasis and safe links', () => {
    const html =
      '<h2>Title</h2><h3>Sub</h3><p>Some <strong>bold</strong> and <em>soft</em> words.</p>' +
      '<ul><li>one</li><li>two</li></ul><ol start="2"><li>three</li></ol><blockquote>Quote</blockquote>' +
      '<p><a href="/library/article/1">inside</a> <a href="mailto:team@example.com">mail</a></p>';
    expect(sanitizeArticleHtml(html)).toBe(html);
  });

  it('opens web links in a new tab without giving the page access to ours', () => {
    const clean = sanitizeArticleHtml('<a href="https://www.example.org/sleep" target="_self" rel="opener">Read</a>');
    expect(clean).toBe('<a href="https://www.example.org/sleep" rel="noopener noreferrer" target="_blank">Read</a>');
  });

  it('keeps images from this site only', () => {
    expect(sanitizeArticleHtml('<img src="/api/library/images/linen.svg" alt="Linen">')).toBe(
      '<img src="/api/library/images/linen.svg" alt="Linen" />',
    );
    for (const src of [
      'https://tracker.example/pixel.gif',
      '//tracker.example/pixel.gif',
      'data:image/svg+xml;base64,PHN2Zz4=',
      'javascript:alert(1)',
      // this site, but not an image: every reader's browser would call it with her session
      '/api/admin/export/users',
      '/api/community/thread/5d1f3c2a-7a4e-4b8e-9a51-2f0d6c7e8a10',
      '/api/library/images/../../admin/export/users',
    ]) {
      expect(sanitizeArticleHtml(`<p>x</p><img src="${src}" alt="">`)).toBe('<p>x</p>');
    }
  });

  it("keeps a link's text but not its address when it leads to the app's API or socket (a click would call it with her session)", () => {
    for (const href of [
      '/api/admin/export/users',
      '/API/admin/export/users',
      ' /api/community/thread/x',
      '/ws',
      '/ws?x=1',
      // what the browser resolves to the same: a backslash, dot segments, a tab, an escaped letter
      '\\api\\community\\thread\\x',
      '/./api/community/thread/x',
      '../../api/community/thread/x',
      'api/../../api/x',
      '/a&#9;pi/community/thread/x',
      '/%61pi/community/thread/x',
      // the app's own host in full (the library does not know it: any host's /api)
      'https://sleepweave.example/api/admin/export/users',
    ]) {
      expect(sanitizeArticleHtml(`<p><a href="${href}">Export</a></p>`)).toBe('<p><a>Export</a></p>');
    }
    expect(sanitizeArticleHtml('<p><a href="/library/article/x">Read</a> <a href="/apis">A page</a></p>')).toBe(
      '<p><a href="/library/article/x">Read</a> <a href="/apis">A page</a></p>',
    );
  });

  it('turns an h1 into an h2 (the page title is the only h1)', () => {
    expect(sanitizeArticleHtml('<h1>Big</h1>')).toBe('<h2>Big</h2>');
  });

  it('is idempotent', () => {
    const once = sanitizeArticleHtml('<p onclick="x">a <a href="https://example.org">b</a></p><script>c</script>');
    expect(sanitizeArticleHtml(once)).toBe(once);
  });
});

describe('htmlToText', () => {
  it('keeps the words, separates blocks and decodes entities', () => {
    expect(htmlToText('<h2>Linen</h2><p>Cool &amp; <em>breathable</em></p><ul><li>dries fast</li><li>lasts</li></ul>')).toBe(
      'Linen Cool & breathable dries fast lasts',
    );
  });
});

describe('nestsTooDeep', () => {
  it('counts the tags open at once, as a browser reads them (void and implied ones closed)', () => {
    expect(nestsTooDeep(`${'<b>'.repeat(MAX_ARTICLE_DEPTH)}x`)).toBe(false);
    expect(nestsTooDeep(`${'<b>'.repeat(MAX_ARTICLE_DEPTH + 1)}x`)).toBe(true);
    expect(nestsTooDeep(`${'<b>x</b>'.repeat(5_000)}`)).toBe(false);
    // paragraphs and list items left open (each closes the one before), and many line breaks: a few levels
    expect(nestsTooDeep(`${'<p>para'.repeat(500)}<ul>${'<li>item'.repeat(500)}</ul>${'line<br>'.repeat(500)}`)).toBe(false);
  });

  it('answers at the first tag too deep: a body of 33,000 nested tags costs one pass', () => {
    const start = performance.now();
    expect(nestsTooDeep(`${'<b>'.repeat(33_300)}x`)).toBe(true);
    // (not a timing test: one pass of the parser, far under the 0.7 s its cleaning took)
    expect(performance.now() - start).toBeLessThan(5_000);
  });
});
