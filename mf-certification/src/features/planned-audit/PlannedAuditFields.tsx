import { useMemo } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import DeleteIcon from '@mui/icons-material/Delete';
import { FieldArray, useFormikContext } from 'formik';
import {
  ALL,
  type AuditDays,
  type AuditPlanLookups,
  PLANNED_AUDIT_KIND_LABELS,
  PLANNED_AUDIT_KINDS,
  TEAM_ROLE_LABELS,
  TEAM_ROLES,
} from '@sertifikasi/shared-contracts';
import { useAuth } from '@sertifikasi/shared-auth';
import { AutocompleteInput, CompanyInput, SelectInput, TextInput, useFetch } from '@sertifikasi/shared-ui';
import { DateInput, DatePickerProvider } from '@sertifikasi/shared-ui/date';
import { t } from '../../i18n/id';

const s = t.plan;

export interface PlannedAuditFormValues {
  company_id: string;
  scheme_id: string;
  kind: string;
  start_date: string;
  end_date: string;
  audit_days: string;
  days_reason: string;
  team: { auditor_id: string; role: string }[];
  notes: string;
}

const KIND_OPTIONS = PLANNED_AUDIT_KINDS.map((value) => ({ value, label: PLANNED_AUDIT_KIND_LABELS[value] }));
const ROLE_OPTIONS = TEAM_ROLES.map((value) => ({ value, label: TEAM_ROLE_LABELS[value] }));

/** The schemes and active auditors of the form's company (`select/audit-plan/{id}`). */
function useChoices(companyId: string) {
  const { data } = useFetch<AuditPlanLookups>(
    companyId ? `select/audit-plan/${encodeURIComponent(companyId)}` : null,
  );
  return useMemo(
    () => ({
      schemes: (data?.schemes ?? []).map((o) => ({ value: o.id, label: o.name })),
      auditors: (data?.auditors ?? []).map((o) => ({ value: o.id, label: o.name })),
    }),
    [data],
  );
}

/** The days suggested for the chosen scheme and kind, as a hint under 'Hari Audit'. */
function useSuggestion(schemeId: string, kind: string): string | undefined {
  const path = schemeId && kind ? `audit-days?scheme_id=${encodeURIComponent(schemeId)}&kind=${kind}` : null;
  const { data } = useFetch<AuditDays>(path);
  if (!data) return undefined;
  return data.days === null
    ? s.noSuggestion(data.basis)
    : s.suggestion(String(data.days).replace('.', ','), data.basis);
}

/** The planned audit's form: scheme, kind, dates (dd/mm/yyyy pickers), days (with the suggestion), team, notes. */
export function PlannedAuditFields() {
  const { values, errors } = useFormikContext<PlannedAuditFormValues>();
  const selected = useAuth((st) => st.company_id);
  const company = values.company_id || (selected && selected !== ALL ? selected : '');
  const { schemes, auditors } = useChoices(company);
  const hint = useSuggestion(values.scheme_id, values.kind);
  const teamError = typeof errors.team === 'string' ? errors.team : undefined;
  return (
    <DatePickerProvider>
      <Stack spacing={2} sx={{ pt: 1 }}>
        <CompanyInput />
        <AutocompleteInput name="scheme_id" label={s.scheme} options={schemes} required />
        <SelectInput name="kind" label={s.kind} options={KIND_OPTIONS} required />
        <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: 'repeat(auto-fit, minmax(160px, 1fr))' }}>
          <DateInput name="start_date" label={s.start} required />
          <DateInput name="end_date" label={s.end} required />
        </Box>
        <TextInput name="audit_days" label={s.days} type="number" required helperText={hint} />
        <TextInput name="days_reason" label={s.daysReason} multiline rows={2} />
        <FieldArray name="team">
          {(helpers) => (
            <Stack spacing={1.5}>
              <Typography variant="subtitle2">{s.team}</Typography>
              {teamError && (
                <Typography variant="body2" color="error">
                  {teamError}
                </Typography>
              )}
              {values.team.map((_member, i) => (
                <Box
                  key={i}
                  role="group"
                  aria-label={s.member(i + 1)}
                  sx={{ display: 'flex', gap: 1, alignItems: 'flex-start', flexWrap: 'wrap' }}
                >
                  <Box sx={{ flex: '1 1 200px', minWidth: 0 }}>
                    <AutocompleteInput
                      name={`team.${i}.auditor_id`}
                      label={s.auditor}
                      options={auditors}
                      required
                    />
                  </Box>
                  <Box sx={{ flex: '1 1 140px', minWidth: 0 }}>
                    <SelectInput
                      name={`team.${i}.role`}
                      label={s.role}
                      options={ROLE_OPTIONS}
                      placeholder={false}
                      required
                    />
                  </Box>
                  <IconButton aria-label={`${s.remove} ${i + 1}`} onClick={() => helpers.remove(i)}>
                    <DeleteIcon fontSize="small" />
                  </IconButton>
                </Box>
              ))}
              <Box>
                <Button size="small" onClick={() => helpers.push({ auditor_id: '', role: 'AUDITOR' })}>
                  {s.addMember}
                </Button>
              </Box>
            </Stack>
          )}
        </FieldArray>
        <TextInput name="notes" label={s.notes} multiline rows={3} />
      </Stack>
    </DatePickerProvider>
  );
}
