/**
 * The texts of the emails (Indonesian), apart from how they are sent: a reminder to a client names
 * the certification body, the client, the certificate number and standard, what is due and when,
 * and the body's contact (docs/rules.md#notifications). Pure functions: the reminder job feeds
 * them what is due.
 */
import { longDate } from '@sertifikasi/shared-contracts';

/** What a reminder is about. */
export type ReminderSubject = 'SURVEILLANCE' | 'RECERTIFICATION' | 'SUSPENSION_LIMIT' | 'EXPIRY';

const WHAT: Record<ReminderSubject, string> = {
  SURVEILLANCE: 'audit surveilan',
  RECERTIFICATION: 'audit resertifikasi',
  SUSPENSION_LIMIT: 'batas akhir masa penangguhan',
  EXPIRY: 'berakhirnya masa berlaku sertifikat',
};

export interface ReminderFacts {
  subject: ReminderSubject;
  /** The certification body (the company). */
  body: { name: string; email: string | null; phone: string | null };
  client: string;
  certNumber: string;
  standard: string;
  /** `YYYY-MM-DD`. */
  due: string;
  /** Days from today to `due`; negative when late. */
  daysLeft: number;
}

/** The subject and plain text of a reminder to a client. */
export function reminderMail(f: ReminderFacts): { subject: string; text: string } {
  const what = WHAT[f.subject];
  const when =
    f.daysLeft < 0
      ? `telah lewat ${-f.daysLeft} hari (jatuh tempo ${longDate(f.due, 'id')})`
      : f.daysLeft === 0
        ? `jatuh tempo hari ini, ${longDate(f.due, 'id')}`
        : `jatuh tempo dalam ${f.daysLeft} hari, pada ${longDate(f.due, 'id')}`;
  const contact = [f.body.email, f.body.phone].filter(Boolean).join(' / ');
  const subject =
    f.daysLeft < 0
      ? `Terlambat: ${what} sertifikat ${f.certNumber}`
      : `Pengingat: ${what} sertifikat ${f.certNumber}`;
  const text = [
    `Yth. ${f.client},`,
    '',
    `Kami dari ${f.body.name} mengingatkan bahwa ${what} untuk sertifikat nomor ${f.certNumber} ` +
      `(${f.standard}) ${when}.`,
    '',
    f.subject === 'EXPIRY'
      ? 'Mohon hubungi kami untuk menjadwalkan resertifikasi agar sertifikat tetap berlaku.'
      : 'Mohon hubungi kami untuk menjadwalkan pelaksanaannya.',
    ...(contact ? ['', `Kontak: ${contact}`] : []),
    '',
    'Hormat kami,',
    f.body.name,
  ].join('\n');
  return { subject, text };
}
