import Alert from '@mui/material/Alert';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { routeOf, type RoutePath } from '@sertifikasi/shared-contracts';
import { t } from './i18n/id';

/** Stands in for a screen that is being built: the route's title and a short note. */
export function Placeholder({ path }: { path: RoutePath }) {
  return (
    <Stack spacing={2}>
      <Typography variant="h5" component="h1">
        {routeOf(path).title}
      </Typography>
      <Alert severity="info">{t.placeholder}</Alert>
    </Stack>
  );
}
