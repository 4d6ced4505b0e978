import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/**
 * The font every PDF of ours embeds: DejaVu Sans, from the npm package `dejavu-fonts-ttf`
 * (so the same file on every machine; no system font path). It covers Latin with all its
 * accents, Greek, Cyrillic, Armenian, Georgian, Hebrew, Arabic and the typographic signs
 * people type (’ – — ° ½ ≥ € …), so names like "Zoë Łukasiewicz-Ольга" and her comments
 * print as written. It has no CJK ideographs or Hangul and only some emoji
 * (docs/personal-exports.md says what that means).
 */
export const FONT_FILES = {
  regular: require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf'),
  bold: require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf'),
  oblique: require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Oblique.ttf'),
} as const;

/** The family name charts register the same file under (e.g. @napi-rs/canvas GlobalFonts). */
export const FONT_FAMILY = 'DejaVu Sans';
