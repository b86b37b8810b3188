import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import DeleteIcon from '@mui/icons-material/Delete';
import { type ReactNode, useMemo } from 'react';
import { FieldArray, useFormikContext } from 'formik';
import {
  ALL,
  type AuditPlanLookups,
  IAF_SECTORS,
  QUALIFICATION_ROLES,
  sectorLabel,
  TEAM_ROLE_LABELS,
} from '@sertifikasi/shared-contracts';
import { useAuth } from '@sertifikasi/shared-auth';
import {
  AutocompleteInput,
  MultiSelectInput,
  SelectInput,
  type SelectOption,
  TextInput,
  useFetch,
} from '@sertifikasi/shared-ui';
import { t } from '../../i18n/id';

const s = t.auditors;

export interface QualificationValues {
  certification_id: string;
  role: string;
  sector_codes: string[];
  valid_from: string;
  valid_until: string;
}
export interface ConflictValues {
  client_id: string;
  reason: string;
  until: string;
}

const ROLE_OPTIONS = QUALIFICATION_ROLES.map((value) => ({ value, label: TEAM_ROLE_LABELS[value] }));
const SECTOR_OPTIONS = IAF_SECTORS.map((sector) => ({
  value: String(sector.code),
  label: sectorLabel(sector.code),
}));

/** The certification types and clients of the form's company (`select/audit-plan/{id}`). */
function useChoices(): { certification: SelectOption[]; clients: SelectOption[] } {
  const { values } = useFormikContext<{ company_id: string }>();
  const selected = useAuth((st) => st.company_id);
  const company = values.company_id || (selected && selected !== ALL ? selected : '');
  const path = company ? `select/audit-plan/${encodeURIComponent(company)}` : null;
  const { data } = useFetch<AuditPlanLookups>(path);
  return useMemo(
    () => ({
      certification: (data?.certification ?? []).map((o) => ({ value: o.id, label: o.name })),
      clients: (data?.company_certificate ?? []).map((o) => ({ value: o.id, label: o.name })),
    }),
    [data],
  );
}

/** One list of rows: a heading, each row with a remove button, and an add button. */
function Rows<V>(props: {
  name: string;
  title: string;
  addLabel: string;
  empty: V;
  rows: V[];
  render: (index: number) => ReactNode;
}) {
  return (
    <FieldArray name={props.name}>
      {(helpers) => (
        <Stack spacing={1.5}>
          <Typography variant="subtitle2">{props.title}</Typography>
          {props.rows.length === 0 && (
            <Typography variant="body2" color="text.secondary">
              {s.none}
            </Typography>
          )}
          {props.rows.map((_row, index) => (
            <Box
              key={index}
              sx={{ display: 'flex', gap: 1, alignItems: 'flex-start', flexWrap: 'wrap', minWidth: 0 }}
            >
              <Box sx={{ flex: '1 1 240px', minWidth: 0, display: 'grid', gap: 1.5 }}>
                {props.render(index)}
              </Box>
              <IconButton aria-label={`${s.remove} ${index + 1}`} onClick={() => helpers.remove(index)}>
                <DeleteIcon fontSize="small" />
              </IconButton>
            </Box>
          ))}
          <Box>
            <Button size="small" onClick={() => helpers.push(props.empty)}>
              {props.addLabel}
            </Button>
          </Box>
        </Stack>
      )}
    </FieldArray>
  );
}

/** The auditor's qualifications and conflicts of interest, row by row. */
export function AuditorLists() {
  const { values } = useFormikContext<{
    qualifications: QualificationValues[];
    conflicts: ConflictValues[];
  }>();
  const { certification, clients } = useChoices();
  return (
    <Stack spacing={3}>
      <Rows
        name="qualifications"
        title={s.qualifications}
        addLabel={s.addQualification}
        rows={values.qualifications}
        empty={{ certification_id: '', role: 'AUDITOR', sector_codes: [], valid_from: '', valid_until: '' }}
        render={(i) => (
          <>
            <SelectInput
              name={`qualifications.${i}.certification_id`}
              label={s.certification}
              options={certification}
              required
            />
            <SelectInput
              name={`qualifications.${i}.role`}
              label={s.role}
              options={ROLE_OPTIONS}
              placeholder={false}
              required
            />
            <MultiSelectInput
              name={`qualifications.${i}.sector_codes`}
              label={s.sectors}
              options={SECTOR_OPTIONS}
            />
            <TextInput name={`qualifications.${i}.valid_from`} label={s.validFrom} type="date" required />
            <TextInput name={`qualifications.${i}.valid_until`} label={s.validUntil} type="date" />
          </>
        )}
      />
      <Rows
        name="conflicts"
        title={s.conflicts}
        addLabel={s.addConflict}
        rows={values.conflicts}
        empty={{ client_id: '', reason: '', until: '' }}
        render={(i) => (
          <>
            <AutocompleteInput
              name={`conflicts.${i}.client_id`}
              label={s.client}
              options={clients}
              required
            />
            <TextInput name={`conflicts.${i}.reason`} label={s.reason} required />
            <TextInput name={`conflicts.${i}.until`} label={s.until} type="date" />
          </>
        )}
      />
    </Stack>
  );
}
