import { useMemo } from 'react';
import { ALL } from '@sertifikasi/shared-contracts';
import { useAuth } from '@sertifikasi/shared-auth';
import { UI_TEXT } from '../i18n/id';
import { AutocompleteInput } from './AutocompleteInput';
import type { SelectOption } from './options';

export interface CompanyInputProps {
  /** The API field name; 'company_id' by default. */
  name?: string;
  /** 'Perusahaan' by default. */
  label?: string;
  /** Marks the label as required (docs/rules.md#validation: the company is required when the selector is ALL). */
  required?: boolean;
  disabled?: boolean;
}

/**
 * The company of a company-owned record: a searchable choice of the companies the user may pick,
 * shown only when the header's company selector is ALL ('ALL' itself is never a choice). With one
 * company selected the field is not shown and the resource screen sends the selected company.
 */
export function CompanyInput({
  name = 'company_id',
  label = UI_TEXT.company,
  required = true,
  disabled,
}: CompanyInputProps) {
  const selected = useAuth((s) => s.company_id);
  const companies = useAuth((s) => s.companies);
  const options = useMemo<SelectOption[]>(
    () => companies.filter((c) => c.id !== ALL).map((c) => ({ value: c.id, label: c.name })),
    [companies],
  );
  if (selected !== ALL) return null;
  return (
    <AutocompleteInput name={name} label={label} options={options} required={required} disabled={disabled} />
  );
}
