import { describe, expect, it } from 'vitest';
import { HtmlRenderer, Parser } from 'commonmark';
import { escapeMarkdown, longDate, markdownEntry, markdownHeader, reflectionsOf, timeWritten } from './business-logic.ts';

const entry = {
  id: '6f1c1d5e-3a4b-4c5d-8e9f-0a1b2c3d4e5f',
  date: '2025-03-03',
  affirmation: 'I am *enough*',
  gratitude: '   ',
  forgiveness: '# me\n- for last night',
  createdAt: '2025-03-04T05:14:00.000Z',
};

describe('escapeMarkdown', () => {
  it.each([
    ['plain words stay plain', 'plain words stay plain'],
    ['*bold* _em_ `code`', '\\*bold\\* \\_em\\_ \\`code\\`'],
    ['[a link](http://x)', '\\[a link\\](http://x)'],
    ['<b>html</b> & &amp;', '\\<b\\>html\\</b\\> \\& \\&amp;'],
    ['# not a heading', '\\# not a heading'],
    ['  > not a quote', '\u00A0\u00A0\\> not a quote'],
    ['- not a list', '\\- not a list'],
    ['12. not a list', '12\\. not a list'],
    ['3) nor this', '3\\) nor this'],
    ['a | b ~c~', 'a \\| b \\~c\\~'],
    ['back\\slash', 'back\\\\slash'],
    ['one\ntwo\r\n\r\nthree', 'one  \ntwo  \n\nthree'],
    ['Zoë — “½” ✓', 'Zoë — “½” ✓'],
  ])('%j', (text, escaped) => {
    expect(escapeMarkdown(text)).toBe(escaped);
  });
});

/** What a Markdown viewer shows of `markdown` (CommonMark): its text, line by line, and whether any markup came of it. */
function rendered(markdown: string): { text: string; markup: boolean } {
  const html = new HtmlRenderer({ softbreak: '\n' }).render(new Parser().parse(markdown));
  const inner = html
    .trim()
    .replace(/^<p>|<\/p>$/g, '')
    .replace(/<\/p>\n<p>/g, '\n\n')
    .replace(/<br \/>\n/g, '\n');
  const text = inner
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');
  return { text, markup: /<[a-z]/.test(inner) };
}

describe('escapeMarkdown, as a Markdown viewer shows it', () => {
  it.each([
    'Dear me,\n\n    I forgive *you* & <us>',
    'a tab\n\n\tindented by a tab',
    '  two spaces, then\n      six',
    '*bold* _em_ `code` [a](b) <i>x</i> # h',
    'one\ntwo\n\n# three\n> four\n- five\n1. six',
  ])('%j: her words, no markup (a line’s indent kept as no-break spaces, but a paragraph’s first)', (text) => {
    const shown = text
      .replace(/\t/g, '    ')
      .replace(/^ +/gm, (lead) => '\u00A0'.repeat(lead.length))
      .split('\n\n')
      .map((paragraph) => paragraph.replace(/^\u00A0+/, ''))
      .join('\n\n');
    expect(rendered(escapeMarkdown(text))).toEqual({ text: shown, markup: false });
  });
});

describe('her journal in words', () => {
  it('writes dates long-form and times on her clock', () => {
    expect(longDate('2025-03-03')).toBe('Monday, March 3, 2025');
    expect(timeWritten('2025-03-04T05:14:00.000Z', 'America/Los_Angeles')).toBe('9:14 PM');
    expect(timeWritten('2025-03-04T05:14:00.000Z', 'Europe/London')).toBe('5:14 AM');
    // under its own day, the time alone; written on another day by her clock now (she has moved), with the day
    expect(timeWritten('2025-03-04T05:14:00.000Z', 'America/Los_Angeles', '2025-03-03')).toBe('9:14 PM');
    expect(timeWritten('2025-03-04T05:14:00.000Z', 'America/Los_Angeles', '2025-03-04')).toBe('Mar 3, 9:14 PM');
  });

  it('leaves blank reflections out, as the screen does', () => {
    expect(reflectionsOf(entry).map((r) => r.label)).toEqual(["Today's Affirmation", 'Forgiveness']);
  });

  it('writes an entry under its day, once per day', () => {
    expect(markdownEntry(entry, 'America/Los_Angeles', true)).toBe(
      [
        '## Monday, March 3, 2025',
        '',
        '*Written at 9:14 PM*',
        '',
        "**Today's Affirmation**",
        '',
        'I am \\*enough\\*',
        '',
        '**Forgiveness**',
        '',
        '\\# me  \n\\- for last night',
        '',
        '',
      ].join('\n'),
    );
    expect(markdownEntry(entry, 'America/Los_Angeles', false).startsWith('*Written at 9:14 PM*')).toBe(true);
  });

  it('heads the file with her name, how many entries and which days', () => {
    expect(markdownHeader({ name: 'Ana *B*', entries: 1, first: '2025-03-03', last: '2025-03-03', exportedOn: '2025-03-05' })).toBe(
      '# Ana \\*B\\*: my Sleepweave journal\n\n1 entry, Monday, March 3, 2025. Exported on Wednesday, March 5, 2025.\n',
    );
  });
});
