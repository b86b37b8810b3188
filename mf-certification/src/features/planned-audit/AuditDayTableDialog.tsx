import { useEffect, useMemo } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import DeleteIcon from '@mui/icons-material/Delete';
import { FieldArray, useFormikContext } from 'formik';
import {
  AUDIT_DAY_LABELS,
  auditDayBandProblems,
  type AuditDayTable,
  type AuditPlanLookups,
  MD5_RANGES,
} from '@sertifikasi/shared-contracts';
import {
  FormModal,
  nestFieldErrors,
  saveRecord,
  SelectInput,
  TextInput,
  useFetch,
} from '@sertifikasi/shared-ui';
import { t } from '../../i18n/id';

const s = t.dayTable;

interface Row {
  min_employees: string;
  max_employees: string;
  days: string;
}
interface Values {
  certification_id: string;
  bands: Row[];
}

const toRows = (bands: readonly { min_employees: number; max_employees: number; days: number }[]): Row[] =>
  bands.map((b) => ({
    min_employees: String(b.min_employees),
    max_employees: String(b.max_employees),
    days: String(b.days),
  }));
const toBands = (rows: readonly Row[]) =>
  rows.map((r) => ({
    min_employees: Number(r.min_employees),
    max_employees: Number(r.max_employees),
    days: Number(String(r.days).replace(',', '.')),
  }));

/** The rows of the chosen table: loaded when the type changes; added, removed, or filled from IAF MD 5. */
function TableFields({ companyId }: { companyId: string }) {
  const { values, setFieldValue } = useFormikContext<Values>();
  const lookups = useFetch<AuditPlanLookups>(`select/audit-plan/${encodeURIComponent(companyId)}`).data;
  const types = useMemo(
    () => [
      { value: '', label: s.everyType },
      ...(lookups?.certification ?? []).map((o) => ({ value: o.id, label: o.name })),
    ],
    [lookups],
  );
  const query = new URLSearchParams({ company_id: companyId });
  if (values.certification_id) query.set('certification_id', values.certification_id);
  const table = useFetch<AuditDayTable>(`audit-day-table?${query}`).data;
  useEffect(() => {
    if (table) void setFieldValue('bands', toRows(table.bands), false);
  }, [table, setFieldValue]);
  return (
    <Stack spacing={2} sx={{ pt: 1 }}>
      <SelectInput name="certification_id" label={s.type} options={types} placeholder={false} />
      <Typography variant="body2" color="text.secondary">
        {table?.source === 'md5' ? s.fromMd5 : s.own}
      </Typography>
      <FieldArray name="bands">
        {(helpers) => (
          <Stack spacing={1}>
            {values.bands.map((_band, i) => (
              <Box
                key={i}
                role="group"
                aria-label={s.row(i + 1)}
                sx={{
                  display: 'grid',
                  gap: 1,
                  alignItems: 'start',
                  gridTemplateColumns: 'minmax(0, 1fr) minmax(0, 1fr) minmax(0, 1fr) auto',
                }}
              >
                <TextInput name={`bands.${i}.min_employees`} label={AUDIT_DAY_LABELS.min} type="number" />
                <TextInput name={`bands.${i}.max_employees`} label={AUDIT_DAY_LABELS.max} type="number" />
                <TextInput name={`bands.${i}.days`} label={AUDIT_DAY_LABELS.days} type="number" />
                <IconButton aria-label={`${s.remove} ${i + 1}`} onClick={() => helpers.remove(i)}>
                  <DeleteIcon fontSize="small" />
                </IconButton>
              </Box>
            ))}
            <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
              <Button
                size="small"
                onClick={() => {
                  const last = values.bands.at(-1);
                  const from = last ? Number(last.max_employees) + 1 : 1;
                  helpers.push({ min_employees: String(from), max_employees: '', days: '' });
                }}
              >
                {s.add}
              </Button>
              <Button size="small" onClick={() => void setFieldValue('bands', toRows(MD5_RANGES))}>
                {s.fillMd5}
              </Button>
            </Box>
          </Stack>
        )}
      </FieldArray>
    </Stack>
  );
}

/**
 * 'Tabel Hari Audit': the header's company's audit-days table for a certification type or for every
 * type (IAF MD 5's until it has its own), edited row by row and saved whole; the API refuses a gap,
 * an overlap or days not in half days under the row, and so does the dialog before it asks.
 */
export function AuditDayTableDialog({
  companyId,
  open,
  onClose,
}: {
  companyId: string;
  open: boolean;
  onClose: () => void;
}) {
  return (
    <FormModal<Values>
      open={open}
      title={s.title}
      onClose={onClose}
      initialValues={{ certification_id: '', bands: [] }}
      formKey={`${companyId}:${open}`}
      width={640}
      onSubmit={async (values, helpers) => {
        const bands = toBands(values.bands);
        const problems = auditDayBandProblems(bands);
        if (Object.keys(problems).length) {
          helpers.setErrors(nestFieldErrors(problems));
          return;
        }
        const body = { company_id: companyId, certification_id: values.certification_id || null, bands };
        const result = await saveRecord<AuditDayTable>(
          { endpoint: 'audit-day-table', mode: 'edit', body },
          helpers,
        );
        if (result.ok) onClose();
      }}
    >
      <TableFields companyId={companyId} />
    </FormModal>
  );
}
