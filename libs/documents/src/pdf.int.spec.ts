import { describe, expect, it } from 'vitest';
import { CJK_FONT_FILES } from './fonts.ts';
import { fontRuns } from './font-runs.ts';
import { PdfReport } from './pdf.ts';
import { collect, pdfFonts, pdfInfo, pdfSeenLines, pdfText, pdfWords } from './testing.ts';

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

describe('PdfReport, right-to-left text', () => {
  /** A word of a right-to-left script as a reader sees it drawn, left to right: its letters backwards. */
  const drawn = (word: string) => [...word].reverse().join('');

  it('sets Hebrew and Arabic right to left, aligned right; numbers, brackets and English words in their places', async () => {
    const report = new PdfReport({ title: 'RTL', footer: 'אדה לוין' });
    const pdf = collect(report.doc);
    report.paragraph('אני ישנתי טוב הלילה');
    report.paragraph('ישנתי 7 שעות (בערך)');
    report.paragraph('نمت جيدا');
    report.paragraph('I slept in שלום עליכם today.');
    report.paragraph('ישנתי טוב :)');
    report.end();
    const lines = await pdfSeenLines(await pdf);
    // left to right on the page: the sentence's last word first
    expect(lines.map((line) => line.words)).toEqual([
      ['הלילה', 'טוב', 'ישנתי', 'אני'].map(drawn),
      // the number as written; the brackets drawn as mirror images: "(" opens to the left
      ['(ךרעב)', drawn('שעות'), '7', drawn('ישנתי')],
      // (Arabic is drawn in its joined forms, which pdftotext reads as the letters)
      [expect.any(String), expect.any(String)],
      // an English sentence with a Hebrew phrase in it: the phrase right to left in its place
      ['I', 'slept', 'in', drawn('עליכם'), drawn('שלום'), 'today.'],
      // a smile after Hebrew: at its left, and still a smile
      ['(:', drawn('טוב'), drawn('ישנתי')],
      // the footer: her name first, read right to left, then the page
      ['Page', '1', '·', drawn('לוין'), drawn('אדה')],
    ]);
    // aligned right, the English at the left margin
    expect(lines[0]!.xMax).toBeCloseTo(lines[1]!.xMax, 0);
    expect(lines[0]!.xMin).toBeGreaterThan(300);
    expect(lines[3]!.xMin).toBeCloseTo(48, 0);
  });

  it('breaks a long right-to-left paragraph between words, every word kept, and a note of a table too', async () => {
    const words = Array.from({ length: 60 }, (_, i) => `מילה${i}`);
    const report = new PdfReport({ title: 'RTL', footer: 'x' });
    const pdf = collect(report.doc);
    report.paragraph(words.join(' '));
    const table = report.table([{ header: 'Night', width: 1 }]);
    table.row(['Mon'], { note: words.slice(0, 30).join(' ') });
    table.end();
    report.end();
    const lines = await pdfSeenLines(await pdf);
    // read right to left, line after line: each word drawn as its number, then its letters backwards
    const read = (seen: typeof lines) =>
      seen
        .flatMap((line) => [...line.words].reverse())
        .map((word) => {
          const [, number, letters] = /^(\d*)(.*)$/.exec(word)!;
          return `${drawn(letters!)}${number}`;
        });
    const header = lines.findIndex((line) => line.words.includes('Night'));
    expect(header).toBeGreaterThan(2);
    for (const line of lines.slice(0, header)) expect(line.xMax).toBeLessThanOrEqual(547.5);
    expect(read(lines.slice(0, header))).toEqual(words);
    const mon = lines.findIndex((line) => line.words.includes('Mon'));
    expect(read(lines.slice(mon + 1, -1))).toEqual(words.slice(0, 30));
  });

  it('sets a table cell right to left: at its right in a column aligned left, broken between words, the row as tall as its lines', async () => {
    const words = Array.from({ length: 12 }, (_, i) => `מילה${i}`);
    const report = new PdfReport({ title: 'RTL', footer: 'x' });
    const pdf = collect(report.doc);
    const table = report.table([
      { header: 'Name', width: 1 },
      { header: 'Wore', width: 1, align: 'center' },
      { header: 'Score', width: 1, align: 'right' },
    ]);
    table.row([words.join(' '), 'פשתן', 'ok טוב']);
    table.row(['Ada', 'linen', '8']);
    table.end();
    report.end();
    const bytes = await pdf;
    const lines = await pdfSeenLines(bytes);
    const header = lines.findIndex((line) => line.words.includes('Name'));
    const ada = lines.findIndex((line) => line.words.includes('Ada'));
    const row = lines.slice(header + 1, ada);
    // the name's words in its cell (48 to 214.5), read right to left line after line
    const inCell = row.map((line) => line.words.filter((word) => word.includes(drawn('מילה'))));
    expect(inCell.map((words) => words.length)).toEqual([6, 5, 1]);
    expect(
      inCell.flatMap((seen) => [...seen].reverse().map((word) => `${drawn(word.replace(/^\d+/, ''))}${/^\d+/.exec(word)![0]}`)),
    ).toEqual(words);
    // on the first line: the fabric in the middle of its column, the score (English first) at the right
    expect(row[0]!.words.slice(6)).toEqual([drawn('פשתן'), 'ok', drawn('טוב')]);
    expect(row[0]!.xMax).toBeCloseTo(547.5 - 3, 0);
    // every line of the name at the right of its cell, the next row under the last of them
    const seen = await pdfWords(bytes);
    const right = (word: string) => seen.find((w) => w.word === word)!.xMax;
    for (const word of ['0', '6', '11'].map((n) => `${n}${drawn('מילה')}`)) expect(right(word)).toBeCloseTo(48 + 499 / 3 - 3, 0);
    expect((right(drawn('פשתן')) + seen.find((w) => w.word === drawn('פשתן'))!.xMin) / 2).toBeCloseTo(48 + 499 / 2, 0);
    expect(lines[ada]!.yMin).toBeGreaterThanOrEqual(row.at(-1)!.yMax - 0.5);
    expect(lines[ada]!.words).toEqual(['Ada', 'linen', '8']);
  });

  it('takes a right-to-left note taller than a page on to the next page, losing no line', async () => {
    const lines = Array.from({ length: 120 }, (_, i) => `שורה${i}`);
    const report = new PdfReport({ title: 'RTL', footer: 'x' });
    const pdf = collect(report.doc);
    const table = report.table([{ header: 'Night', width: 1 }]);
    table.row(['Mon'], { note: lines.join('\n') });
    table.row(['Tue']);
    table.end();
    report.end();
    const text = (await pdfText(await pdf)).replace(/[\u202a-\u202e]/g, '');
    for (const line of lines) expect(text).toContain(line);
    expect(text).toContain('Tue');
  });
});

