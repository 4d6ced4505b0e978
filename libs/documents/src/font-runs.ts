import { FONT_FILES, fontFace, fontStack, type FontWeight } from './fonts.ts';

/**
 * Her text in our PDFs, whatever she writes it in. pdfkit sets a string in one font, and no
 * font has every letter: DejaVu Sans (fonts.ts) has no Chinese, Japanese or Korean and few
 * emoji, so a "🌙" or a "睡眠" in her journal printed as empty boxes. Here a text is cut into
 * runs, each set in its own font: a grapheme (what a reader takes for one character: "👍🏽",
 * "🇬🇧", "é" typed as e and its accent) goes to the first font of `fontStack` that has a glyph
 * for each of its code points. One shown as a picture goes to the emoji font first: a
 * character whose default presentation is emoji (Emoji_Presentation: 🌙 ⭐ 😊), or one asked
 * to be (U+FE0F after it, a keycap's U+20E3, a flag's regional indicators). Signs whose
 * default is text (© ✓ ☺ ❤ typed alone) stay in DejaVu Sans, as a phone shows them in a line
 * of text, unless it has no glyph for them (🛏 🌡 🕯 typed without U+FE0F). A grapheme no font
 * has (Thai, Devanagari) stays in the text font: an empty box. A text its text font has every
 * glyph of goes to pdfkit whole, as before.
 *
 * Every font of a text is set on the text font's line: its ascender, descender and line gap
 * (`useFont`), so that a line of Latin and Japanese has one baseline and one height whichever
 * font ends it (the CJK fonts' own are a quarter taller).
 */
const PICTURE = /\p{Emoji_Presentation}|\uFE0F|\u20E3|\p{Regional_Indicator}/u;
/** What no font needs a glyph for: joiners, variation selectors, line breaks. */
const INVISIBLE = /[\p{Default_Ignorable_Code_Point}\p{Cc}]/u;
const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** Whether the font file at a path has a glyph for a code point (fonts.ts reads the file; tests say). */
export type Covers = (font: string) => (codePoint: number) => boolean;
const fileCovers: Covers = (font) => fontFace(font).covers;

function coveredBy(covers: (codePoint: number) => boolean, text: string): boolean {
  for (const char of text) if (!covers(char.codePointAt(0)!) && !INVISIBLE.test(char)) return false;
  return true;
}

export interface FontRun {
  text: string;
  /** The path of its font. */
  font: string;
}

export interface RunOptions {
  /** The whole text this piece is a part of (a line of a paragraph): its language orders the CJK fonts (fonts.ts). */
  context?: string;
  covers?: Covers;
}

/**
 * `text` as runs of graphemes set in one font each, in their order; null when the text font
 * of `weight` sets all of it (it goes to pdfkit whole).
 */
export function fontRuns(
  text: string,
  weight: FontWeight,
  { context = text, covers = fileCovers }: RunOptions = {},
): readonly FontRun[] | null {
  if (covers !== fileCovers) return runsOf(text, weight, context, covers);
  // A paragraph is asked for several times in a row (is it one font? its height, then each
  // line to set): its runs are kept for the next ask (cutting 1,900 characters into
  // graphemes takes about 1.5 ms).
  const key = `${weight}\u0000${context === text ? '' : context}\u0000${text}`;
  const known = recentRuns.get(key);
  if (known !== undefined) return known;
  const runs = runsOf(text, weight, context, covers);
  if (recentRuns.size >= RECENT_RUNS) recentRuns.delete(recentRuns.keys().next().value!);
  recentRuns.set(key, runs);
  return runs;
}

/** The runs of the texts last asked for, oldest first (the runs are never changed: callers read them). */
const recentRuns = new Map<string, readonly FontRun[] | null>();
const RECENT_RUNS = 16;

function runsOf(text: string, weight: FontWeight, context: string, covers: Covers): FontRun[] | null {
  const textFont = FONT_FILES[weight];
  if (!PICTURE.test(text) && coveredBy(covers(textFont), text)) return null;
  const stack = fontStack(weight, context);
  const emoji = stack.at(-1)!;
  const runs: FontRun[] = [];
  for (const { segment } of graphemes.segment(text)) {
    const font = PICTURE.test(segment) ? emoji : (stack.find((font) => coveredBy(covers(font), segment)) ?? textFont);
    const last = runs.at(-1);
    if (last?.font === font) last.text += segment;
    else runs.push({ text: segment, font });
  }
  return runs.length === 1 && runs[0]!.font === textFont ? null : runs;
}

/** Makes `font` current, on the line of the text font of `weight` (see above; pdfkit keeps one object per font in a document). */
function useFont(doc: PDFKit.PDFDocument, font: string, weight: FontWeight): void {
  doc.font(font);
  if (font === FONT_FILES[weight]) return;
  const line = fontFace(FONT_FILES[weight]);
  const current = (doc as unknown as { _font: { ascender: number; descender: number; lineGap: number } })._font;
  current.ascender = line.ascender;
  current.descender = line.descender;
  current.lineGap = line.lineGap;
}

/** The font of the run `flow` is setting: a page break inside it (PdfReport's footer changes the font) puts it back. */
const fontOfRuns = new WeakMap<PDFKit.PDFDocument, string>();
export const fontOfRun = (doc: PDFKit.PDFDocument): string | undefined => fontOfRuns.get(doc);

