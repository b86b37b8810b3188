import Avatar from '@mui/material/Avatar';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import ImageIcon from '@mui/icons-material/ImageOutlined';
import { EFFECTIVE_STATUS_LABELS, type EffectiveStatus } from '@sertifikasi/shared-contracts';
import { imageUrl } from './format';
import { UI_TEXT } from './i18n/id';

export interface ActiveBadgeProps {
  /** true or the flag string 'true' reads 'Aktif'; anything else 'Tidak Aktif'. */
  active: boolean | string | null | undefined;
}

/** The status badge of a list row: 'Aktif' (green) or 'Tidak Aktif' (grey). */
export function ActiveBadge({ active }: ActiveBadgeProps) {
  const on = active === true || active === 'true';
  return (
    <Chip
      size="small"
      label={on ? UI_TEXT.active : UI_TEXT.inactive}
      color={on ? 'success' : 'default'}
      variant={on ? 'filled' : 'outlined'}
    />
  );
}

/** The colour of each scheme status (theme colours whose text contrast the theme test checks). */
export const STATUS_CHIP_COLORS = {
  ACTIVE: 'success',
  EXPIRED: 'error',
  SUSPENDED: 'warning',
  WITHDRAWN: 'secondary',
  NOACTIVE: 'default',
  DRAFT: 'info',
} as const satisfies Record<
  EffectiveStatus,
  'success' | 'error' | 'warning' | 'secondary' | 'default' | 'info'
>;

/**
 * A scheme's effective status as a chip ('ACTIVE', 'KADALUARSA', 'NOT ACTIVE', ...), the same on the
 * client's page, in its history and in the scheme report: filled in the status's colour (outlined
 * for NOT ACTIVE), its label readable against it (WCAG AA).
 */
export function StatusChip({ status }: { status: EffectiveStatus }) {
  return (
    <Chip
      size="small"
      label={EFFECTIVE_STATUS_LABELS[status]}
      color={STATUS_CHIP_COLORS[status]}
      variant={status === 'NOACTIVE' ? 'outlined' : 'filled'}
      sx={{ fontWeight: 600 }}
    />
  );
}

export interface NameWithImageProps {
  name: string;
  /** The stored image's name (served from /images/); a placeholder shows when there is none. */
  image: string | null | undefined;
  /** Square size in pixels; 36 by default. */
  size?: number;
}

/** A list cell: a record's logo or icon (or a placeholder) next to its name. */
export function NameWithImage({ name, image, size = 36 }: NameWithImageProps) {
  const src = imageUrl(image);
  return (
    <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center' }}>
      <Avatar
        variant="rounded"
        src={src ?? undefined}
        alt=""
        sx={{
          width: size,
          height: size,
          bgcolor: 'grey.100',
          color: 'grey.500',
          '& img': { objectFit: 'contain' },
        }}
      >
        <ImageIcon fontSize="small" />
      </Avatar>
      <Typography variant="body2">{name || UI_TEXT.dash}</Typography>
    </Stack>
  );
}
