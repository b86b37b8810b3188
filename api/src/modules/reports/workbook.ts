import { once } from 'node:events';
import type { Writable } from 'node:stream';
import ExcelJS from 'exceljs';
import {
  EFFECTIVE_STATUS_LABELS,
  type EffectiveStatus,
  REPORT_FILTER_SHEET,
  REPORT_FILTER_WORDS,
  type ReportColumn,
} from '@sertifikasi/shared-contracts';
import type { Clock } from '../../lib/clock';
import { breather } from '../../lib/breathe';

/**
 * Excel's format for the report's dates: day, full month name, year, with the Indonesian locale
 * (LCID 0x0421), so Excel and LibreOffice show '17 Maret 2024' ('DD MMMM YYYY' of the screens)
 * while the cell holds a real date that sorts and filters as one.
 */
export const EXCEL_DATE_FORMAT = '[$-421]dd mmmm yyyy';
/** The time the workbook was made, on the Filter sheet. */
export const EXCEL_TIMESTAMP_FORMAT = '[$-421]dd mmmm yyyy hh:mm';

/** A calendar date `YYYY-MM-DD` as the Date Excel stores for it (exceljs counts days in UTC). */
export function excelDate(date: string | null): Date | null {
  if (!date) return null;
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d));
}

/** What the clock's wall shows at an instant, as an Excel date-time (which has no zone: it shows what it holds). */
function excelWallTime(clock: Pick<Clock, 'wallTime'>, at: Date): Date {
  const wall = clock.wallTime(at);
  const day = excelDate(wall.date)!;
  return new Date(day.getTime() + (wall.hour * 60 + wall.minute) * 60_000);
}

export interface WorkbookSpec<Row> {
  sheetName: string;
  title: string;
  columns: readonly ReportColumn<keyof Row & string>[];
  /** The filters used: label and value ('Semua' when a filter was not used), in the screen's order. */
  filters: [string, string][];
  /** The app's clock: when the workbook was made, in the deployment's time zone. */
  clock: Pick<Clock, 'now' | 'wallTime'>;
}

/** Raised when the client went away: the export stops reading rows. */
export class ExportAborted extends Error {
  constructor() {
    super('export aborted: the client went away');
    this.name = 'ExportAborted';
  }
}

/** Row fields are text, numbers or null (the report rows); anything else is written as empty. */
function cellValue<Row>(row: Row, column: ReportColumn<keyof Row & string>): ExcelJS.CellValue {
  const raw = row[column.key] as unknown;
  const value = typeof raw === 'string' || typeof raw === 'number' ? String(raw) : '';
  if (value === '') return null;
  switch (column.kind) {
    case 'date':
      return excelDate(value);
    case 'number':
      return Number(value);
    case 'status':
      return EFFECTIVE_STATUS_LABELS[value as EffectiveStatus] ?? value;
    default:
      return value;
  }
}

/** Waits while the output is full (a slow client), so rows are not read faster than they leave. */
async function drained(out: Writable, signal: AbortSignal): Promise<void> {
  while (out.writableNeedDrain && !signal.aborted && !out.destroyed) {
    await Promise.race([once(out, 'drain'), once(out, 'close'), once(signal, 'abort')]);
  }
  if (signal.aborted || out.destroyed) throw new ExportAborted();
}

/**
 * Writes a report as an .xlsx to `out` with exceljs's streaming writer: the data sheet (bold,
 * frozen header row with an autofilter, column widths, dates as dates, numbers as numbers), written
 * batch by batch as the rows come, then a 'Filter' sheet listing the filters used and the row
 * count. Each row is committed (serialised and dropped) as soon as it is written. Stops with
 * ExportAborted when `signal` aborts (the client went away). Answers the number of rows written.
 */
export async function writeReportWorkbook<Row>(
  out: Writable,
  spec: WorkbookSpec<Row>,
  batches: AsyncIterable<Row[]>,
  signal: AbortSignal,
): Promise<number> {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream: out,
    useStyles: true,
    useSharedStrings: false,
  });
  workbook.creator = 'Sistem Sertifikasi';
  const now = spec.clock.now();
  workbook.created = now;
  const sheet = workbook.addWorksheet(spec.sheetName, { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = spec.columns.map((c) => ({
    key: c.key,
    width: c.width,
    ...(c.kind === 'date' ? { style: { numFmt: EXCEL_DATE_FORMAT } } : {}),
  }));
  const header = sheet.addRow(spec.columns.map((c) => c.header));
  header.font = { bold: true };
  header.commit();

  let written = 0;
  // Writing a row's cells is CPU work on the request thread: a turn of the event loop every 100 rows
  // lets other requests (and the news that the client left) in between, instead of after the batch.
  const breathe = breather(100);
  for await (const batch of batches) {
    if (signal.aborted) throw new ExportAborted();
    for (const row of batch) {
      sheet.addRow(spec.columns.map((c) => cellValue(row, c))).commit();
      await breathe();
    }
    written += batch.length;
    await drained(out, signal);
  }
  sheet.autoFilter = { from: { row: 1, column: 1 }, to: { row: 1, column: spec.columns.length } };
  sheet.commit();

  const filters = workbook.addWorksheet(REPORT_FILTER_SHEET);
  filters.columns = [{ width: 24 }, { width: 60 }];
  const title = filters.addRow([spec.title]);
  title.font = { bold: true, size: 13 };
  title.commit();
  const head = filters.addRow([REPORT_FILTER_WORDS.filter, REPORT_FILTER_WORDS.value]);
  head.font = { bold: true };
  head.commit();
  for (const [label, value] of spec.filters) filters.addRow([label, value]).commit();
  filters.addRow([REPORT_FILTER_WORDS.rows, written]).commit();
  const at = filters.addRow([REPORT_FILTER_WORDS.exportedAt, excelWallTime(spec.clock, now)]);
  at.getCell(2).numFmt = EXCEL_TIMESTAMP_FORMAT;
  at.getCell(2).alignment = { horizontal: 'left' };
  at.commit();
  filters.commit();
  await workbook.commit();
  return written;
}
