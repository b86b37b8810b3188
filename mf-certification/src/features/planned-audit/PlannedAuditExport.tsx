import { useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import TableChartIcon from '@mui/icons-material/TableChartOutlined';
import { ALL, PLANNED_AUDIT_EXPORT } from '@sertifikasi/shared-contracts';
import { useAuth } from '@sertifikasi/shared-auth';
import { ExportButton } from '@sertifikasi/shared-ui';
import { t } from '../../i18n/id';
import { AuditDayTableDialog } from './AuditDayTableDialog';

/** The address key narrowing 'Rencana Audit' to one scheme (the link from a 'Jadwal Audit' item). */
export const SCHEME_PARAM = 'scheme_id';

/**
 * 'Rencana Audit''s toolbar: the chip of the one scheme the list is narrowed to (its ✕ shows every
 * scheme again) and 'Export Excel', the workbook of what the list shows (company, scheme, search),
 * as 'Jadwal Audit' and the reports export theirs (`type=export`); 'Tabel Hari Audit' of the
 * header's company (one company chosen).
 */
export function PlannedAuditToolbar() {
  const [params, setParams] = useSearchParams();
  const companyId = useAuth((s) => s.company_id);
  const [editingTable, setEditingTable] = useState(false);
  const one = companyId && companyId !== ALL ? companyId : null;
  const schemeId = params.get(SCHEME_PARAM);
  return (
    <>
      {schemeId && (
        <Chip
          label={t.plan.oneScheme}
          onDelete={() =>
            setParams(
              (p) => {
                p.delete(SCHEME_PARAM);
                return p;
              },
              { replace: true },
            )
          }
        />
      )}
      <ExportButton
        path="planned-audit"
        filename={PLANNED_AUDIT_EXPORT.fileName}
        searchParams={() => {
          const searchParams: Record<string, string> = {};
          if (companyId) searchParams.company_id = companyId;
          if (schemeId) searchParams.scheme_id = schemeId;
          const search = params.get('search');
          if (search) searchParams.search = search;
          return searchParams;
        }}
      />
      {one && (
        <>
          <Button variant="outlined" startIcon={<TableChartIcon />} onClick={() => setEditingTable(true)}>
            {t.dayTable.open}
          </Button>
          <AuditDayTableDialog companyId={one} open={editingTable} onClose={() => setEditingTable(false)} />
        </>
      )}
    </>
  );
}