/** The width of `text` in the current size, each run in its font. */
export function widthOf(doc: PDFKit.PDFDocument, weight: FontWeight, text: string, context = text): number {
  const runs = fontRuns(text, weight, { context });
  return runs ? widthOfRuns(doc, weight, runs) : doc.widthOfString(text);
}

function widthOfRuns(doc: PDFKit.PDFDocument, weight: FontWeight, runs: readonly FontRun[]): number {
  let width = 0;
  for (const run of runs) {
    useFont(doc, run.font, weight);
    width += doc.widthOfString(run.text);
  }
  doc.font(FONT_FILES[weight]);
  return width;
}

/** Sets `text` on one line from (x, y), not wrapped, each run in its font. */
export function drawLine(doc: PDFKit.PDFDocument, weight: FontWeight, text: string, x: number, y: number, context = text): void {
  const runs = fontRuns(text, weight, { context });
  if (runs) drawRuns(doc, weight, runs, x, y);
  else doc.text(text, x, y, { lineBreak: false });
}

function drawRuns(doc: PDFKit.PDFDocument, weight: FontWeight, runs: readonly FontRun[], x: number, y: number): void {
  let at = x;
  for (const run of runs) {
    useFont(doc, run.font, weight);
    doc.text(run.text, at, y, { lineBreak: false });
    at += doc.widthOfString(run.text);
  }
  doc.font(FONT_FILES[weight]);
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
  weight: FontWeight,
  runs: readonly FontRun[],
  x: number,
  y: number,
  options: PDFKit.Mixins.TextOptions,
  onLine: OnLine,
): void {
  const layOut = doc as unknown as LayOut;
  runs.forEach((run, i) => {
    fontOfRuns.set(doc, run.font);
    useFont(doc, run.font, weight);
    const piece = { ...options, continued: i < runs.length - 1 };
    if (i === 0) layOut._text(run.text, x, y, piece, onLine);
    else layOut._text(run.text, piece, undefined, undefined, onLine);
  });
  fontOfRuns.delete(doc);
  doc.font(FONT_FILES[weight]);
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
 * pdfkit's own), each run in its font: the runs of each line go to pdfkit as the continued
 * pieces of one text, so the line breaks as one text's (between words, and between
 * ideographs). pdfkit aligns each piece on its own, so a line of several fonts centred or
 * aligned right is aligned here when it fits, and set from the left otherwise.
 */
export function flow(
  doc: PDFKit.PDFDocument,
  weight: FontWeight,
  text: string,
  x: number,
  y: number,
  options: PDFKit.Mixins.TextOptions,
): void {
  if (!fontRuns(text, weight)) {
    doc.text(text, x, y, options);
    return;
  }
  linesOf(text).forEach((line, i) => flowLine(doc, weight, line, text, x, i === 0 ? y : doc.y, options));
}

function flowLine(
  doc: PDFKit.PDFDocument,
  weight: FontWeight,
  line: string,
  context: string,
  x: number,
  y: number,
  options: PDFKit.Mixins.TextOptions,
) {
  const runs = fontRuns(line, weight, { context });
  if (!runs) {
    doc.text(line, x, y, options);
    return;
  }
  const { align, ...rest } = options;
  if ((align === 'center' || align === 'right') && rest.width !== undefined) {
    const width = widthOfRuns(doc, weight, runs);
    if (width <= rest.width) {
      drawRuns(doc, weight, runs, align === 'right' ? x + rest.width - width : x + (rest.width - width) / 2, y);
      doc.x = x;
      doc.y = y + doc.currentLineHeight(true) + (rest.lineGap ?? 0) + (rest.paragraphGap ?? 0);
      return;
    }
  }
  const layOut = doc as unknown as LayOut;
  layOutRuns(doc, weight, runs, x, y, rest, (...line) => layOut._line.apply(doc, line));
}

/**
 * pdfkit's `heightOfString(text, options)` for what `flow` sets: each run measured in its
 * font, the runs of each line laid out as one text (pdfkit's own layout, drawing nothing and
 * breaking no page).
 */
export function heightOf(doc: PDFKit.PDFDocument, weight: FontWeight, text: string, options: PDFKit.Mixins.TextOptions): number {
  if (!fontRuns(text, weight)) return doc.heightOfString(text, options);
  return linesOf(text).reduce((height, line) => height + heightOfLine(doc, weight, line, text, options), 0);
}

function heightOfLine(
  doc: PDFKit.PDFDocument,
  weight: FontWeight,
  line: string,
  context: string,
  options: PDFKit.Mixins.TextOptions,
): number {
  const runs = fontRuns(line, weight, { context });
  if (!runs) return doc.heightOfString(line, options);
  const { x, y } = doc;
  const lineGap = options.lineGap ?? 0;
  const onLine = () => {
    doc.y += doc.currentLineHeight(true) + lineGap;
  };
  const { align: _align, ...rest } = options;
  layOutRuns(doc, weight, runs, x, y, { ...rest, height: Number.POSITIVE_INFINITY }, onLine);
  const height = doc.y - y;
  doc.x = x;
  doc.y = y;
  return height;
}
