import ExcelJS from 'exceljs';
import type { LightMyRequestResponse } from 'fastify';

/** The workbook a download answered (200) under a file name containing `fileName`. */
export async function workbookOf(res: LightMyRequestResponse, fileName: string): Promise<ExcelJS.Workbook> {
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-disposition']).toContain(fileName);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(res.rawPayload as unknown as ExcelJS.Buffer);
  return workbook;
}
