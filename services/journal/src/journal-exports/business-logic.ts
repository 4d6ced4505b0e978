import { calendarDateIn, JOURNAL_FIELDS, type JournalEntry } from '@sleepweave/contracts';

/**
 * Her journal as a document, worked out without I/O: dates and times as she reads them
 * (in her timezone), and the Markdown of each entry, her words kept as she wrote them.
 */

/** 'Monday, March 3, 2025' (docs/product.md §2: the journal's long-form date). */
export function longDate(date: string): string {
  return new Intl.DateTimeFormat('en-US', { weekday: 'long', year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' }).format(
    new Date(`${date}T00:00:00Z`),
  );
}

/**
 * The time she wrote an entry, on her clock: '9:14 PM'. With the day too ('Mar 3, 9:14 PM')
 * when her clock now puts it on another day than the entry's (dated in the zone she had when
 * she wrote it, and she has moved since): a time under a day it was not, otherwise.
 */
export function timeWritten(createdAt: string, timeZone: string, entryDate?: string): string {
  const instant = new Date(createdAt);
  const otherDay = entryDate !== undefined && calendarDateIn(timeZone, instant) !== entryDate;
  return new Intl.DateTimeFormat('en-US', {
    ...(otherDay ? { month: 'short', day: 'numeric' } : {}),
    hour: 'numeric',
    minute: '2-digit',
    timeZone,
  }).format(instant);
}

/** The reflections of an entry she wrote, with their labels; blank ones left out (as on the screen). */
export function reflectionsOf(entry: JournalEntry): { label: string; text: string }[] {
  return JOURNAL_FIELDS.flatMap(({ name, label }) => (entry[name].trim() === '' ? [] : [{ label, text: entry[name] }]));
}

/** A line's leading spaces and tabs (a tab as four), as no-break spaces. */
const keepIndent = (line: string) => line.replace(/^[ \t]+/, (lead) => lead.replace(/\t/g, '    ').replace(/ /g, '\u00A0'));

/**
 * Her text, safe in Markdown: what would be read as markup (emphasis, links, code, HTML,
 * a heading, a list or a quote at the start of a line) is escaped with a backslash, so
 * a Markdown viewer shows exactly what she typed; her line breaks are kept, and so is a
 * line's indent, as no-break spaces (four spaces or a tab would make it a code block, which
 * shows the backslashes, and fewer are dropped).
 */
export function escapeMarkdown(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((line) =>
      line
        .replace(/[\\`*_[\]<>|~&]/g, (c) => `\\${c}`)
        .replace(/^(\s*)([#>+-])/, '$1\\$2')
        .replace(/^(\s*\d+)([.)])/, '$1\\$2')
        .replace(/^(\s*)=/, '$1\\='),
    )
    .map(keepIndent)
    .map((line) => (line === '' ? '' : `${line}  `)) // a hard line break, as in her text
    .join('\n')
    .replace(/ {2}$/, '');
}

export interface JournalHeader {
  name: string;
  entries: number;
  first: string;
  last: string;
  exportedOn: string;
}

export function markdownHeader(header: JournalHeader): string {
  const span = header.first === header.last ? longDate(header.first) : `${longDate(header.first)} to ${longDate(header.last)}`;
  return [
    `# ${escapeMarkdown(header.name)}: my Sleepweave journal`,
    '',
    `${header.entries} ${header.entries === 1 ? 'entry' : 'entries'}, ${span}. Exported on ${longDate(header.exportedOn)}.`,
    '',
  ].join('\n');
}

/** One entry: its day as a heading (once per day), the time she wrote it, each reflection. */
export function markdownEntry(entry: JournalEntry, timeZone: string, newDay: boolean): string {
  const lines: string[] = [];
  if (newDay) lines.push(`## ${longDate(entry.date)}`, '');
  lines.push(`*Written at ${timeWritten(entry.createdAt, timeZone, entry.date)}*`, '');
  for (const { label, text } of reflectionsOf(entry)) lines.push(`**${label}**`, '', escapeMarkdown(text), '');
  return `${lines.join('\n')}\n`;
}
