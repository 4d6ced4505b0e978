import { describe, expect, it } from 'vitest';
import { PdfReport } from './pdf.ts';
import { collect, pdfFonts, pdfInfo, pdfSeenLines, pdfText } from './testing.ts';

/** (integration: it reads the PDF back with poppler-utils, another program.) */
describe('PdfReport', () => {
  const NAME = 'Zoë Łukasiewicz · Ольга Σοφία İpek Şahin Nguyễn Thị Hương';

  it('prints every character of her name in the embedded DejaVu Sans, with "Page N" on every page and the table header on each', async () => {
    const report = new PdfReport({ title: `Report of ${NAME}`, footer: NAME });
    const pdf = collect(report.doc);
    report.heading('A report', 1);
    report.paragraph(NAME);
    report.paragraph('Signs she may type: ’ “ ” – — ° ½ ≥ € … ✓ ☺');
    const table = report.table([
      { header: 'Night', width: 2 },
      { header: 'Score', width: 1, align: 'right' },
    ]);
    for (let i = 1; i <= 120; i++) table.row([`Night ${i}`, String(60 + (i % 30))], { note: i % 40 === 0 ? `A note on night ${i}` : null });
    table.end();
    report.end();
    const bytes = await pdf;

    const info = await pdfInfo(bytes);
    const pages = Number(info.Pages);
    expect(pages).toBeGreaterThanOrEqual(3);
    expect(info.Title).toBe(`Report of ${NAME}`);
    expect(await pdfFonts(bytes)).toEqual(expect.arrayContaining([expect.objectContaining({ embedded: true })]));
    expect((await pdfFonts(bytes)).every((font) => font.embedded && font.name.includes('DejaVuSans'))).toBe(true);

    const text = await pdfText(bytes);
    expect(text).toContain(NAME);
    expect(text).toContain('Signs she may type: ’ “ ” – — ° ½ ≥ € … ✓ ☺');
    const byPage = text.split('\f').filter((page) => page.trim() !== '');
    expect(byPage).toHaveLength(pages);
    byPage.forEach((page, i) => {
      expect(page).toContain(`${NAME} · Page ${i + 1}`);
      expect(page).toMatch(/Night\s+Score/);
    });
    for (let i = 1; i <= 120; i++) expect(text).toMatch(new RegExp(`Night ${i}\\s+${60 + (i % 30)}\\n`));
    expect(text).toContain('A note on night 120');
  });
});

describe('PdfReport, right-to-left text', () => {
  /** A word of a right-to-left script as a reader sees it drawn, left to right: its letters backwards. */
  const drawn = (word: string) => [...word].reverse().join('');

  it('sets Hebrew and Arabic right to left, aligned right; numbers, brackets and English words in their places', async () => {
    const report = new PdfReport({ title: 'RTL', footer: 'אדה לוין' });
    const pdf = collect(report.doc);
    report.paragraph('אני ישנתי טוב הלילה');
    report.paragraph('ישנתי 7 שעות (בערך)');
    report.paragraph('نمت جيدا');
    report.paragraph('I slept in שלום עליכם today.');
    report.paragraph('ישנתי טוב :)');
    report.end();
    const lines = await pdfSeenLines(await pdf);
    // left to right on the page: the sentence's last word first
    expect(lines.map((line) => line.words)).toEqual([
      ['הלילה', 'טוב', 'ישנתי', 'אני'].map(drawn),
      // the number as written; the brackets drawn as mirror images: "(" opens to the left
      ['(ךרעב)', drawn('שעות'), '7', drawn('ישנתי')],
      // (Arabic is drawn in its joined forms, which pdftotext reads as the letters)
      [expect.any(String), expect.any(String)],
      // an English sentence with a Hebrew phrase in it: the phrase right to left in its place
      ['I', 'slept', 'in', drawn('עליכם'), drawn('שלום'), 'today.'],
      // a smile after Hebrew: at its left, and still a smile
      ['(:', drawn('טוב'), drawn('ישנתי')],
      // the footer: her name first, read right to left, then the page
      ['Page', '1', '·', drawn('לוין'), drawn('אדה')],
    ]);
    // aligned right, the English at the left margin
    expect(lines[0]!.xMax).toBeCloseTo(lines[1]!.xMax, 0);
    expect(lines[0]!.xMin).toBeGreaterThan(300);
    expect(lines[3]!.xMin).toBeCloseTo(48, 0);
  });

  it('breaks a long right-to-left paragraph between words, every word kept, and a note of a table too', async () => {
    const words = Array.from({ length: 60 }, (_, i) => `מילה${i}`);
    const report = new PdfReport({ title: 'RTL', footer: 'x' });
    const pdf = collect(report.doc);
    report.paragraph(words.join(' '));
    const table = report.table([{ header: 'Night', width: 1 }]);
    table.row(['Mon'], { note: words.slice(0, 30).join(' ') });
    table.end();
    report.end();
    const lines = await pdfSeenLines(await pdf);
    // read right to left, line after line: each word drawn as its number, then its letters backwards
    const read = (seen: typeof lines) =>
      seen
        .flatMap((line) => [...line.words].reverse())
        .map((word) => {
          const [, number, letters] = /^(\d*)(.*)$/.exec(word)!;
          return `${drawn(letters!)}${number}`;
        });
    const header = lines.findIndex((line) => line.words.includes('Night'));
    expect(header).toBeGreaterThan(2);
    for (const line of lines.slice(0, header)) expect(line.xMax).toBeLessThanOrEqual(547.5);
    expect(read(lines.slice(0, header))).toEqual(words);
    const mon = lines.findIndex((line) => line.words.includes('Mon'));
    expect(read(lines.slice(mon + 1, -1))).toEqual(words.slice(0, 30));
  });

  it('takes a right-to-left note taller than a page on to the next page, losing no line', async () => {
    const lines = Array.from({ length: 120 }, (_, i) => `שורה${i}`);
    const report = new PdfReport({ title: 'RTL', footer: 'x' });
    const pdf = collect(report.doc);
    const table = report.table([{ header: 'Night', width: 1 }]);
    table.row(['Mon'], { note: lines.join('\n') });
    table.row(['Tue']);
    table.end();
    report.end();
    const text = (await pdfText(await pdf)).replace(/[\u202a-\u202e]/g, '');
    for (const line of lines) expect(text).toContain(line);
    expect(text).toContain('Tue');
  });
});
