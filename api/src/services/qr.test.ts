import sharp from 'sharp';
import QRCode from 'qrcode';
import { publicCheckUrl, QR_SIZE, qrPngBase64 } from './qr';

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
  it('is a PNG of about 300 px, base64 without a data: prefix, holding the text at level M', async () => {
    const text = publicCheckUrl('http://localhost:8080', 'training', 'PLT/2025/001');
    const base64 = await qrPngBase64(text);
    expect(base64).toMatch(/^[A-Za-z0-9+/]+=*$/);
    const png = Buffer.from(base64, 'base64');
    const meta = await sharp(png).metadata();
    expect(meta).toMatchObject({ format: 'png', width: QR_SIZE, height: QR_SIZE });
    // The same text and level give the same symbol: what the PNG draws is this text's code.
    const again = await QRCode.toBuffer(text, {
      type: 'png',
      errorCorrectionLevel: 'M',
      width: QR_SIZE,
      margin: 2,
    });
    expect(png.equals(again)).toBe(true);
    expect(QRCode.create(text, { errorCorrectionLevel: 'M' }).errorCorrectionLevel.bit).toBe(0);
  });
});
