import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { type Auditor, TEAM_ROLE_LABELS, type TeamRole } from '@sertifikasi/shared-contracts';
import { daysUntil } from '@sertifikasi/shared-ui';
import { t } from '../../i18n/id';

const s = t.auditors;

type Qualification = Auditor['qualifications'][number];

/** Qualification lines a cell shows before '+N kualifikasi lainnya'. */
const SHOWN_QUALIFICATIONS = 3;
/** Sector codes a line shows before '+N'. */
const SHOWN_CODES = 6;

/**
 * A qualification as a line: type, role, sector codes (the first `codes` of them, then '+N') and
 * '(berakhir)' once its validity ended before today.
 */
function qualificationLine(q: Qualification, codes = Infinity): string {
  const role = TEAM_ROLE_LABELS[q.role as TeamRole] ?? q.role;
  const hidden = Math.max(q.sector_codes.length - codes, 0);
  const sectors = q.sector_codes.length
    ? ` · EA ${q.sector_codes.slice(0, codes).join(', ')}${hidden ? ` ${s.moreCodes(hidden)}` : ''}`
    : '';
  const ended = q.valid_until && (daysUntil(q.valid_until) ?? 0) < 0 ? ` ${s.expired}` : '';
  return `${q.certification} · ${role}${sectors}${ended}`;
}

/**
 * The 'Kualifikasi' cell, a few lines whatever the auditor holds: at most three qualifications with
 * at most six codes each. When anything is left out, the cell's title (the tooltip on hover) holds
 * every qualification with every code; 'Ubah' shows them too.
 */
export function QualificationsCell({ qualifications }: { qualifications: Auditor['qualifications'] }) {
  const shown = qualifications.slice(0, SHOWN_QUALIFICATIONS);
  const more = qualifications.length - shown.length;
  const lines = shown.map((q) => qualificationLine(q, SHOWN_CODES));
  const cut = more > 0 || shown.some((q) => q.sector_codes.length > SHOWN_CODES);
  return (
    <Stack
      spacing={0.25}
      sx={{ minWidth: 200 }}
      title={cut ? qualifications.map((q) => qualificationLine(q)).join('\n') : undefined}
    >
      {lines.map((line, i) => (
        <Typography key={i} variant="body2">
          {line}
        </Typography>
      ))}
      {more > 0 && (
        <Typography variant="body2" color="text.secondary">
          {s.moreQualifications(more)}
        </Typography>
      )}
    </Stack>
  );
}
