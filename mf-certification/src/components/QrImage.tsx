import { useEffect, useRef, useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import DownloadIcon from '@mui/icons-material/Download';
import { saveBase64Png } from '@sertifikasi/shared-auth';
import { t } from '../i18n/id';

/** How long 'Download QR' stays disabled after a click (docs/rules.md#calls: a 500 ms button reset). */
const RESET_MS = 500;

export interface QrImageProps {
  /** The QR as the API answers it: PNG, base64 (with or without the data: prefix). */
  qrcode: string;
  /** The certificate number: the image's name and the file's, `qrcode-<number>.png`. */
  number: string;
}

/** A QR code 150 px wide with 'Download QR', which saves it as `qrcode-<number>.png`. */
export function QrImage({ qrcode, number }: QrImageProps) {
  const [busy, setBusy] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );
  const src = qrcode.startsWith('data:') ? qrcode : `data:image/png;base64,${qrcode}`;
  const download = () => {
    setBusy(true);
    saveBase64Png(qrcode, number);
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(() => setBusy(false), RESET_MS);
  };
  return (
    <Stack spacing={1} sx={{ alignItems: 'flex-start' }}>
      <Box
        component="img"
        src={src}
        alt={t.common.qrAlt(number)}
        sx={{ width: 150, height: 150, display: 'block', border: 1, borderColor: 'divider', borderRadius: 1 }}
      />
      <Button variant="outlined" size="small" startIcon={<DownloadIcon />} onClick={download} disabled={busy}>
        {t.common.downloadQr}
      </Button>
    </Stack>
  );
}
