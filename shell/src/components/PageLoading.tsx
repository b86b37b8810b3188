import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import { keyframes } from '@mui/material/styles';
import { t } from '../i18n/id';

const appear = keyframes`
  from { opacity: 0; }
  to { opacity: 1; }
`;

/**
 * Fades in from 100 ms to 150 ms, so a load that is over at once never flashes a bar and a longer
 * one shows it by 150 ms. (CSS only: the element is there from the first render.)
 */
const afterAMoment = { animation: `${appear} 50ms ease-out 100ms both` } as const;

/**
 * The top of the content area while a screen's code, a module or the user's permissions load: a
 * running progress bar (with `label` under it), inside the layout, which stays on screen.
 */
export function PageLoading({ label = t.loading }: { label?: string }) {
  return (
    <Box role="status" sx={afterAMoment}>
      <LinearProgress aria-label={label} />
      <Typography variant="body2" color="text.secondary" sx={{ mt: 1.5 }}>
        {label}
      </Typography>
    </Box>
  );
}

/**
 * The whole page while the layout's own code loads (after a reload, or a sign-in faster than the
 * preload): the portal's background with a progress bar along the top, never a white page.
 */
export function AppLoading() {
  return (
    <Box role="status" sx={{ minHeight: '100vh', bgcolor: 'background.default' }}>
      <Box sx={{ position: 'fixed', top: 0, left: 0, right: 0, ...afterAMoment }}>
        <LinearProgress aria-label={t.loading} />
      </Box>
    </Box>
  );
}
