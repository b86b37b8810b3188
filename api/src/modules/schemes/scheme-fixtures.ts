/**
 * Test fixtures of the certification records schemes point at, written straight to the database so
 * the scheme and client tests do not depend on other modules' routes.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Executor } from '../../db';
import { clientCertificates } from '../../db/schema';
import { newId } from '../../lib/crypto';
import { rebuildDerived } from '../../services/derived';

export { insertAccredited as insertBody, insertCertificationType as insertType } from '../../../test/records';

export async function insertClient(
  db: Executor,
  companyId: string,
  name = 'PT Maju Bersama',
  certificateNumber = `CL-${newId().slice(0, 8)}`,
): Promise<string> {
  const id = newId();
  await db.insert(clientCertificates).values({
    id,
    company_id: companyId,
    name,
    certificate_number: certificateNumber,
    region: 'Jakarta',
  });
  await rebuildDerived(db); // a row written without the services, as a bulk load
  return id;
}

/** A scheme body as the form sends it. */
export function schemeBody(
  certificateId: string,
  certificationId: string,
  over: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    certificate_id: certificateId,
    certification_id: certificationId,
    cert_number: `QMS/${newId().slice(0, 8)}`,
    status: 'ACTIVE',
    issue_date: '2025-01-10',
    valid_for: 3,
    valid_for_type: 'YEAR',
    is_accredited: 'false',
    ...over,
  };
}

/** Decodes the QR code in a PNG (base64) with Debian's zbarimg (zbar-tools); its text. */
export async function decodeQr(base64: string): Promise<string> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'qr-'));
  const file = path.join(dir, 'qrcode.png');
  try {
    fs.writeFileSync(file, Buffer.from(base64, 'base64'));
    const { stdout } = await promisify(execFile)('zbarimg', ['--quiet', '--raw', file]);
    return stdout.trim();
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
