import { useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Divider from '@mui/material/Divider';
import Stack from '@mui/material/Stack';
import PictureAsPdfIcon from '@mui/icons-material/PictureAsPdfOutlined';
import QrCodeIcon from '@mui/icons-material/QrCode2';
import WarningIcon from '@mui/icons-material/WarningAmberOutlined';
import { MESSAGES, type Scheme, VALID_FOR_TYPE_LABELS } from '@sertifikasi/shared-contracts';
import { api, downloadFile, notifyApiError, useCan } from '@sertifikasi/shared-auth';
import { DetailField, DetailGrid, formatDate, formatNumber, showToast } from '@sertifikasi/shared-ui';
import { QrImage } from '../../components/QrImage';
import { StatusBadge } from '../../components/StatusBadge';
import { t } from '../../i18n/id';
import { SchemeHistoryButton } from './SchemeHistory';

/**
 * 'Hari Kadaluarsa' (docs/rules.md#records): the days left until expiry while the scheme is
 * effectively ACTIVE, 'KADALUARSA' once expired, '-' otherwise.
 */
export function daysLeftText(s: Pick<Scheme, 'effective_status' | 'days_left'>): string | null {
  if (s.effective_status === 'EXPIRED') return t.scheme.expired;
  if (s.effective_status === 'ACTIVE' && s.days_left !== null)
    return t.scheme.days(formatNumber(s.days_left));
  return null;
}

/** The badges under a scheme card's title: the effective status and an overdue surveillance. */
export function SchemeBadges({ scheme }: { scheme: Scheme }) {
  return (
    <Stack direction="row" spacing={1} useFlexGap sx={{ mt: 0.75, flexWrap: 'wrap' }}>
      <StatusBadge status={scheme.effective_status} />
      {scheme.surveillance_overdue && (
        <Chip
          size="small"
          color="warning"
          variant="outlined"
          icon={<WarningIcon />}
          label={t.scheme.surveillanceOverdue}
          title={t.scheme.surveillanceOverdueHint(formatDate(scheme.surveillance_date))}
        />
      )}
    </Stack>
  );
}

/** 'Generate QR Code' (editors): makes the scheme's QR, then the page shows it. */
function GenerateQrButton({ scheme, onGenerated }: { scheme: Scheme; onGenerated: () => void }) {
  const [busy, setBusy] = useState(false);
  const generate = async () => {
    setBusy(true);
    try {
      await api.get(`generate-qr-scheme/${encodeURIComponent(scheme.id)}`).json<Scheme>();
    } catch (err) {
      notifyApiError(err);
      setBusy(false);
      return;
    }
    setBusy(false);
    showToast('success', MESSAGES.qrCreated);
    onGenerated();
  };
  return (
    <Button
      variant="contained"
      size="small"
      startIcon={busy ? <CircularProgress size={16} color="inherit" /> : <QrCodeIcon />}
      onClick={() => void generate()}
      disabled={busy}
    >
      {busy ? t.scheme.generatingQr : t.scheme.generateQr}
    </Button>
  );
}

/** 'Download Sertifikat': the scheme's certificate as a PDF, named by the API. */
function DownloadCertificateButton({ scheme, clientName }: { scheme: Scheme; clientName: string }) {
  const [busy, setBusy] = useState(false);
  const download = async () => {
    setBusy(true);
    try {
      await downloadFile(`download-certificate/${encodeURIComponent(scheme.id)}`, {
        filename: `CERT. NO. ${scheme.cert_number} ${clientName}.pdf`,
      });
    } catch (err) {
      // The original screens logged a failed PDF download only; staff who clicked need to hear of it.
      notifyApiError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button
      variant="outlined"
      size="small"
      startIcon={busy ? <CircularProgress size={16} color="inherit" /> : <PictureAsPdfIcon />}
      onClick={() => void download()}
      disabled={busy}
    >
      {busy ? t.scheme.downloading : t.scheme.downloadCertificate}
    </Button>
  );
}

export interface SchemeDetailsProps {
  scheme: Scheme;
  clientName: string;
  /** The company shows only issue and expiry dates: no surveillance date. */
  simpleDates: boolean;
  /** After the QR was generated: reload the client. */
  onChanged: () => void;
}

/**
 * A scheme card's content: its numbers, type, accreditation, dates and 'Hari Kadaluarsa'; the QR
 * (or 'Generate QR Code' for editors) with 'Download QR'; the status history; the PDF.
 */
export function SchemeDetails({ scheme, clientName, simpleDates, onChanged }: SchemeDetailsProps) {
  const canEdit = useCan('company-certificate:edit');
  return (
    <Stack spacing={2}>
      <DetailGrid columns={3}>
        <DetailField label={t.scheme.certNumber} value={scheme.cert_number} />
        <DetailField label={t.scheme.certification} value={scheme.cert_name} />
        <DetailField
          label={t.scheme.accredited}
          value={scheme.is_accredited === 'true' ? scheme.accredited : null}
        />
        <DetailField label={t.scheme.issueDate} value={formatDate(scheme.issue_date)} />
        <DetailField label={t.scheme.issueDate2} value={formatDate(scheme.issue_date2)} />
        <DetailField
          label={t.scheme.validFor}
          value={t.scheme.validity(scheme.valid_for, VALID_FOR_TYPE_LABELS[scheme.valid_for_type])}
        />
        <DetailField label={t.scheme.validDate} value={formatDate(scheme.valid_date)} />
        <DetailField label={t.scheme.expiredDate} value={formatDate(scheme.expired_date)} />
        {!simpleDates && (
          <DetailField label={t.scheme.surveillanceDate} value={formatDate(scheme.surveillance_date)} />
        )}
        <DetailField label={t.scheme.daysLeft} value={daysLeftText(scheme)} />
        <DetailField label={t.scheme.desc} value={scheme.desc} wide />
      </DetailGrid>
      <Divider />
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        spacing={2}
        sx={{ alignItems: { xs: 'flex-start', sm: 'flex-end' }, justifyContent: 'space-between' }}
      >
        <Box>
          {scheme.qrcode ? (
            <QrImage qrcode={scheme.qrcode} number={scheme.cert_number} />
          ) : (
            canEdit && <GenerateQrButton scheme={scheme} onGenerated={onChanged} />
          )}
        </Box>
        <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }}>
          <SchemeHistoryButton scheme={scheme} />
          <DownloadCertificateButton scheme={scheme} clientName={clientName} />
        </Stack>
      </Stack>
    </Stack>
  );
}
