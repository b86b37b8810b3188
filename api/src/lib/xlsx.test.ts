/**
 * The first sheet of an xlsx, read the same every time: exceljs's own streaming read of the zip
 * lost an entry about once in 150 reads (the workbook or its shared strings), which turned a valid
 * import file into 'not an xlsx' or, worse, read text cells as empty.
 */
import ExcelJS from 'exceljs';
import { firstSheetRows, readCell, XlsxError } from './xlsx';

async function workbook(rows: ExcelJS.CellValue[][], sheetNames = ['Data']): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  for (const name of sheetNames) {
    const sheet = book.addWorksheet(name);
    for (const row of rows) sheet.addRow(name === sheetNames[0] ? row : ['lain']);
  }
  return Buffer.from(await book.xlsx.writeBuffer());
}

const read = async (file: Buffer) => {
  const rows: string[][] = [];
  for await (const row of firstSheetRows(file)) rows.push(row.cells.map((c) => readCell(c).text));
  return rows;
};

it('reads 300 freshly written workbooks alike: text, numbers and dates, never an entry lost', async () => {
  const rows = [
    ['Nomor Sertifikat Klien', 'Nama Klien', 'Tanggal Terbit', 'Masa Berlaku'],
    ['KB-1', 'PT Beta Klien', new Date(Date.UTC(2024, 0, 2)), 3],
  ];
  const expected = [
    [undefined, 'Nomor Sertifikat Klien', 'Nama Klien', 'Tanggal Terbit', 'Masa Berlaku'],
    [undefined, 'KB-1', 'PT Beta Klien', '2024-01-02', '3'],
  ];
  const failures: string[] = [];
  for (let i = 0; i < 300; i++) {
    // Written anew each time: the bytes differ (timestamps), as two users' files do.
    const got = await read(await workbook(rows)).catch((err: Error) => [[err.message]]);
    if (JSON.stringify(got) !== JSON.stringify(expected)) failures.push(JSON.stringify(got));
  }
  expect(failures).toEqual([]);
});

it('reads the workbook’s first sheet, whatever the others hold', async () => {
  expect(await read(await workbook([['a', 'b']], ['Register', 'Catatan']))).toEqual([[undefined, 'a', 'b']]);
});

it('refuses a zip that is no workbook (its workbook part missing)', async () => {
  const file = await workbook([['a', 'b']]);
  // The same archive with the workbook part renamed (local header and central directory alike).
  const renamed = Buffer.from(
    file.toString('latin1').replaceAll('xl/workbook.xml', 'xl/workbook.xmX'),
    'latin1',
  );
  await expect(read(renamed)).rejects.toEqual(new XlsxError('not-xlsx'));
});
