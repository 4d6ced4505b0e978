import type { ResearchRunSummary } from '@sleepweave/contracts';
import PDFDocument from 'pdfkit';
import { count, interimOf, ORDER_CAVEAT } from './build.ts';

const INK = '#1f2937';
const MUTED = '#6b7280';
const ACCENT = '#0f766e';

const format = (x: number | null, digits = 2) => (x === null ? '--' : x.toFixed(digits));

// pdfkit's standard fonts (WinAnsi) have no minus sign or arrows: the text says 'minus', '<' and '>'.

/**
 * report.pdf: what a clinician reads in two minutes. The question and the answer in one
 * sentence each, the participants, the QA headline, and a forest plot of Cohen's d_z with
 * its 95% CI for every metric, polyester vs linen (drawn as vectors by pdfkit).
 */
export async function reportPdf(input: {
  summary: ResearchRunSummary;
  runDate: string;
  minNights: number;
  ciMethod: string;
}): Promise<Buffer> {
  const { summary } = input;
  const doc = new PDFDocument({
    size: 'A4',
    margin: 48,
    info: { Title: `Sleepweave research report ${input.runDate}`, Author: 'Sleepweave' },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise<void>((resolve) => doc.on('end', () => resolve()));

  doc.fillColor(INK).font('Helvetica-Bold').fontSize(18).text('Sleepweave fabric sleep study');
  doc.font('Helvetica').fontSize(11).fillColor(MUTED).text(`Research report of ${input.runDate}`);
  doc.moveDown();
  doc
    .fillColor(INK)
    .fontSize(11)
    .text(
      'Question: do participants sleep differently in linen than in polyester? Each participant sleeps 14 nights in polyester, ' +
        `then 14 in cotton (washout), then 14 in linen; one still in her linen phase is in the comparison once she has ${input.minNights} ` +
        'analysed nights in each (an interim run). For every metric, each participant contributes her phase means, and the two ' +
        "phases are compared within her (paired). The effect size is Cohen's d_z: the mean difference (linen minus polyester) " +
        'divided by the standard deviation of the differences.',
    );
  doc.moveDown(0.5);
  doc.fillColor(MUTED).text(ORDER_CAVEAT).fillColor(INK);
  doc.moveDown(0.5);
  doc.text(
    // why they are not is the quality line's (too few analysed nights, or demo accounts left out)
    `Participants in the comparison: ${count(summary.participantsIncluded)} (at least ${input.minNights} analysed nights in ` +
      `polyester and in linen${interimOf(summary)}); not included: ${count(summary.participantsExcluded)}. Nights logged: ${count(summary.nights)}.`,
  );
  doc.moveDown(0.5);
  doc.fillColor(MUTED).text(`Quality: ${summary.qaHeadline}`);
  doc.moveDown();

  // Forest plot
  doc.fillColor(INK).font('Helvetica-Bold').fontSize(13).text("Linen vs polyester: Cohen's d_z with 95% CI");
  doc.moveDown(0.5);
  const effects = summary.primary;
  const computable = effects.filter((e) => e.dz !== null);
  const bound = Math.max(1, ...computable.flatMap((e) => [Math.abs(e.dzLow ?? e.dz!), Math.abs(e.dzHigh ?? e.dz!)]));
  const limit = Math.ceil(bound * 2) / 2;
  const left = 48;
  const labelWidth = 170;
  const plotLeft = left + labelWidth;
  const plotWidth = 220;
  const valuesLeft = plotLeft + plotWidth + 12;
  const rowHeight = 18;
  const top = doc.y + 6;
  const x = (d: number) => plotLeft + ((d + limit) / (2 * limit)) * plotWidth;

  doc.font('Helvetica').fontSize(9);
  effects.forEach((effect, i) => {
    const y = top + i * rowHeight;
    doc.fillColor(INK).text(effect.label, left, y, { width: labelWidth - 8, lineBreak: false, ellipsis: true });
    if (effect.dz === null) {
      doc.fillColor(MUTED).text('not computable', valuesLeft, y, { lineBreak: false });
      return;
    }
    const cy = y + 5;
    if (effect.dzLow !== null && effect.dzHigh !== null) {
      doc.moveTo(x(effect.dzLow), cy).lineTo(x(effect.dzHigh), cy).lineWidth(1.2).strokeColor(ACCENT).stroke();
    }
    doc.circle(x(effect.dz), cy, 3).fillColor(ACCENT).fill();
    doc.fillColor(INK).text(`${format(effect.dz)} [${format(effect.dzLow)}, ${format(effect.dzHigh)}]  n=${effect.nPairs}`, valuesLeft, y, {
      lineBreak: false,
    });
  });
  const bottom = top + effects.length * rowHeight;
  doc
    .moveTo(x(0), top - 4)
    .lineTo(x(0), bottom)
    .lineWidth(0.6)
    .dash(2, { space: 2 })
    .strokeColor(MUTED)
    .stroke()
    .undash();
  doc
    .moveTo(plotLeft, bottom)
    .lineTo(plotLeft + plotWidth, bottom)
    .lineWidth(0.6)
    .strokeColor(MUTED)
    .stroke();
  doc.fillColor(MUTED).fontSize(8);
  for (const tick of [-limit, -limit / 2, 0, limit / 2, limit])
    doc.text(String(Number(tick.toFixed(2))), x(tick) - 12, bottom + 3, { width: 24, align: 'center' });
  doc.text('lower in linen  <  d_z  >  higher in linen', plotLeft, bottom + 14, { width: plotWidth, align: 'center' });

  doc.x = left;
  doc.y = bottom + 36;
  doc
    .fillColor(MUTED)
    .fontSize(9)
    .text(
      `A positive d_z means the metric was higher in linen. Whether higher is better depends on the metric (a higher sleep score is ` +
        `better; a higher resting heart rate or more heat wake-ups is not). CI of d_z: ${input.ciMethod}. p-values, Holm ` +
        'adjustments, secondary comparisons and every number behind this plot are in comparisons.csv; the methods in README.md.',
      left,
      doc.y,
      { width: 500 },
    );
  // a d_z or an interval left empty (no pairs, differences that do not vary, a very large
  // effect): why, as comparisons.csv's note says; a bare "not computable" told a reader
  // nothing of which
  const notes = effects.filter((e) => e.note !== null);
  if (notes.length > 0) {
    doc.moveDown(0.5);
    for (const effect of notes) {
      const why = effect.dz === null ? `d_z not computable: ${effect.note!.charAt(0).toLowerCase()}${effect.note!.slice(1)}` : effect.note;
      doc.text(`${effect.label}: ${why}`, left, doc.y, { width: 500 });
    }
  }
  doc.end();
  await ended;
  return Buffer.concat(chunks);
}
