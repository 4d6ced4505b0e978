import { setImmediate as turn } from 'node:timers/promises';
import PDFDocument from 'pdfkit';
import { bidiLines, drawBidiLine, hasRightToLeft, type BidiLine, type Measure } from './bidi.ts';
import { flow, fontOfRun, heightOf, widthOf } from './font-runs.ts';
import { FONT_FILES, type FontWeight } from './fonts.ts';

/** The colours of our documents: calm ink on white, the app's violet as accent. */
export const PDF_COLORS = {
  ink: '#1f2937',
  muted: '#5b6472',
  accent: '#4c3f91',
  rule: '#d6d3e8',
  zebra: '#f6f5fb',
  headerFill: '#ece9f8',
} as const;

export interface TextStyle {
  weight: FontWeight;
  size: number;
  color: string;
}

export interface PdfReportOptions {
  /** The document's title (its metadata, and what a PDF viewer shows in its title bar). */
  title: string;
  author?: string;
  subject?: string;
  /** Printed at the foot of every page, before "Page N". */
  footer: string;
}

/** What pdfkit (0.20.2) keeps of each font a document uses, until it embeds them at the end. */
interface EmbeddedFonts {
  _fontFamilies: Record<string, { font?: { getGlyph(id: number): { advanceWidth: number } }; scale?: number; widths?: number[] }>;
}

/**
 * pdfkit writes the width of a font's missing glyph (the empty box drawn for a character no
 * font of ours has: Thai, Devanagari) in the font's own units, not in thousandths of its size
 * as every other width: a box in DejaVu Sans (2,048 units) was drawn twice as wide as it was
 * laid out, over the text after it. Each font's is put right before the fonts are embedded.
 */
function scaleMissingGlyphWidths(doc: PDFKit.PDFDocument): void {
  for (const font of Object.values((doc as unknown as EmbeddedFonts)._fontFamilies)) {
    if (font.font && font.scale && font.widths) font.widths[0] = font.font.getGlyph(0).advanceWidth * font.scale;
  }
}

const BODY: TextStyle = { weight: 'regular', size: 10, color: PDF_COLORS.ink };

/**
 * An A4 PDF written as it goes (pdfkit streams; no page is kept once it is done), in DejaVu
 * Sans, what it lacks in Noto Sans SC/JP/KR and Noto Emoji (fonts.ts, font-runs.ts), with a
 * footer and "Page N" on every page. The document is a readable stream: send it as the
 * answer, or collect it in tests.
 *
 * Every piece of text goes through `style()` so a page break (pdfkit's own, in a long
 * paragraph, or ours) can draw the footer and then put the style back as it was.
 * The footer says "Page N", not "N of M": the total is known only at the end, and
 * waiting for it would keep every page in memory.
 */
export class PdfReport {
  readonly doc: PDFKit.PDFDocument;
  private pageNumber = 0;
  private current: TextStyle = BODY;

  constructor(private readonly options: PdfReportOptions) {
    this.doc = new PDFDocument({
      size: 'A4',
      margins: { top: 54, bottom: 54, left: 48, right: 48 },
      autoFirstPage: false,
      font: FONT_FILES.regular,
      lang: 'en',
      displayTitle: true,
      info: { Title: options.title, Author: options.author ?? 'Sleepweave', Subject: options.subject ?? '', Creator: 'Sleepweave' },
    });
    this.doc.on('pageAdded', () => this.onPageAdded());
    // pdfkit pushes its pages whether or not they are read (its _read does nothing): the
    // stream asks for more (calls _read) once the reader has taken its fill, which wakes a
    // writer waiting in `drained()`.
    this.doc._read = () => this.wakeWriter();
    this.doc.once('close', () => this.wakeWriter());
    this.doc.addPage();
  }

  private waiting: (() => void)[] = [];

  private wakeWriter(): void {
    const waiting = this.waiting;
    this.waiting = [];
    for (const resolve of waiting) resolve();
  }