describe('PdfReport, emoji', () => {
  it('sets her emoji in the embedded Noto Emoji, in the lines of her text: paragraphs, cells, notes, the footer, right-to-left lines', async () => {
    const report = new PdfReport({ title: 'Emoji', footer: 'Zoë 🌙' });
    const pdf = collect(report.doc);
    report.paragraph(`I rest well 🌙✨ and I am enough 💜. ${'A cool night 🙏 in linen 👍🏽. '.repeat(8)}`);
    report.paragraph('ישנתי טוב 🌙');
    report.paragraph(`ישנתי ${'🌛 '.repeat(40)}`);
    const table = report.table([
      { header: 'Night', width: 2 },
      { header: 'Mood', width: 1, align: 'right' },
    ]);
    table.row([`Mon 😴 ${'🌙 '.repeat(30)}`, '😊'], { note: `Flags and keycaps: 🇬🇧 1️⃣ 👩‍❤️‍👨 ${'🌙 '.repeat(120)}` });
    table.row(['Tue', '7']);
    table.end();
    report.end();
    const bytes = await pdf;

    const fonts = (await pdfFonts(bytes)).map((font) => font.name);
    expect(fonts.some((name) => name.includes('DejaVuSans'))).toBe(true);
    expect(fonts.some((name) => name.includes('NotoEmoji'))).toBe(true);
    expect((await pdfFonts(bytes)).every((font) => font.embedded)).toBe(true);

    // read back as the characters she typed (a box, DejaVu's missing glyph, reads as nothing)
    const text = await pdfText(bytes);
    expect(text).toContain('I rest well 🌙✨ and I am enough 💜.');
    expect(text.match(/🙏/g)).toHaveLength(8);
    expect(text.match(/👍/g)).toHaveLength(8);
    expect(text).toContain('Mon 😴 🌙');
    expect(text).toContain('🇬🇧 1️⃣ 👩‍❤️‍👨');
    expect(text).toContain('Zoë 🌙 · Page 1');

    const lines = await pdfSeenLines(bytes);
    // the paragraph's runs set as one text: its words on the lines in order, none past the margin
    expect(lines[0]!.words.slice(0, 6)).toEqual(['I', 'rest', 'well', '🌙✨', 'and', 'I']);
    for (const line of lines) {
      expect(line.xMin).toBeGreaterThanOrEqual(47.5);
      expect(line.xMax).toBeLessThanOrEqual(547.5);
    }
    // the right-to-left paragraph of emoji broken where they no longer fit, every one kept
    expect(text.match(/🌛/gu)).toHaveLength(40);
    expect(lines.filter((line) => line.words.some((word) => word.includes('🌛'))).length).toBe(2);
    // the Hebrew line right to left, the moon at its end (the left)
    expect(lines.find((line) => line.words.includes('🌙') && line.words.includes('בוט'))?.words).toEqual(['🌙', 'בוט', 'יתנשי']);
    // the mood aligned right in its cell
    const mon = lines.findIndex((line) => line.words.includes('Mon'));
    expect(lines[mon]!.words.at(-1)).toBe('😊');
    expect(lines[mon]!.xMax).toBeCloseTo(547.5 - 3, 0);
    const tue = lines.findIndex((line) => line.words.includes('Tue'));
    expect(lines[tue]!.words).toEqual(['Tue', '7']);
    // cells and notes measured with their emoji, as wide as they are set: a cell of two lines,
    // a note of four under it, then the next row, no line over another
    expect(tue - mon).toBe(2 + 4);
    lines.slice(1).forEach((line, i) => expect(line.yMin).toBeGreaterThanOrEqual(lines[i]!.yMax - 0.5));
  });

  it('starts every line of a text with emoji at the margin, and sets in the emoji font the signs DejaVu lacks', async () => {
    const report = new PdfReport({ title: 'Emoji', footer: 'x' });
    const pdf = collect(report.doc);
    report.paragraph('Good night 🌙\nWoke up early and walked 🚶 to the park.\n\nFelt calm 🛏 🌡 🕯.');
    report.end();
    const bytes = await pdf;
    // typed without U+FE0F, their default is text, and DejaVu has no glyph for them
    expect(await pdfText(bytes)).toContain('Felt calm 🛏 🌡 🕯.');
    const lines = await pdfSeenLines(bytes);
    expect(lines.slice(0, 3).map((line) => line.words)).toEqual([
      ['Good', 'night', '🌙'],
      ['Woke', 'up', 'early', 'and', 'walked', '🚶', 'to', 'the', 'park.'],
      ['Felt', 'calm', '🛏', '🌡', '🕯.'],
    ]);
    for (const line of lines.slice(0, 3)) expect(line.xMin).toBeCloseTo(48, 0);
    // the empty line kept: a line's height between the second and the third
    const height = lines[1]!.yMin - lines[0]!.yMin;
    expect(lines[2]!.yMin - lines[1]!.yMin).toBeCloseTo(2 * height, 0);
  });

  it('breaks a page inside a text with emoji as inside any text: the footer at the foot of its page, the text on at the top of the next', async () => {
    const report = new PdfReport({ title: 'Emoji', footer: 'Her name' });
    const pdf = collect(report.doc);
    report.paragraph(`Slept badly 😴 again. ${'word '.repeat(1500)}end 🌙 ok`, { lineGap: 1.5 });
    report.paragraph('NEXT');
    report.end();
    const bytes = await pdf;
    expect(Number((await pdfInfo(bytes)).Pages)).toBe(2);
    const pages = (await pdfText(bytes)).split('\f').filter((page) => page.trim() !== '');
    pages.forEach((page, i) => {
      const lines = page.split('\n').filter((line) => line.trim() !== '');
      expect(lines.filter((line) => line.includes('Her name'))).toHaveLength(1);
      expect(lines.at(-1)!.trim()).toBe(`Her name · Page ${i + 1}`);
    });
    expect(pages[0]).toMatch(/^\s*Slept badly 😴 again\. word/);
    expect(pages[1]).toMatch(/^\s*word word/);
    expect(pages[1]).toContain('end 🌙 ok');
    expect(pages[1]).toContain('NEXT');
    expect(pages.join('').match(/word/g)).toHaveLength(1500);
  });

  it('keeps setting emoji in their font across a page break inside a run of them', async () => {
    const report = new PdfReport({ title: 'Emoji', footer: 'x' });
    const pdf = collect(report.doc);
    report.paragraph('🌙'.repeat(3000));
    report.end();
    const bytes = await pdf;
    expect(Number((await pdfInfo(bytes)).Pages)).toBeGreaterThan(1);
    const pages = (await pdfText(bytes)).split('\f').filter((page) => page.trim() !== '');
    expect(pages.map((page) => page.match(/🌙/gu)?.length ?? 0).reduce((sum, count) => sum + count, 0)).toBe(3000);
    expect(pages[1]).toMatch(/🌙/u);
  });
});

