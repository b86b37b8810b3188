import { useLocation, useNavigate } from 'react-router-dom';
import Button from '@mui/material/Button';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import { t } from '../i18n/id';

/**
 * 'Kembali': back to where the user came from (the list on the page, search and sort it was on: they
 * live in the address), or to `fallback` when the page was opened directly.
 */
export function BackButton({ fallback }: { fallback: string }) {
  const navigate = useNavigate();
  const location = useLocation();
  // react-router's first entry of a session has the key 'default'.
  const canGoBack = location.key !== 'default';
  return (
    <Button
      startIcon={<ArrowBackIcon />}
      onClick={() => void (canGoBack ? navigate(-1) : navigate(fallback))}
      sx={{ alignSelf: 'flex-start' }}
    >
      {t.common.back}
    </Button>
  );
}