  /**
   * For a writer of many pages, between pieces: lets the event loop turn (laying out text
   * holds it; a long document would keep the service from answering anyone else), then waits
   * while what is written and not yet read reaches the stream's high-water mark, so a slow
   * reader is waited for instead of the document piling up in memory. Resolves at once when
   * the stream is gone (the download was cancelled).
   */
  async drained(): Promise<void> {
    await turn();
    const { doc } = this;
    while (!doc.destroyed && doc.readableLength >= doc.readableHighWaterMark) {
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
  }

  get left(): number {
    return this.doc.page.margins.left;
  }
  get width(): number {
    return this.doc.page.width - this.doc.page.margins.left - this.doc.page.margins.right;
  }
  /** The lowest y text may reach on this page. */
  get bottom(): number {
    return this.doc.page.height - this.doc.page.margins.bottom;
  }
  get pages(): number {
    return this.pageNumber;
  }

  /** Sets the font, size and colour of what follows (unset parts stay as they are). */
  style(style: Partial<TextStyle>): this {
    this.current = { ...this.current, ...style };
    // By path, not by a registered alias: pdfkit 0.20 caches a font under the key it was
    // first opened by, and reopened (read and parsed) the default font on every call by alias.
    this.doc.font(FONT_FILES[this.current.weight]).fontSize(this.current.size).fillColor(this.current.color);
    return this;
  }

  /** The weight of the current style. */
  get weight(): FontWeight {
    return this.current.weight;
  }

  /** Widths in the current style, each run in its font (for bidi.ts's line breaks). */
  measure(weight: FontWeight = this.weight): Measure {
    return { widthOfString: (text) => widthOf(this.doc, weight, text) };
  }

  /** Body text, 10 pt. */
  body(): this {
    return this.style(BODY);
  }

  /** A paragraph at the left margin, full width, in the current style (right-to-left text: bidi.ts). */
  paragraph(text: string, options: PDFKit.Mixins.TextOptions = {}): this {
    const { doc, weight } = this;
    if (!hasRightToLeft(text)) {
      flow(doc, weight, text, this.left, doc.y, { width: this.width, ...options });
      return this;
    }
    for (const line of bidiLines(this.measure(weight), text, this.width)) {
      const height = doc.currentLineHeight(true) + (options.lineGap ?? 0);
      if (doc.y + height > this.bottom) this.newPage();
      const y = doc.y;
      drawBidiLine(doc, weight, line, { left: this.left, width: this.width, y });
      doc.x = this.left;
      doc.y = y + height;
    }
    return this;
  }

  /** A heading that is never left alone at the foot of a page: `keepWith` points of what follows stay with it. */
  heading(text: string, level: 1 | 2 | 3 = 2, keepWith = 24): this {
    const size = level === 1 ? 22 : level === 2 ? 14 : 11.5;
    this.ensureSpace(size * 3 + keepWith);
    if (level > 1 && this.doc.y > this.doc.page.margins.top + 1) this.doc.moveDown(level === 2 ? 0.8 : 0.5);
    this.style({ weight: 'bold', size, color: level === 1 ? PDF_COLORS.accent : PDF_COLORS.ink });
    this.paragraph(text);
    this.doc.moveDown(level === 1 ? 0.2 : 0.3);
    return this.body();
  }

  /** A new page when less than `height` is left on this one. */
  ensureSpace(height: number): this {
    if (this.doc.y + height > this.bottom) this.newPage();
    return this;
  }

  newPage(): this {
    this.doc.addPage();
    return this;
  }

  /** A PNG (a chart) across the full width, scaled to `height`. */
  image(png: Buffer, height: number): this {
    this.ensureSpace(height + 6);
    const y = this.doc.y;
    this.doc.image(png, this.left, y, { fit: [this.width, height], align: 'center' });
    this.doc.x = this.left;
    this.doc.y = y + height + 6;
    return this;
  }

  /** A table written row by row (see PdfTable); `widths` are weights, scaled to the page. */
  table(columns: readonly TableColumn[], options: TableOptions = {}): PdfTable {
    return new PdfTable(this, columns, options);
  }

  /** Ends the document: the stream ends once the last bytes are out. */
  end(): void {
    scaleMissingGlyphWidths(this.doc);
    this.doc.end();
  }

  private onPageAdded(): void {
    this.pageNumber += 1;
    const { doc } = this;
    const margins = doc.page.margins;
    const bottom = margins.bottom;
    // Below the bottom margin: pdfkit would break the page for it unless the margin is lifted.
    margins.bottom = 0;
    // A page break inside a piece of a text that flow() sets (font-runs.ts) in continued pieces:
    // the footer is its own text, not a part of the piece's (pdfkit would lay it out in that
    // text's lines, on the page that just ended), and the piece goes on in its font.
    const run = fontOfRun(doc);
    const inText = doc as unknown as { _wrapper: unknown; _textOptions: unknown };
    const { _wrapper: wrapper, _textOptions: textOptions } = inText;
    inText._wrapper = null;
    inText._textOptions = null;
    doc.font(FONT_FILES.regular).fontSize(8).fillColor(PDF_COLORS.muted);
    const footer = `${this.options.footer} · Page ${this.pageNumber}`;
    const box = { left: margins.left, width: doc.page.width - margins.left - margins.right, y: doc.page.height - bottom + 18 };
    if (hasRightToLeft(footer)) {
      // (her name in Hebrew, say) on one line, its words in their order
      const [line] = bidiLines(this.measure('regular'), footer, Number.POSITIVE_INFINITY);
      if (line) drawBidiLine(doc, 'regular', line, { ...box, align: 'center' });
    } else {
      flow(doc, 'regular', footer, box.left, box.y, { width: box.width, align: 'center', lineBreak: false });
    }
    margins.bottom = bottom;
    doc.x = margins.left;
    doc.y = margins.top;
    this.style(this.current);
    if (run) doc.font(run);
    inText._wrapper = wrapper;
    inText._textOptions = textOptions;
  }
}

export interface TableColumn {
  header: string;
  /** A weight: the columns share the page's width in these proportions. */
  width: number;
  align?: 'left' | 'right' | 'center';
}

export interface TableOptions {
  fontSize?: number;
}

export interface TableRowOptions {
  /** A line under the row across the whole width (her comments, say), in oblique. */
  note?: string | null;
  bold?: boolean;
}

const PAD = 3;

/**
 * A table drawn row by row: each row as tall as its tallest cell; a page break before a
 * row that does not fit, with the header again on the new page; light stripes.
 */
export class PdfTable {
  private readonly widths: number[];
  private rows = 0;
  private readonly fontSize: number;

