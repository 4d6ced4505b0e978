import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

export type FontWeight = 'regular' | 'bold' | 'oblique';

/**
 * The font every PDF of ours embeds: DejaVu Sans, from the npm package `dejavu-fonts-ttf`
 * (so the same file on every machine; no system font path). It covers Latin with all its
 * accents, Greek, Cyrillic, Armenian, Georgian, Hebrew, Arabic and the typographic signs
 * people type (’ – — ° ½ ≥ € …), so names like "Zoë Łukasiewicz-Ольга" and her comments
 * print as written. It has no CJK ideographs or Hangul and few emoji: those are set in
 * EMOJI_FONT_FILES (docs/personal-exports.md says what that means).
 */
export const FONT_FILES = {
  regular: require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf'),
  bold: require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf'),
  oblique: require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Oblique.ttf'),
} as const satisfies Record<FontWeight, string>;

/**
 * The font her emoji are set in (emoji.ts): Noto Emoji, Google's black-and-white emoji font
 * (OFL, version 3.006), from the npm package `@expo-google-fonts/noto-emoji`. pdfkit embeds
 * no colour font; this one draws the emoji people type, and their sequences (flags, keycaps,
 * families) as one picture each, in the ink of the text around it. It has no oblique: an
 * emoji in a slanted note stands upright.
 */
export const EMOJI_FONT_FILES = {
  regular: require.resolve('@expo-google-fonts/noto-emoji/400Regular/NotoEmoji_400Regular.ttf'),
  bold: require.resolve('@expo-google-fonts/noto-emoji/700Bold/NotoEmoji_700Bold.ttf'),
  oblique: require.resolve('@expo-google-fonts/noto-emoji/400Regular/NotoEmoji_400Regular.ttf'),
} as const satisfies Record<FontWeight, string>;

/** The family name charts register the same file under (e.g. @napi-rs/canvas GlobalFonts). */
export const FONT_FAMILY = 'DejaVu Sans';
