/**
 * The IAF CertSearch upload workbook (docs/rules.md#iaf-certsearch): the template's four sheets,
 * written with exceljs's streaming writer as the ready schemes are read, a batch at a time.
 */
import type { Writable } from 'node:stream';
import ExcelJS from 'exceljs';
import type { Executor } from '../../db';
import type { Clock } from '../../lib/clock';
import { IAF_SHEETS, sheetRows } from './iaf-certsearch.mapping';
import { readyRecords } from './iaf-certsearch.service';

export async function writeIafWorkbook(db: Executor, clock: Clock, companyId: string, out: Writable) {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true });
  workbook.creator = 'Sistem Sertifikasi';
  workbook.created = clock.now();
  const sheet = (spec: { name: string; header: readonly string[] }) => {
    const ws = workbook.addWorksheet(spec.name, { views: [{ state: 'frozen', ySplit: 1 }] });
    ws.columns = spec.header.map((h) => ({ width: Math.max(16, h.length + 4) }));
    const header = ws.addRow([...spec.header]);
    header.font = { bold: true };
    header.commit();
    return ws;
  };
  const entity = sheet(IAF_SHEETS.entity);
  const certification = sheet(IAF_SHEETS.certification);
  const site = sheet(IAF_SHEETS.site);
  const sector = sheet(IAF_SHEETS.sector);
  const seen = new Set<string>();
  for await (const records of readyRecords(db, companyId, clock.today())) {
    for (const record of records) {
      const first = !seen.has(record.certified_entity_unique_id);
      seen.add(record.certified_entity_unique_id);
      const rows = sheetRows(record, first);
      if (rows.entity) entity.addRow(rows.entity).commit();
      certification.addRow(rows.certification).commit();
      for (const row of rows.sites) site.addRow(row).commit();
      for (const row of rows.sectors) sector.addRow(row).commit();
    }
  }
  // Sheets of a streaming workbook are written one after another: each ends once every row is in.
  entity.commit();
  certification.commit();
  site.commit();
  sector.commit();
  await workbook.commit();
}