  constructor(
    private readonly report: PdfReport,
    private readonly columns: readonly TableColumn[],
    options: TableOptions,
  ) {
    const total = columns.reduce((sum, column) => sum + column.width, 0);
    this.widths = columns.map((column) => (column.width / total) * report.width);
    this.fontSize = options.fontSize ?? 8.5;
    this.header();
  }

  row(cells: readonly string[], options: TableRowOptions = {}): void {
    const { doc } = this.report;
    const weight: FontWeight = options.bold ? 'bold' : 'regular';
    this.report.style({ weight, size: this.fontSize, color: PDF_COLORS.ink });
    // a cell with right-to-left text set line by line (bidi.ts), as notes and paragraphs are
    const cellLines = cells.map((cell, i) =>
      hasRightToLeft(cell) ? bidiLines(this.report.measure(weight), cell, this.widths[i]! - 2 * PAD) : null,
    );
    const cellHeight = Math.max(
      ...cells.map((cell, i) => {
        const lines = cellLines[i];
        return lines
          ? lines.length * doc.currentLineHeight(true)
          : heightOf(doc, weight, cell || ' ', { width: this.widths[i]! - 2 * PAD });
      }),
    );
    let noteHeight = 0;
    const noteWidth = this.report.width - 4 * PAD;
    // right-to-left text set line by line (bidi.ts), measured as it will be set
    let noteLines: BidiLine[] | null = null;
    if (options.note) {
      this.report.style({ weight: 'oblique' });
      if (hasRightToLeft(options.note)) noteLines = bidiLines(this.report.measure('oblique'), options.note, noteWidth);
      noteHeight =
        (noteLines ? noteLines.length * doc.currentLineHeight(true) : heightOf(doc, 'oblique', options.note, { width: noteWidth })) + PAD;
    }
    const height = cellHeight + noteHeight + 2 * PAD;
    if (doc.y + height > this.report.bottom) {
      this.report.newPage();
      this.header();
    }
    const top = doc.y;
    if (this.rows % 2 === 1) doc.rect(this.report.left, top, this.report.width, height).fill(PDF_COLORS.zebra);
    this.report.style({ weight, color: PDF_COLORS.ink });
    let x = this.report.left;
    cells.forEach((cell, i) => {
      const width = this.widths[i]! - 2 * PAD;
      const align = this.columns[i]!.align ?? 'left';
      const lines = cellLines[i];
      if (lines) {
        // at its own start side in a column aligned left (the right, for Hebrew), else as the column
        const lineHeight = doc.currentLineHeight(true);
        lines.forEach((line, n) => {
          drawBidiLine(doc, weight, line, {
            left: x + PAD,
            width,
            y: top + PAD + n * lineHeight,
            align: align === 'left' ? 'start' : align,
          });
        });
      } else {
        flow(doc, weight, cell, x + PAD, top + PAD, { width, align });
      }
      x += this.widths[i]!;
    });
    if (options.note) {
      this.report.style({ weight: 'oblique', color: PDF_COLORS.muted });
      const noteTop = top + PAD + cellHeight + PAD;
      if (noteLines) {
        // a note taller than what is left of the page goes on to the next, as pdfkit's own does
        let y = noteTop;
        const lineHeight = doc.currentLineHeight(true);
        for (const line of noteLines) {
          if (y + lineHeight > this.report.bottom) {
            this.report.newPage();
            this.report.style({ weight: 'oblique', color: PDF_COLORS.muted });
            y = doc.y;
          }
          drawBidiLine(doc, 'oblique', line, { left: this.report.left + 3 * PAD, width: noteWidth, y });
          y += lineHeight;
        }
        if (y < top || y > top + height) {
          // it went on to another page: the next row starts under it
          doc.x = this.report.left;
          doc.y = y + PAD;
          this.rows += 1;
          return;
        }
      } else {
        flow(doc, 'oblique', options.note, this.report.left + 3 * PAD, noteTop, { width: noteWidth });
      }
    }
    doc.x = this.report.left;
    doc.y = top + height;
    this.rows += 1;
  }

