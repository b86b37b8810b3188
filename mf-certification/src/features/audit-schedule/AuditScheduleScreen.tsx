import { useMemo, useState, type ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import EventIcon from '@mui/icons-material/Event';
import FactCheckIcon from '@mui/icons-material/FactCheckOutlined';
import EventAvailableIcon from '@mui/icons-material/EventAvailable';
import {
  ALL,
  AUDIT_SCHEDULE,
  AUDIT_SCHEDULE_COLUMNS,
  type AuditScheduleRow,
  CYCLE_KIND_LABELS,
  CYCLE_WINDOW_LABELS,
  CYCLE_WINDOWS,
  type CycleWindow,
  type CertificationLookups,
  reportColumns,
  type SchemeAuditKind,
  todayOfItem,
} from '@sertifikasi/shared-contracts';
import { useAuth, useCan } from '@sertifikasi/shared-auth';
import {
  formatDate,
  formatNumber,
  ListPagination,
  ListToolbar,
  logLoadFailure,
  ExportButton,
  NameWithImage,
  orDash,
  ResourceTable,
  type ResourceColumn,
  type RowAction,
  useFetch,
  useListData,
  useListState,
} from '@sertifikasi/shared-ui';
import { t } from '../../i18n/id';
import { AuditFormModal } from './AuditFormModal';
import { PlanFormModal } from '../planned-audit/PlanFormModal';
import { usePhone } from '../../components/usePhone';
import { PlannedCell, planHref, ScheduleCards, type ScheduleRow as Row, StateChip } from './ScheduleParts';

/** The audit an item calls for: its surveillance or recertification; a special one for a suspension. */
const AUDIT_FOR: Record<AuditScheduleRow['kind'], SchemeAuditKind> = {
  SURVEILLANCE: 'SURVEILLANCE',
  RECERTIFICATION: 'RECERTIFICATION',
  SUSPENSION_LIMIT: 'SPECIAL',
};

const CELLS: Partial<Record<keyof Row, (row: Row) => ReactNode>> = {
  client_name: (r) => <NameWithImage name={r.client_name} image={r.client_logo} />,
  kind: (r) => CYCLE_KIND_LABELS[r.kind],
  days_left: (r) => formatNumber(r.days_left),
  state: (r) => <StateChip state={r.state} />,
};

/** The screen's own column after the schedule's: the item's PLANNED audit (not in the workbook). */
const PLANNED_COLUMN: ResourceColumn<Row> = {
  key: 'planned_audit',
  header: t.schedule.planned,
  render: (r) => <PlannedCell row={r} />,
};

function ScheduleBody({ companyId }: { companyId: string }) {
  const all = companyId === ALL;
  const list = useListState({ resetKey: companyId });
  const [window, setWindow] = useState<CycleWindow>('90');
  const [certification, setCertification] = useState('');
  const [seenCompany, setSeenCompany] = useState(companyId);
  if (seenCompany !== companyId) {
    setSeenCompany(companyId);
    setCertification('');
  }
  const path = `${AUDIT_SCHEDULE.endpoint}/${encodeURIComponent(companyId)}`;
  const filters = { window, certification, type: 'table' };
  const data = useListData<AuditScheduleRow>(path, list, { filters });
  const lookups = useFetch<CertificationLookups>(`select/certification/${encodeURIComponent(companyId)}`, {
    onError: logLoadFailure,
  }).data;
  const canRecord = useCan('company-certificate:edit');
  const [recording, setRecording] = useState<Row | null>(null);
  const canPlan = useCan('audit-plan');
  const [planning, setPlanning] = useState<Row | null>(null);
  const phone = usePhone();

  const columns = useMemo<ResourceColumn<Row>[]>(
    () => [
      ...reportColumns(AUDIT_SCHEDULE_COLUMNS, { all }).map((column): ResourceColumn<Row> => ({
        key: column.key,
        header: column.header,
        render:
          CELLS[column.key as keyof Row] ??
          ((row: Row) => {
            const value = row[column.key as keyof Row] as string | number | null;
            return column.kind === 'date' ? formatDate(value) : orDash(value);
          }),
      })),
      PLANNED_COLUMN,
    ],
    [all],
  );
  const rows: Row[] = (data.data?.data ?? []).map((r) => ({ ...r, id: r.scheme_id }));
  const actions: RowAction<Row>[] = [
    ...(canPlan
      ? [
          {
            key: 'plan',
            label: t.schedule.planAction,
            icon: <EventIcon fontSize="small" />,
            color: 'secondary' as const,
            onClick: setPlanning,
            hidden: (r: Row) => r.planned_audit !== null,
          },
          {
            key: 'planned',
            label: t.schedule.openPlan,
            icon: <EventAvailableIcon fontSize="small" />,
            color: 'info' as const,
            href: planHref,
            hidden: (r: Row) => r.planned_audit === null,
          },
        ]
      : []),
    ...(canRecord
      ? [
          {
            key: 'record',
            label: t.schedule.record,
            icon: <FactCheckIcon fontSize="small" />,
            color: 'primary' as const,
            onClick: setRecording,
          },
        ]
      : []),
  ];

  const certificationChoices = (lookups?.certification ?? []).map((o) => ({
    value: o.id,
    label: all ? `${o.name} (${o.company.name})` : o.name,
  }));

  return (
    <Paper variant="outlined" sx={{ overflow: 'hidden' }}>
      <ListToolbar
        title={AUDIT_SCHEDULE.title}
        search={{ value: list.searchText, onChange: list.setSearchText, placeholder: t.schedule.search }}
        pageSize={{ value: list.pageSize, onChange: list.setPageSize }}
      />
      <Stack
        direction={{ xs: 'column', md: 'row' }}
        spacing={2}
        useFlexGap
        sx={{ px: 2, pb: 2, alignItems: { md: 'center' }, flexWrap: 'wrap' }}
      >
        <ToggleButtonGroup
          exclusive
          size="small"
          value={window}
          aria-label={t.schedule.window}
          onChange={(_e, value: CycleWindow | null) => {
            if (value) {
              setWindow(value);
              list.setPage(1);
            }
          }}
          sx={{ flexWrap: 'wrap' }}
        >
          {CYCLE_WINDOWS.map((w) => (
            <ToggleButton key={w} value={w}>
              {CYCLE_WINDOW_LABELS[w]}
            </ToggleButton>
          ))}
        </ToggleButtonGroup>
        <TextField
          select
          size="small"
          label={t.schedule.certification}
          value={certification}
          onChange={(e) => {
            setCertification(e.target.value);
            list.setPage(1);
          }}
          sx={{ minWidth: { md: 260 } }}
        >
          <MenuItem value="">{t.schedule.allCertifications}</MenuItem>
          {certificationChoices.map((o) => (
            <MenuItem key={o.value} value={o.value}>
              {o.label}
            </MenuItem>
          ))}
        </TextField>
        <Box sx={{ flexGrow: 1 }} />
        <ExportButton
          path={path}
          filename={AUDIT_SCHEDULE.fileName}
          searchParams={() => {
            const params: Record<string, string> = { window };
            if (certification) params.certification = certification;
            if (list.search) params.search = list.search;
            return params;
          }}
        />
      </Stack>
      {phone ? (
        <ScheduleCards rows={rows} actions={actions} all={all} loading={data.loading} />
      ) : (
        <ResourceTable<Row>
          columns={columns}
          rows={rows}
          loading={data.loading}
          actions={actions}
          label={AUDIT_SCHEDULE.title}
        />
      )}
      {data.data && rows.length > 0 && (
        <ListPagination
          current={data.data.current_page}
          last={data.data.last_page}
          from={data.data.from}
          to={data.data.to}
          total={data.data.total}
          capped={data.data.total_capped}
          onPage={list.setPage}
          disabled={data.loading}
        />
      )}
      <AuditFormModal
        target={
          recording
            ? {
                schemeId: recording.scheme_id,
                audit: null,
                kind: AUDIT_FOR[recording.kind],
                // The app's today (its clock and time zone), not the browser's.
                date: todayOfItem(recording),
              }
            : null
        }
        title={recording ? t.schedule.recordTitle(recording.cert_number) : t.schedule.record}
        onClose={() => setRecording(null)}
        onSaved={() => {
          setRecording(null);
          data.reload();
        }}
      />
      <PlanFormModal
        target={
          planning
            ? {
                companyId: planning.company_id,
                schemeId: planning.scheme_id,
                kind: AUDIT_FOR[planning.kind],
                title: t.schedule.planTitle(planning.cert_number),
              }
            : null
        }
        onClose={() => setPlanning(null)}
        onSaved={() => {
          setPlanning(null);
          data.reload();
        }}
      />
    </Paper>
  );
}

/**
 * 'Jadwal Audit' (docs/product.md, "The certification cycle"): what is due next for every ACTIVE or
 * SUSPENDED scheme of the header's company (or ALL, with the Perusahaan column), soonest first:
 * the window (Terlambat, 30 hari, 90 hari, Semua), the certification type and the search narrow it;
 * 'Catat Audit' records the audit done on a row (with `company-certificate:edit`), after which the
 * row shows its next item; a row whose scheme has a PLANNED audit shows its dates and lead auditor
 * and links to it, the others offer 'Rencanakan'; 'Export Excel' saves the filtered rows. On a
 * phone each item is a card.
 */
export function AuditScheduleScreen() {
  const companyId = useAuth((s) => s.company_id);
  if (!companyId) return <Alert severity="info">{t.schedule.noCompany}</Alert>;
  return <ScheduleBody companyId={companyId} />;
}