describe('PdfReport, Chinese, Japanese and Korean', () => {
  it('sets them in the embedded Noto Sans SC, JP and KR, on the line of the text around them: headings, paragraphs, cells, notes, the footer', async () => {
    const report = new PdfReport({ title: '山田花子の睡眠日記', footer: '山田 花子' });
    const pdf = collect(report.doc);
    report.heading('山田花子の睡眠日記', 1);
    report.paragraph(`今晩はよく眠れた。Linen 👍 ${'リネンのパジャマで朝までぐっすり眠れました。'.repeat(8)}`);
    report.paragraph('睡得很好，linen 7 分。');
    report.paragraph('잠을 잘 잤어요');
    const table = report.table([
      { header: 'Night', width: 2 },
      { header: 'Score', width: 1, align: 'right' },
    ]);
    table.row([`月曜日の夜 ${'眠い'.repeat(30)}`, '7'], { note: `夜中に二回目が覚めた ${'眠い'.repeat(90)}` });
    table.row(['Tue', '8']);
    table.end();
    report.end();
    const bytes = await pdf;

    const fonts = await pdfFonts(bytes);
    for (const name of [
      'NotoSansJP-Bold',
      'NotoSansJP-Regular',
      'NotoSansSC-Regular',
      'NotoSansKR-Regular',
      'DejaVuSans',
      'NotoEmoji-Regular',
    ]) {
      expect(fonts.some((font) => font.name.endsWith(`+${name}`))).toBe(true);
    }
    expect(fonts.every((font) => font.embedded)).toBe(true);

    const text = await pdfText(bytes);
    for (const typed of [
      '山田花子の睡眠日記',
      '今晩はよく眠れた。Linen 👍 リネン',
      '睡得很好，linen 7 分。',
      '잠을 잘 잤어요',
      '月曜日の夜',
      '夜中に二回目が覚めた',
      '山田 花子 · Page 1',
    ]) {
      expect(text).toContain(typed);
    }
    expect(text.replace(/\s/g, '').match(/ぐっすり/g)).toHaveLength(8);
    expect(text.slice(text.indexOf('Night'), text.indexOf('Tue')).match(/眠/g)).toHaveLength(120);

    const lines = await pdfSeenLines(bytes);
    for (const line of lines) {
      expect(line.xMin).toBeGreaterThanOrEqual(47.5);
      expect(line.xMax).toBeLessThanOrEqual(547.5);
    }
    // the Japanese paragraph broken between its characters, its lines one height apart
    // whichever font ends them (a line of Japanese would be a quarter taller on its own)
    const first = lines.findIndex((line) => line.words[0]?.startsWith('今晩'));
    const paragraph = lines.slice(first, first + 4);
    expect(
      paragraph.slice(1).every((line) => line.words.join('').startsWith('リネン') || /^[ぁ-んァ-ン一-龯。]/u.test(line.words[0]!)),
    ).toBe(true);
    const gaps = paragraph.slice(1).map((line, i) => line.yMin - paragraph[i]!.yMin);
    for (const gap of gaps) expect(gap).toBeCloseTo(10 * 1.164, 1);
    // one baseline: the Japanese, the Latin and the emoji of a line share their top and bottom
    const mixed = lines[first]!;
    expect(mixed.yMax - mixed.yMin).toBeCloseTo(10 * 1.164, 1);
    // cells and notes measured as set: no line over another, the next row under the note
    lines.slice(1).forEach((line, i) => expect(line.yMin).toBeGreaterThanOrEqual(lines[i]!.yMax - 0.5));
    expect(lines.findIndex((line) => line.words[0] === 'Tue')).toBeGreaterThan(
      lines.findIndex((line) => line.words.join('').includes('夜中に')),
    );
  });
});

