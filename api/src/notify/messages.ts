/**
 * The texts of the emails (Indonesian), apart from how they are sent: a reminder to a client names
 * the certification body, the client, the certificate number and standard, what is due and when,
 * and the body's contact, and the link that stops them (docs/rules.md#notifications). Pure functions: the reminder job feeds
 * them what is due.
 */
import { CYCLE_RULES, longDate } from '@sertifikasi/shared-contracts';

/** What a reminder is about. */
export type ReminderSubject = 'SURVEILLANCE' | 'RECERTIFICATION' | 'SUSPENSION_LIMIT' | 'EXPIRY';

const WHAT: Record<ReminderSubject, string> = {
  SURVEILLANCE: 'audit surveilan',
  RECERTIFICATION: 'audit resertifikasi',
  SUSPENSION_LIMIT: 'batas akhir masa penangguhan',
  EXPIRY: 'berakhirnya masa berlaku',
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
  /** The signed link that turns the client's reminders off (notify/unsubscribe.ts), if any. */
  unsubscribe?: string;
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
    ...(f.unsubscribe
      ? ['', '--', `Tidak ingin menerima pengingat ini lagi? Berhenti berlangganan: ${f.unsubscribe}`]
      : []),
  ].join('\n');
  return { subject, text };
}

/** One line of the weekly digest: an item late or due soon. */
export interface DigestItem {
  subject: Exclude<ReminderSubject, 'EXPIRY'>;
  client: string;
  certNumber: string;
  standard: string;
  /** `YYYY-MM-DD`. */
  due: string;
}

/** One company of a digest: its late items and those due within 30 days (at most `DIGEST_LIST` of each listed). */
export interface DigestCompany {
  name: string;
  late: { count: number; items: DigestItem[] };
  soon: { count: number; items: DigestItem[] };
}

/** The digest's soon items are those 'Segera' on the schedule: due within CYCLE_RULES.soonDays. */
const WITHIN_SOON = `dalam ${CYCLE_RULES.soonDays} hari`;

/** How many items of each kind a digest lists per company; the rest are counted. */
export const DIGEST_LIST = 20;

const digestLine = (i: DigestItem) =>
  `- ${i.certNumber} ${i.client} (${i.standard}): ${WHAT[i.subject]}, ${longDate(i.due, 'id')}`;

/**
 * The weekly digest to a user holding 'Jadwal Audit': per company of their scope, the items late
 * and those due within CYCLE_RULES.soonDays (the first DIGEST_LIST of each, soonest first, then how many more).
 */
export function digestMail(f: { user: string; monday: string; companies: DigestCompany[] }): {
  subject: string;
  text: string;
} {
  const late = f.companies.reduce((n, c) => n + c.late.count, 0);
  const soon = f.companies.reduce((n, c) => n + c.soon.count, 0);
  const section = (title: string, part: DigestCompany['late']) =>
    part.count === 0
      ? []
      : [
          `${title} (${part.count}):`,
          ...part.items.map(digestLine),
          ...(part.count > part.items.length ? [`... dan ${part.count - part.items.length} lainnya`] : []),
        ];
  const text = [
    `Yth. ${f.user},`,
    '',
    `Ringkasan jadwal audit minggu ${longDate(f.monday, 'id')}: ${late} terlambat, ` +
      `${soon} jatuh tempo ${WITHIN_SOON}.`,
    ...f.companies
      .filter((c) => c.late.count + c.soon.count > 0)
      .flatMap((c) => [
        '',
        c.name,
        ...section('Terlambat', c.late),
        ...section(`Jatuh tempo ${WITHIN_SOON}`, c.soon),
      ]),
    '',
    'Rinciannya ada di menu Jadwal Audit.',
  ].join('\n');
  return {
    subject: `Ringkasan mingguan jadwal audit: ${late} terlambat, ${soon} jatuh tempo ${WITHIN_SOON}`,
    text,
  };
}
