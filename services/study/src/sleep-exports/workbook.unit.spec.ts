import { PassThrough } from 'node:stream';
import { SLEEP_CHART_METRICS, SLEEP_LOG_FIELD_LIST, type SleepLog } from '@sleepweave/contracts';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { wallClock, writeWorkbook, xmlText } from './workbook.ts';

describe('the workbook’s times', () => {
  it('writes an instant as her wall-clock time, for Excel, which has no time zones', () => {
    expect(wallClock(new Date('2026-07-01T12:34:56.000Z'), 'Europe/London')).toEqual(new Date('2026-07-01T13:34:56.000Z'));
    expect(wallClock(new Date('2026-01-01T03:00:00.000Z'), 'America/New_York')).toEqual(new Date('2025-12-31T22:00:00.000Z'));
    expect(wallClock(new Date('2026-06-01T00:00:00.000Z'), 'Asia/Kolkata')).toEqual(new Date('2026-06-01T05:30:00.000Z'));
  });
});

/** A night with every field empty but these. */
function nightWith(date: string, fields: Partial<SleepLog>): SleepLog {
  const empty = Object.fromEntries(SLEEP_LOG_FIELD_LIST.map((spec) => [spec.key, null]));
  return {
    ...empty,
    id: '4b0f6a52-2a8e-4f61-9d49-5a1c1f0e9b11',
    date,
    studyDay: 1,
    phase: 'polyester',
    recommendedMaterial: '100% Polyester',
    createdAt: `${date}T08:00:00.000Z`,
    updatedAt: `${date}T08:00:00.000Z`,
    ...fields,
  } as SleepLog;
}

// a 1 × 1 PNG
const PIXEL = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

describe('the workbook’s text', () => {
  it('keeps out what XML cannot hold (U+FFFE, U+FFFF, a lone surrogate, C0 controls), and nothing else', () => {
    expect(xmlText('hot \uFFFF night\uFFFE \uD800 \u0001 end')).toBe('hot  night   end');
    expect(xmlText('Tab\there\r\nnew line 🌙 é ְ')).toBe('Tab\there\r\nnew line 🌙 é ְ');
  });

  it('is a file Excel can open when her comment or name holds such a character', async () => {
    const out = new PassThrough();
    const chunks: Buffer[] = [];
    out.on('data', (chunk: Buffer) => chunks.push(chunk));
    async function* nights() {
      yield nightWith('2026-11-23', { comments: 'hot night \uFFFF end', sleepScore: 80 });
    }
    await writeWorkbook(out, {
      subject: { userId: 'u', name: 'Zoë \uFFFE', timezone: 'Europe/London', studyStartDate: '2026-11-23', consentVersion: '1.0' },
      startDate: '2026-11-23',
      endDate: '2026-11-23',
      nights: nights(),
      charts: () => Object.fromEntries(SLEEP_CHART_METRICS.map((metric) => [metric.key, PIXEL])) as never,
      now: new Date('2026-11-24T09:00:00Z'),
    });
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(Buffer.concat(chunks) as unknown as ExcelJS.Buffer);
    const sheet = workbook.getWorksheet('Nights')!;
    const header = (sheet.getRow(1).values as unknown[]).slice(1);
    expect(sheet.getRow(2).getCell(header.indexOf('Comments') + 1).value).toBe('hot night  end');
    expect(workbook.getWorksheet('Charts')!.getRow(1).getCell(1).value).toBe('Sleep data of Zoë ');
  });
});
