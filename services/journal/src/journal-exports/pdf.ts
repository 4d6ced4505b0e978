import type { JournalEntry } from '@sleepweave/contracts';
import { PDF_COLORS, PdfReport } from '@sleepweave/documents';
import { longDate, reflectionsOf, timeWritten, type JournalHeader } from './business-logic.ts';

/**
 * Her journal as a PDF: a title page block, then every entry oldest first under its
 * day, with the time she wrote it and her reflections as she wrote them (long ones flow
 * on to the next page). Written as the entries come from the database, and as she reads it.
 */
export function startJournalPdf(
  header: JournalHeader,
  timeZone: string,
  entries: AsyncIterable<JournalEntry>,
): { report: PdfReport; write: () => Promise<void> } {
  const span = header.first === header.last ? longDate(header.first) : `${longDate(header.first)} – ${longDate(header.last)}`;
  const report = new PdfReport({
    title: `${header.name}: my Sleepweave journal`,
    author: header.name,
    subject: 'Sleepweave daily journal',
    footer: `${header.name} · Sleepweave journal`,
  });
  const write = async () => {
    const { doc } = report;
    report.heading('My journal', 1);
    report.style({ weight: 'bold', size: 15, color: PDF_COLORS.ink }).paragraph(header.name);
    report
      .style({ weight: 'regular', size: 10.5, color: PDF_COLORS.muted })
      .paragraph(`${header.entries} ${header.entries === 1 ? 'entry' : 'entries'} · ${span} · exported on ${longDate(header.exportedOn)}`);
    doc.moveDown(0.5);
    let day: string | null = null;
    for await (const entry of entries) {
      if (doc.destroyed) return; // the download was cancelled: leaving the loop closes the cursor
      if (entry.date !== day) {
        day = entry.date;
        report.heading(longDate(entry.date), 2, 60);
      }
      report.ensureSpace(60);
      report
        .style({ weight: 'oblique', size: 9, color: PDF_COLORS.muted })
        .paragraph(`Written at ${timeWritten(entry.createdAt, timeZone, entry.date)}`);
      doc.moveDown(0.2);
      for (const { label, text } of reflectionsOf(entry)) {
        report.ensureSpace(40);
        report.style({ weight: 'bold', size: 10, color: PDF_COLORS.accent }).paragraph(label);
        report.style({ weight: 'regular', size: 10.5, color: PDF_COLORS.ink }).paragraph(text, { lineGap: 1.5 });
        doc.moveDown(0.4);
      }
      doc.moveDown(0.3);
      // a reader slower than the layout is waited for; others' requests get their turn
      await report.drained();
    }
    report.end();
  };
  return { report, write };
}
