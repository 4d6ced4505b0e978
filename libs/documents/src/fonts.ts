import { createRequire } from 'node:module';
import type * as Fontkit from 'fontkit';

const require = createRequire(import.meta.url);
/** fontkit as pdfkit loads it (patches/pdfkit+0.20.2.patch: its CommonJS build, at the first font), so that one copy is loaded, not two. */
const fontkit = (): typeof Fontkit => require('fontkit') as typeof Fontkit;

export type FontWeight = 'regular' | 'bold' | 'oblique';

/**
 * The font every PDF of ours embeds: DejaVu Sans, from the npm package `dejavu-fonts-ttf`
 * (so the same file on every machine; no system font path). It covers Latin with all its
 * accents, Greek, Cyrillic, Armenian, Georgian, Hebrew, Arabic and the typographic signs
 * people type (’ – — ° ½ ≥ € …), so names like "Zoë Łukasiewicz-Ольга" and her comments
 * print as written. What it has no glyph for (Chinese, Japanese, Korean, most emoji) is set
 * in the fonts after it in `fontStack`.
 */
export const FONT_FILES = {
  regular: require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf'),
  bold: require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf'),
  oblique: require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Oblique.ttf'),
} as const satisfies Record<FontWeight, string>;

/**
 * The fonts her Chinese, Japanese and Korean are set in: Noto Sans SC, JP and KR (OFL, Google
 * Fonts' static cuts, from the npm packages `@expo-google-fonts/noto-sans-*`). One ideograph
 * is drawn a little differently in each language (Han unification), so each has its own; SC
 * has nearly every ideograph (20,976 of the 20,992 in the main block), kana and bopomofo, KR
 * has Hangul. None has an oblique: a note in these scripts stands upright.
 */
export type CjkLanguage = 'zh' | 'ja' | 'ko';
export const CJK_FONT_FILES = {
  zh: {
    regular: require.resolve('@expo-google-fonts/noto-sans-sc/400Regular/NotoSansSC_400Regular.ttf'),
    bold: require.resolve('@expo-google-fonts/noto-sans-sc/700Bold/NotoSansSC_700Bold.ttf'),
    oblique: require.resolve('@expo-google-fonts/noto-sans-sc/400Regular/NotoSansSC_400Regular.ttf'),
  },
  ja: {
    regular: require.resolve('@expo-google-fonts/noto-sans-jp/400Regular/NotoSansJP_400Regular.ttf'),
    bold: require.resolve('@expo-google-fonts/noto-sans-jp/700Bold/NotoSansJP_700Bold.ttf'),
    oblique: require.resolve('@expo-google-fonts/noto-sans-jp/400Regular/NotoSansJP_400Regular.ttf'),
  },
  ko: {
    regular: require.resolve('@expo-google-fonts/noto-sans-kr/400Regular/NotoSansKR_400Regular.ttf'),
    bold: require.resolve('@expo-google-fonts/noto-sans-kr/700Bold/NotoSansKR_700Bold.ttf'),
    oblique: require.resolve('@expo-google-fonts/noto-sans-kr/400Regular/NotoSansKR_400Regular.ttf'),
  },
} as const satisfies Record<CjkLanguage, Record<FontWeight, string>>;

/**
 * The font her emoji are set in (font-runs.ts): Noto Emoji, Google's black-and-white emoji
 * font (OFL, version 3.006), from the npm package `@expo-google-fonts/noto-emoji`. pdfkit
 * embeds no colour font; this one draws the emoji people type, and their sequences (flags,
 * keycaps, families) as one picture each, in the ink of the text around it. It has no
 * oblique: an emoji in a slanted note stands upright.
 */
export const EMOJI_FONT_FILES = {
  regular: require.resolve('@expo-google-fonts/noto-emoji/400Regular/NotoEmoji_400Regular.ttf'),
  bold: require.resolve('@expo-google-fonts/noto-emoji/700Bold/NotoEmoji_700Bold.ttf'),
  oblique: require.resolve('@expo-google-fonts/noto-emoji/400Regular/NotoEmoji_400Regular.ttf'),
} as const satisfies Record<FontWeight, string>;

/** The family name charts register the same file under (e.g. @napi-rs/canvas GlobalFonts). */
export const FONT_FAMILY = 'DejaVu Sans';

/** Kana: the text is Japanese. Hangul: Korean. */
const KANA = /[\p{Script=Hiragana}\p{Script=Katakana}]/u;
const HANGUL = /\p{Script=Hangul}/u;

/** The order the CJK fonts are tried in for `text`: its language's first (an ideograph in Japanese text is drawn as in Japan), else Chinese. */
export function cjkOrder(text: string): CjkLanguage[] {
  if (KANA.test(text)) return ['ja', 'zh', 'ko'];
  if (HANGUL.test(text)) return ['ko', 'zh', 'ja'];
  return ['zh', 'ja', 'ko'];
}

/**
 * The fonts `text` of `weight` is set in, in order of preference (font-runs.ts gives each
 * grapheme the first that has it): DejaVu Sans; for an oblique, then upright DejaVu Sans
 * (which has letters the oblique lacks: Arabic, most signs); the CJK fonts in the text's
 * order; Noto Emoji.
 */
export function fontStack(weight: FontWeight, text: string): string[] {
  return [
    FONT_FILES[weight],
    ...(weight === 'oblique' ? [FONT_FILES.regular] : []),
    ...cjkOrder(text).map((language) => CJK_FONT_FILES[language][weight]),
    EMOJI_FONT_FILES[weight],
  ];
}

/** What is kept of a font file: the code points it has a glyph for, and its line (per 1,000 units of its size). */
export interface FontFace {
  covers(codePoint: number): boolean;
  ascender: number;
  descender: number;
  lineGap: number;
}

const faces = new Map<string, FontFace>();

/**
 * The face of the font file at `path`, read once per process when first asked for (a CJK
 * file is 5 to 10 MB: it is read only when a text needs it), and kept as a bitmap of its
 * code points (136 KiB), not as the file.
 */
export function fontFace(path: string): FontFace {
  let face = faces.get(path);
  if (!face) {
    const font = fontkit().openSync(path) as Fontkit.Font;
    const bits = new Uint8Array(0x110000 >> 3);
    for (const codePoint of font.characterSet) bits[codePoint >> 3]! |= 1 << (codePoint & 7);
    const scale = 1000 / font.unitsPerEm;
    face = {
      covers: (codePoint) => (bits[codePoint >> 3]! & (1 << (codePoint & 7))) !== 0,
      ascender: font.ascent * scale,
      descender: font.descent * scale,
      lineGap: font.lineGap * scale,
    };
    faces.set(path, face);
  }
  return face;
}
