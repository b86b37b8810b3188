import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import ApartmentIcon from '@mui/icons-material/ApartmentOutlined';
import BadgeIcon from '@mui/icons-material/BadgeOutlined';
import PeopleIcon from '@mui/icons-material/PeopleAltOutlined';
import WorkspacePremiumIcon from '@mui/icons-material/WorkspacePremiumOutlined';
import type { DashboardTotals } from '@sertifikasi/shared-contracts';
import { formatNumber } from '@sertifikasi/shared-ui';
import { t } from '../../i18n/id';

interface Card {
  key: keyof Pick<
    DashboardTotals,
    | 'company_certificate'
    | 'company_certificate_total'
    | 'training_certificate'
    | 'training_certificate_total'
  >;
  label: string;
  icon: ReactNode;
  color: string;
}

const CARDS: Card[] = [
  {
    key: 'company_certificate',
    label: t.dashboard.companiesCertified,
    icon: <ApartmentIcon />,
    color: 'primary.main',
  },
  {
    key: 'company_certificate_total',
    label: t.dashboard.companyCertifications,
    icon: <WorkspacePremiumIcon />,
    color: 'success.main',
  },
  {
    key: 'training_certificate',
    label: t.dashboard.personnelCertified,
    icon: <PeopleIcon />,
    color: 'warning.main',
  },
  {
    key: 'training_certificate_total',
    label: t.dashboard.trainingCertifications,
    icon: <BadgeIcon />,
    color: 'info.main',
  },
];

/**
 * The four totals: companies certified, company certifications (all schemes), personnel certified,
 * training certifications. Each card is a group named by its label, holding the number.
 */
export function TotalCards({ totals }: { totals: DashboardTotals | null }) {
  return (
    <Box
      component="section"
      aria-label={t.dashboard.totals}
      // Two cards a row on a phone, four on a wide screen.
      sx={{ display: 'grid', gap: 2, gridTemplateColumns: 'repeat(auto-fit, minmax(min(100%, 160px), 1fr))' }}
    >
      {CARDS.map((card) => {
        const labelId = `total-${card.key}`;
        return (
          <Paper
            key={card.key}
            variant="outlined"
            role="group"
            aria-labelledby={labelId}
            sx={{ p: { xs: 1.5, sm: 2 } }}
          >
            <Stack
              direction={{ xs: 'column', sm: 'row' }}
              spacing={{ xs: 1, sm: 2 }}
              sx={{ alignItems: { sm: 'center' } }}
            >
              <Box
                aria-hidden
                sx={{
                  display: 'grid',
                  placeItems: 'center',
                  width: { xs: 40, sm: 48 },
                  height: { xs: 40, sm: 48 },
                  flexShrink: 0,
                  borderRadius: 2,
                  color: card.color,
                  bgcolor: 'action.hover',
                }}
              >
                {card.icon}
              </Box>
              <Box sx={{ minWidth: 0 }}>
                <Typography id={labelId} variant="body2" color="text.secondary">
                  {card.label}
                </Typography>
                <Typography variant="h5" component="p" sx={{ fontWeight: 600 }}>
                  {totals ? formatNumber(totals[card.key]) : <Skeleton width={64} />}
                </Typography>
              </Box>
            </Stack>
          </Paper>
        );
      })}
    </Box>
  );
}
