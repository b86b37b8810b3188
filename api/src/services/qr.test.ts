import sharp from 'sharp';
import QRCode from 'qrcode';
import { publicCheckUrl, QR_MARGIN, QR_SIZE, qrPngBase64 } from './qr';

describe('publicCheckUrl', () => {
  it('points at the public check page of the kind, with the number URL-encoded', () => {
    expect(publicCheckUrl('https://sertifikasi.example.id', 'company', 'QMS/001/2025')).toBe(
      'https://sertifikasi.example.id/check-certification-company?cert=QMS%2F001%2F2025',
    );
    expect(publicCheckUrl('http://localhost:8080/', 'training', 'PLT 01&x=1')).toBe(
      'http://localhost:8080/check-certification-training?cert=PLT%2001%26x%3D1',
    );
  });
});

describe('qrPngBase64', () => {
  it('is a 300 px PNG, base64 without a data: prefix, drawing the level-M symbol of the text', async () => {
    const text = publicCheckUrl('http://localhost:8080', 'training', 'PLT/2025/001');
    const base64 = await qrPngBase64(text);
    expect(base64).toMatch(/^[A-Za-z0-9+/]+=*$/);
    const png = Buffer.from(base64, 'base64');
    expect(png.length).toBeLessThan(4096);
    const { data, info } = await sharp(png).greyscale().raw().toBuffer({ resolveWithObject: true });
    expect([info.width, info.height]).toEqual([QR_SIZE, QR_SIZE]);
    // The centre of every module is dark exactly where the symbol has a dark module; the quiet zone is light.
    const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' });
    const step = QR_SIZE / (modules.size + QR_MARGIN * 2);
    const dark = (row: number, col: number) => {
      const y = Math.floor((row + QR_MARGIN + 0.5) * step);
      const x = Math.floor((col + QR_MARGIN + 0.5) * step);
      return data[y * info.width * info.channels + x * info.channels]! < 128;
    };
    let mismatches = 0;
    for (let row = -QR_MARGIN; row < modules.size + QR_MARGIN; row++) {
      for (let col = -QR_MARGIN; col < modules.size + QR_MARGIN; col++) {
        const inside = row >= 0 && col >= 0 && row < modules.size && col < modules.size;
        if (dark(row, col) !== (inside && !!modules.get(row, col))) mismatches++;
      }
    }
    expect(mismatches).toBe(0);
    expect(QRCode.create(text, { errorCorrectionLevel: 'M' }).errorCorrectionLevel.bit).toBe(0);
  });
});
