import { Link as RouterLink } from 'react-router-dom';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { t } from '../i18n/id';

export function NotFoundPage() {
  return (
    <Box sx={{ textAlign: 'center', py: 8 }}>
      <Typography variant="h4" component="h2" gutterBottom>
        {t.notFound.heading}
      </Typography>
      <Typography sx={{ mb: 3 }}>{t.notFound.text}</Typography>
      <Button variant="contained" component={RouterLink} to="/statistik">
        {t.notFound.back}
      </Button>
    </Box>
  );
}
