import { Link as RouterLink } from 'react-router-dom';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { EFFECTIVE_STATUS_LABELS, routeLink, type DashboardTotals } from '@sertifikasi/shared-contracts';
import { formatDate, formatNumber, imageUrl, orDash, UI_TEXT } from '@sertifikasi/shared-ui';
import { DEFAULT_LOGO } from '../../components/defaultLogo';
import { t } from '../../i18n/id';

/**
 * Company certifications expiring this month (soonest first): the client's logo (or the default
 * image), its name, the certificate's name and number, when it expires ('KADALUARSA' once past),
 * and 'Detail' to the client's page.
 */
export function ExpiringList({ totals }: { totals: DashboardTotals | null }) {
  const rows = totals?.company_certificate_expired_in_amonth ?? [];
  const total = totals?.company_certificate_expired_in_amonth_total ?? rows.length;
  return (
    <Paper
      variant="outlined"
      component="section"
      aria-labelledby="expiring-title"
      sx={{ p: 2, display: 'flex', flexDirection: 'column', minWidth: 0 }}
    >
      <Typography id="expiring-title" variant="h6" component="h2" sx={{ mb: 1 }}>
        {t.dashboard.expiringTitle}
      </Typography>
      {!totals ? (
        <Stack spacing={1}>
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} height={56} />
          ))}
        </Stack>
      ) : rows.length === 0 ? (
        <Typography color="text.secondary" role="status" sx={{ py: 4, textAlign: 'center' }}>
          {t.dashboard.expiringEmpty}
        </Typography>
      ) : (
        <>
          <List
            aria-labelledby="expiring-title"
            disablePadding
            sx={{ maxHeight: 420, overflowY: 'auto', mx: -1 }}
          >
            {rows.map((row) => (
              <ListItem key={row.id} divider sx={{ gap: 1.5, alignItems: 'flex-start', px: 1 }}>
                <Avatar
                  variant="rounded"
                  src={imageUrl(row.profile.logo) ?? DEFAULT_LOGO}
                  alt={t.dashboard.logo(row.profile.name)}
                  sx={{ width: 44, height: 44, bgcolor: 'grey.100', '& img': { objectFit: 'contain' } }}
                />
                <Box sx={{ flex: 1, minWidth: 0 }}>
                  <Typography variant="body2" sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
                    {row.profile.name}
                  </Typography>
                  <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
                    {row.cert_name}
                  </Typography>
                  <Typography
                    variant="caption"
                    color="text.secondary"
                    component="p"
                    sx={{ overflowWrap: 'anywhere' }}
                  >
                    {t.dashboard.certificateNumber} {orDash(row.cert_number)} · {t.dashboard.expiresOn}{' '}
                    {formatDate(row.expired_date)}
                  </Typography>
                  {row.status === 'EXPIRED' && (
                    <Chip
                      size="small"
                      color="error"
                      label={EFFECTIVE_STATUS_LABELS.EXPIRED}
                      sx={{ mt: 0.5 }}
                    />
                  )}
                </Box>
                <Button
                  component={RouterLink}
                  to={routeLink('/company-certificate/:id', { id: row.profile.id })}
                  size="small"
                  variant="outlined"
                  sx={{ flexShrink: 0, alignSelf: 'center' }}
                >
                  {UI_TEXT.detail}
                </Button>
              </ListItem>
            ))}
          </List>
          {total > rows.length && (
            <Typography variant="caption" color="text.secondary" sx={{ mt: 1 }}>
              {t.dashboard.expiringMore(formatNumber(rows.length), formatNumber(total))}
            </Typography>
          )}
        </>
      )}
    </Paper>
  );
}
