import { EMOJI_FONT_FILES, FONT_FILES, type FontWeight } from './fonts.ts';

/**
 * Her emoji in our PDFs. DejaVu Sans (fonts.ts) has few of them and pdfkit sets a string in
 * one font, so a "🌙" in her journal printed as an empty box. Here a text with emoji is cut
 * into runs, each set in its own font: a grapheme (what a reader takes for one character:
 * "👍🏽", "🇬🇧", "1️⃣", "👩‍❤️‍👨") shown as a picture goes to the emoji font, the rest stays in
 * DejaVu Sans. Shown as a picture: a character whose default presentation is emoji
 * (Emoji_Presentation: 🌙 ⭐ 😊), or one asked to be (U+FE0F after it, a keycap's U+20E3, a
 * flag's regional indicators). Signs whose default is text (© ✓ ☺ ❤ typed alone) stay in
 * DejaVu Sans, as a phone shows them in a line of text, unless DejaVu has no glyph for them
 * (🛏 🌡 🕯 typed without U+FE0F, as desktops and pasted text often have them). A text with
 * no emoji goes to pdfkit as it did before.
 */
const PICTURE = /\p{Emoji_Presentation}|\uFE0F|\u20E3|\p{Regional_Indicator}/u;
const PICTOGRAPHIC = /\p{Extended_Pictographic}/u;
const PICTOGRAPHS = /\p{Extended_Pictographic}/gu;
const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** Whether the text font has a glyph for a code point. */
export type Covers = (codePoint: number) => boolean;
const coversAll: Covers = () => true;

/** Whether `text` has a grapheme for the emoji font (`covers`: the text font's glyphs). */
export const hasEmoji = (text: string, covers: Covers = coversAll): boolean =>
  PICTURE.test(text) || (PICTOGRAPHIC.test(text) && [...text.matchAll(PICTOGRAPHS)].some(([sign]) => !covers(sign.codePointAt(0)!)));

export interface FontRun {
  text: string;
  emoji: boolean;
}