describe('fontRuns with the font files', () => {
  it('keeps the runs of a text asked for again, but not for another context or weight', () => {
    const fontsOf = (...args: Parameters<typeof fontRuns>) => fontRuns(...args)?.map((run) => run.font);
    // kanji alone are Chinese first; among kana, Japanese first
    expect(fontsOf('睡眠', 'regular')).toEqual([CJK_FONT_FILES.zh.regular]);
    expect(fontsOf('睡眠', 'regular', { context: 'よく 睡眠' })).toEqual([CJK_FONT_FILES.ja.regular]);
    expect(fontsOf('睡眠', 'regular')).toEqual([CJK_FONT_FILES.zh.regular]);
    expect(fontsOf('睡眠', 'bold', { context: 'よく 睡眠' })).toEqual([CJK_FONT_FILES.ja.bold]);
    expect(fontRuns('睡眠', 'regular')).toBe(fontRuns('睡眠', 'regular'));
  });
});

describe('PdfTable, no-break spaces', () => {
  it('breaks a range of values joined by no-break spaces after its dash, never inside a value', async () => {
    const report = new PdfReport({ title: 'Ranges', footer: 'x' });
    const pdf = collect(report.doc);
    // a column too narrow for the whole range, wide enough for each end
    const table = report.table(
      [
        { header: 'Deep', width: 1 },
        { header: 'Rest', width: 9.8 },
      ],
      { fontSize: 7.5 },
    );
    table.row(['47m–1h\u00A026m', 'a']);
    table.row(['47m–1h 26m', 'b']);
    table.end();
    report.end();
    const lines = (await pdfSeenLines(await pdf)).map((line) => line.words.join(' '));
    // (pdftotext reads a no-break space as a space between words)
    expect(lines.slice(1, 3)).toEqual(['47m– a', '1h 26m']);
    // with plain spaces the line broke inside the value
    expect(lines.slice(3, 5)).toEqual(['47m–1h b', '26m']);
  });
});

describe('PdfReport, what no font has', () => {
  it('draws an empty box as wide as it was laid out: a line of them as long as measured, the words after them in their places', async () => {
    const report = new PdfReport({ title: 'Thai', footer: 'x' });
    const pdf = collect(report.doc);
    const texts = ['Thai: นอนหลับ end', 'Thai: นอนหลับ 眠 end'];
    const widths = texts.map((text) => report.measure().widthOfString(text));
    for (const text of texts) report.paragraph(text);
    report.end();
    const bytes = await pdf;
    const lines = (await pdfSeenLines(bytes)).slice(0, 2);
    // (a box reads as nothing; a box drawn twice as wide as laid out pushed "end" 44 points on)
    expect(lines.map((line) => line.words)).toEqual([
      ['Thai:', 'end'],
      ['Thai:', '眠', 'end'],
    ]);
    lines.forEach((line, i) => expect(line.xMax).toBeCloseTo(48 + widths[i]!, 0));
  });
});
