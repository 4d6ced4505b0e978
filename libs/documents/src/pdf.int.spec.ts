import { describe, expect, it } from 'vitest';
import { PdfReport } from './pdf.ts';
import { collect, pdfFonts, pdfInfo, pdfText } from './testing.ts';

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