/** `text` as runs of graphemes set in one font each, in their order (`covers`: the text font's glyphs). */
export function fontRuns(text: string, covers: Covers = coversAll): FontRun[] {
  const runs: FontRun[] = [];
  for (const { segment } of graphemes.segment(text)) {
    const emoji = hasEmoji(segment, covers);
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

/** The glyphs of `fonts.text` (fontkit's font inside pdfkit's; made current); without it, every sign is taken as there. */
function coversOf(doc: PDFKit.PDFDocument, fonts: FontPair): Covers {
  const font = (doc.font(fonts.text) as unknown as { _font?: { font?: { hasGlyphForCodePoint?: Covers } } })._font?.font;
  return font?.hasGlyphForCodePoint ? (codePoint) => font.hasGlyphForCodePoint!(codePoint) : coversAll;
}

/** The runs of `text` when it has emoji for the emoji font, else null (it goes to pdfkit whole). */
function emojiRuns(doc: PDFKit.PDFDocument, fonts: FontPair, text: string): FontRun[] | null {
  if (!PICTURE.test(text) && !PICTOGRAPHIC.test(text)) return null;
  const covers = coversOf(doc, fonts);
  return hasEmoji(text, covers) ? fontRuns(text, covers) : null;
}

/** The font of the run `flow` is setting: a page break inside it (PdfReport's footer changes the font) puts it back. */
const fontOfRuns = new WeakMap<PDFKit.PDFDocument, string>();
export const fontOfRun = (doc: PDFKit.PDFDocument): string | undefined => fontOfRuns.get(doc);

/** The width of `text` in the current size, its emoji measured in the emoji font. */
export function widthOf(doc: PDFKit.PDFDocument, fonts: FontPair, text: string): number {
  const runs = emojiRuns(doc, fonts, text);
  if (!runs) return doc.widthOfString(text);
  let width = 0;
  for (const run of runs) width += doc.font(run.emoji ? fonts.emoji : fonts.text).widthOfString(run.text);
  doc.font(fonts.text);
  return width;
}

/** Sets `text` on one line from (x, y), not wrapped, its emoji in the emoji font. */
export function drawLine(doc: PDFKit.PDFDocument, fonts: FontPair, text: string, x: number, y: number): void {
  const runs = emojiRuns(doc, fonts, text);
  if (!runs) {
    doc.text(text, x, y, { lineBreak: false });
    return;
  }
  let at = x;
  for (const run of runs) {
    doc.font(run.emoji ? fonts.emoji : fonts.text).text(run.text, at, y, { lineBreak: false });
    at += doc.widthOfString(run.text);
  }
  doc.font(fonts.text);
}

/**
 * pdfkit's own text layout, which PDFKit's types leave out: `text` laid out with a callback
 * per line (`_line` draws it: what `text()` does).
 */
interface LayOut {
  _text(text: string, x: unknown, y: unknown, options: PDFKit.Mixins.TextOptions | undefined, onLine: OnLine): void;
  _line: OnLine;
}
type OnLine = (...line: unknown[]) => void;

/**
 * Lays out `runs` from (x, y) as the continued pieces of one text, each in its font, with
 * `onLine` for each line (drawing it, or measuring), and puts the text font back.
 */
function layOutRuns(
  doc: PDFKit.PDFDocument,
  fonts: FontPair,
  runs: FontRun[],
  x: number,
  y: number,
  options: PDFKit.Mixins.TextOptions,
  onLine: OnLine,
): void {
  const layOut = doc as unknown as LayOut;
  runs.forEach((run, i) => {
    const font = run.emoji ? fonts.emoji : fonts.text;
    fontOfRuns.set(doc, font);
    doc.font(font);
    const piece = { ...options, continued: i < runs.length - 1 };
    if (i === 0) layOut._text(run.text, x, y, piece, onLine);
    else layOut._text(run.text, piece, undefined, undefined, onLine);
  });
  fontOfRuns.delete(doc);
  doc.font(fonts.text);
}

/**
 * Its lines, each set on its own (pdfkit starts the line after a line break inside a
 * continued piece where that piece began, not at the margin); an empty one as a space,
 * which pdfkit sets as a line of its height, as it does an empty line inside a text.
 */
const linesOf = (text: string): string[] =>
  text
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((line) => line || ' ');

/**
 * pdfkit's `text(text, x, y, options)`, wrapped in `options.width` (and on to the next page as
 * pdfkit's own), with its emoji in the emoji font: the runs of each line go to pdfkit as the
 * continued pieces of one text, so the line breaks as one text's. pdfkit aligns each piece
 * on its own, so a line with emoji centred or aligned right is aligned here when it fits,
 * and set from the left otherwise.
 */
export function flow(
  doc: PDFKit.PDFDocument,
  fonts: FontPair,
  text: string,
  x: number,
  y: number,
  options: PDFKit.Mixins.TextOptions,
): void {
  if (!emojiRuns(doc, fonts, text)) {
    doc.text(text, x, y, options);
    return;
  }
  linesOf(text).forEach((line, i) => flowLine(doc, fonts, line, x, i === 0 ? y : doc.y, options));
}

function flowLine(doc: PDFKit.PDFDocument, fonts: FontPair, line: string, x: number, y: number, options: PDFKit.Mixins.TextOptions) {
  const runs = emojiRuns(doc, fonts, line);
  if (!runs) {
    doc.text(line, x, y, options);
    return;
  }
  const { align, ...rest } = options;
  if ((align === 'center' || align === 'right') && rest.width !== undefined) {
    const width = widthOf(doc, fonts, line);
    if (width <= rest.width) {
      drawLine(doc, fonts, line, align === 'right' ? x + rest.width - width : x + (rest.width - width) / 2, y);
      doc.x = x;
      doc.y = y + doc.currentLineHeight(true) + (rest.lineGap ?? 0) + (rest.paragraphGap ?? 0);
      return;
    }
  }
  const layOut = doc as unknown as LayOut;
  layOutRuns(doc, fonts, runs, x, y, rest, (...line) => layOut._line.apply(doc, line));
}

/**
 * pdfkit's `heightOfString(text, options)` for what `flow` sets: its emoji measured in the
 * emoji font, the runs of each line laid out as one text (pdfkit's own layout, drawing
 * nothing and breaking no page).
 */
export function heightOf(doc: PDFKit.PDFDocument, fonts: FontPair, text: string, options: PDFKit.Mixins.TextOptions): number {
  if (!emojiRuns(doc, fonts, text)) return doc.heightOfString(text, options);
  return linesOf(text).reduce((height, line) => height + heightOfLine(doc, fonts, line, options), 0);
}

function heightOfLine(doc: PDFKit.PDFDocument, fonts: FontPair, line: string, options: PDFKit.Mixins.TextOptions): number {
  const runs = emojiRuns(doc, fonts, line);
  if (!runs) return doc.heightOfString(line, options);
  const { x, y } = doc;
  const lineGap = options.lineGap ?? 0;
  const onLine = () => {
    doc.y += doc.currentLineHeight(true) + lineGap;
  };
  const { align: _align, ...rest } = options;
  layOutRuns(doc, fonts, runs, x, y, { ...rest, height: Number.POSITIVE_INFINITY }, onLine);
  const height = doc.y - y;
  doc.x = x;
  doc.y = y;
  return height;
}
