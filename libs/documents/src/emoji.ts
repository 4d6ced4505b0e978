import { EMOJI_FONT_FILES, FONT_FILES, type FontWeight } from './fonts.ts';

/**
 * Her emoji in our PDFs. DejaVu Sans (fonts.ts) has few of them and pdfkit sets a string in
 * one font, so a "🌙" in her journal printed as an empty box. Here a text with emoji is cut
 * into runs, each set in its own font: a grapheme (what a reader takes for one character:
 * "👍🏽", "🇬🇧", "1️⃣", "👩‍❤️‍👨") shown as a picture goes to the emoji font, the rest stays in
 * DejaVu Sans. Shown as a picture: a character whose default presentation is emoji
 * (Emoji_Presentation: 🌙 ⭐ 😊), or one asked to be (U+FE0F after it, a keycap's U+20E3, a
 * flag's regional indicators). Signs whose default is text (© ✓ ☺ ❤ typed alone) stay in
 * DejaVu Sans, as a phone shows them in a line of text. A text with no emoji goes to pdfkit
 * as it did before.
 */
const PICTURE = /\p{Emoji_Presentation}|\uFE0F|\u20E3|\p{Regional_Indicator}/u;
const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

export const hasEmoji = (text: string): boolean => PICTURE.test(text);

export interface FontRun {
  text: string;
  emoji: boolean;
}

/** `text` as runs of graphemes set in one font each, in their order. */
export function fontRuns(text: string): FontRun[] {
  const runs: FontRun[] = [];
  for (const { segment } of graphemes.segment(text)) {
    const emoji = PICTURE.test(segment);
    const last = runs.at(-1);
    if (last?.emoji === emoji) last.text += segment;
    else runs.push({ text: segment, emoji });
  }
  return runs;
}

/** The text font and the emoji font of one weight, by path (pdfkit opens a font once per path). */
export interface FontPair {
  text: string;
  emoji: string;
}

export const fontPair = (weight: FontWeight): FontPair => ({ text: FONT_FILES[weight], emoji: EMOJI_FONT_FILES[weight] });

/** The font of the run `flow` is setting: a page break inside it (PdfReport's footer changes the font) puts it back. */
const fontOfRuns = new WeakMap<PDFKit.PDFDocument, string>();
export const fontOfRun = (doc: PDFKit.PDFDocument): string | undefined => fontOfRuns.get(doc);

/** The width of `text` in the current size, its emoji measured in the emoji font. */
export function widthOf(doc: PDFKit.PDFDocument, fonts: FontPair, text: string): number {
  if (!hasEmoji(text)) return doc.widthOfString(text);
  let width = 0;
  for (const run of fontRuns(text)) width += doc.font(run.emoji ? fonts.emoji : fonts.text).widthOfString(run.text);
  doc.font(fonts.text);
  return width;
}

/** Sets `text` on one line from (x, y), not wrapped, its emoji in the emoji font. */
export function drawLine(doc: PDFKit.PDFDocument, fonts: FontPair, text: string, x: number, y: number): void {
  if (!hasEmoji(text)) {
    doc.text(text, x, y, { lineBreak: false });
    return;
  }
  let at = x;
  for (const run of fontRuns(text)) {
    doc.font(run.emoji ? fonts.emoji : fonts.text).text(run.text, at, y, { lineBreak: false });
    at += doc.widthOfString(run.text);
  }
  doc.font(fonts.text);
}

/** pdfkit's own text layout, which PDFKit's types leave out: `text` laid out with a callback per line. */
interface LayOut {
  _text(text: string, x: unknown, y: unknown, options: PDFKit.Mixins.TextOptions | undefined, onLine: () => void): void;
}

/**
 * pdfkit's `text(text, x, y, options)`, wrapped in `options.width` (and on to the next page as
 * pdfkit's own), with its emoji in the emoji font: the runs go to pdfkit as the continued
 * pieces of one text, so its lines break as one text's. pdfkit aligns each piece on its
 * own, so a text with emoji centred or aligned right is aligned here when it fits on one
 * line, and set from the left otherwise.
 */
export function flow(
  doc: PDFKit.PDFDocument,
  fonts: FontPair,
  text: string,
  x: number,
  y: number,
  options: PDFKit.Mixins.TextOptions,
): void {
  if (!hasEmoji(text)) {
    doc.text(text, x, y, options);
    return;
  }
  const { align, ...rest } = options;
  if ((align === 'center' || align === 'right') && rest.width !== undefined && !text.includes('\n')) {
    const width = widthOf(doc, fonts, text);
    if (width <= rest.width) {
      drawLine(doc, fonts, text, align === 'right' ? x + rest.width - width : x + (rest.width - width) / 2, y);
      doc.x = x;
      doc.y = y + doc.currentLineHeight(true) + (rest.lineGap ?? 0);
      return;
    }
  }
  const runs = fontRuns(text);
  runs.forEach((run, i) => {
    const font = run.emoji ? fonts.emoji : fonts.text;
    fontOfRuns.set(doc, font);
    const piece = { ...rest, continued: i < runs.length - 1 };
    doc.font(font);
    if (i === 0) doc.text(run.text, x, y, piece);
    else doc.text(run.text, piece);
  });
  fontOfRuns.delete(doc);
  doc.font(fonts.text);
}

/**
 * pdfkit's `heightOfString(text, options)` for what `flow` sets: its emoji measured in the
 * emoji font, the runs laid out as one text (pdfkit's own layout, drawing nothing and
 * breaking no page).
 */
export function heightOf(doc: PDFKit.PDFDocument, fonts: FontPair, text: string, options: PDFKit.Mixins.TextOptions): number {
  if (!hasEmoji(text)) return doc.heightOfString(text, options);
  const { x, y } = doc;
  const lineGap = options.lineGap ?? 0;
  const onLine = () => {
    doc.y += doc.currentLineHeight(true) + lineGap;
  };
  const layOut = doc as unknown as LayOut;
  const { align: _align, ...rest } = options;
  const runs = fontRuns(text);
  runs.forEach((run, i) => {
    doc.font(run.emoji ? fonts.emoji : fonts.text);
    const piece = { ...rest, height: Number.POSITIVE_INFINITY, continued: i < runs.length - 1 };
    if (i === 0) layOut._text(run.text, x, y, piece, onLine);
    else layOut._text(run.text, piece, undefined, undefined, onLine);
  });
  const height = doc.y - y;
  doc.font(fonts.text);
  doc.x = x;
  doc.y = y;
  return height;
}
