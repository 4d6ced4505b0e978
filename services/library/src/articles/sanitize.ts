import { LIBRARY_IMAGE_PATH } from '@sleepweave/contracts';
import { Parser } from 'htmlparser2';
import sanitizeHtml from 'sanitize-html';

/**
 * The allow-list for article bodies. Everything else goes: scripts and styles with their
 * content, iframes, forms, every `on*` handler, `style` and `class` attributes, and any URL
 * whose scheme is not http(s) or mailto (javascript:, data:, vbscript: ...). Images may
 * only be the library's own (LIBRARY_IMAGE_PATH): the CSP allows images from 'self' only.
 */
const ALLOWED_TAGS = [
  'h2',
  'h3',
  'h4',
  'p',
  'br',
  'hr',
  'blockquote',
  'ul',
  'ol',
  'li',
  'strong',
  'em',
  'b',
  'i',
  'u',
  's',
  'small',
  'sub',
  'sup',
  'abbr',
  'a',
  'img',
  'figure',
  'figcaption',
];

const LINK_SCHEMES = ['http', 'https', 'mailto'];
/** Paths of the app that are not pages (its API, its socket), in any letter case. */
const APP_INTERFACE = /^\/(?:api|ws)(?:\/|$)/i;
/** Where an article is read (/library/<id>): relative links resolve from there. */
const ARTICLE_PAGE = 'https://sleepweave.invalid/library/article';

/**
 * Whether a link leads to the app's API or socket, once the browser has resolved it as it
 * would from the article's page (backslashes as slashes, dot segments, tabs and newlines
 * dropped), its escaped letters read too, on whatever host. One that does not parse does not.
 */
function toAppInterface(href: string): boolean {
  let url: URL;
  try {
    url = new URL(href, ARTICLE_PAGE);
  } catch {
    return false;
  }
  // On any host: a link that names the app's own host in full is one too, and the library
  // does not know its host (a page elsewhere under /api loses its address with it: a link's
  // text stays).
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  let path = url.pathname;
  try {
    path = decodeURIComponent(path);
  } catch {
    // a malformed escape: as the browser sends it
  }
  return APP_INTERFACE.test(path.replace(/\\/g, '/'));
}

const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: ALLOWED_TAGS,
  allowedAttributes: {
    a: ['href', 'title', 'rel', 'target'],
    img: ['src', 'alt', 'title', 'width', 'height'],
    abbr: ['title'],
    ol: ['start'],
  },
  allowedSchemes: LINK_SCHEMES,
  // Images: relative paths only (no scheme at all, so no other host and no data: URLs).
  allowedSchemesByTag: { img: [] },
  allowedSchemesAppliedToAttributes: ['href', 'src'],
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  // Dropped together with their content (the defaults plus embedding tags).
  nonTextTags: ['script', 'style', 'textarea', 'option', 'noscript', 'iframe', 'object', 'embed', 'template', 'svg', 'math'],
  transformTags: {
    // The page's own <h1> is the article title.
    h1: 'h2',
    // Links are rebuilt from scratch: only href and title survive from the input.
    a: (_tagName, attribs) => {
      const attributes: Record<string, string> = {};
      // not to the app's API or socket: a click would call it with her session
      if (attribs.href && !toAppInterface(attribs.href)) attributes.href = attribs.href;
      if (attribs.title) attributes.title = attribs.title;
      if (attributes.href && /^https?:/i.test(attributes.href.trim())) {
        attributes.rel = 'noopener noreferrer';
        attributes.target = '_blank';
      }
      return { tagName: 'a', attribs: attributes };
    },
  },
  // An image without a safe source is nothing to show: one of the library's own only, as an
  // article's imagePath (any other path here is fetched with the reader's session).
  exclusiveFilter: (frame) => frame.tag === 'img' && !LIBRARY_IMAGE_PATH.test(frame.attribs.src ?? ''),
};

/**
 * How deep an article's tags may nest. A written article nests a few levels (a list in a
 * quote, a link in bold); the cleaning's cost grows faster than the body with the depth
 * (33,000 nested tags: 0.7 s to clean, on every read), so deeper is refused at write.
 */
export const MAX_ARTICLE_DEPTH = 100;

/** Whether `html` nests its tags (as a browser would read them, closing the implied ones) more than MAX_ARTICLE_DEPTH deep. One pass, stopped at the first tag too deep. */
export function nestsTooDeep(html: string): boolean {
  let depth = 0;
  let tooDeep = false;
  const parser = new Parser({
    onopentag() {
      depth += 1;
      if (depth > MAX_ARTICLE_DEPTH) {
        tooDeep = true;
        parser.pause();
      }
    },
    onclosetag() {
      depth -= 1;
    },
  });
  parser.end(html);
  return tooDeep;
}

/** The sources of the body's images that are the library's own by their path (any other is dropped by the cleaning). */
export function libraryImagesIn(html: string): string[] {
  const sources: string[] = [];
  const parser = new Parser({
    onopentag(name, attributes) {
      const src = attributes.src;
      if (name === 'img' && src !== undefined && LIBRARY_IMAGE_PATH.test(src)) sources.push(src);
    },
  });
  parser.end(html);
  return sources;
}

/** Cleans an article body with the allow-list above. Idempotent. */
export function sanitizeArticleHtml(html: string): string {
  return sanitizeHtml(html, OPTIONS).trim();
}

const BLOCK_START = /<(?=\/?(?:h[1-6]|p|br|hr|blockquote|ul|ol|li|img|figure|figcaption)\b)/gi;
const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" };

/** The words of a (sanitized) body without tags: what search indexes. */
export function htmlToText(html: string): string {
  const spaced = html.replace(BLOCK_START, ' <');
  const text = sanitizeHtml(spaced, { allowedTags: [], allowedAttributes: {}, nonTextTags: OPTIONS.nonTextTags });
  return text
    .replace(/&(?:amp|lt|gt|quot|#39);/g, (entity) => ENTITIES[entity] ?? entity)
    .replace(/\s+/g, ' ')
    .trim();
}