  /** Ends the table: a rule under it and some space. */
  end(): void {
    const { doc } = this.report;
    doc
      .moveTo(this.report.left, doc.y)
      .lineTo(this.report.left + this.report.width, doc.y)
      .lineWidth(0.5)
      .strokeColor(PDF_COLORS.rule)
      .stroke();
    doc.y += 10;
    this.report.body();
  }

  private header(): void {
    const { doc } = this.report;
    this.report.style({ weight: 'bold', size: this.fontSize, color: PDF_COLORS.ink });
    const height = Math.max(...this.columns.map((c, i) => doc.heightOfString(c.header, { width: this.widths[i]! - 2 * PAD }))) + 2 * PAD;
    if (doc.y + height + 3 * this.fontSize > this.report.bottom) this.report.newPage();
    const top = doc.y;
    doc.rect(this.report.left, top, this.report.width, height).fill(PDF_COLORS.headerFill);
    this.report.style({ weight: 'bold', color: PDF_COLORS.ink });
    let x = this.report.left;
    this.columns.forEach((column, i) => {
      doc.text(column.header, x + PAD, top + PAD, { width: this.widths[i]! - 2 * PAD, align: column.align ?? 'left' });
      x += this.widths[i]!;
    });
    doc.x = this.report.left;
    doc.y = top + height;
    this.rows = 0;
  }
}
