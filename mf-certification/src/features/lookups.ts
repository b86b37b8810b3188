import { useEffect, useState } from 'react';
import type { CertificationLookups, LookupOption } from '@sertifikasi/shared-contracts';
import { api } from '@sertifikasi/shared-auth';
import type { SelectOption } from '@sertifikasi/shared-ui';

export interface CertificationChoices {
  certification: SelectOption[];
  accredited: SelectOption[];
}

const NONE: CertificationChoices = { certification: [], accredited: [] };
const toOptions = (list: LookupOption[]) => list.map((o) => ({ value: o.id, label: o.name }));

/**
 * The certification types and accreditation bodies of one company (`GET select/certification/{id}`)
 * as select choices; none until a company is known. A failed lookup leaves them empty
 * (docs/rules.md#messages).
 */
export function useCertificationLookups(companyId: string | null | undefined): CertificationChoices {
  const [state, setState] = useState<{ companyId: string; choices: CertificationChoices } | null>(null);
  useEffect(() => {
    if (!companyId) return;
    const controller = new AbortController();
    api
      .get(`select/certification/${encodeURIComponent(companyId)}`, { signal: controller.signal })
      .json<CertificationLookups>()
      .then(
        (answer) => {
          if (controller.signal.aborted) return;
          setState({
            companyId,
            choices: {
              certification: toOptions(answer.certification),
              accredited: toOptions(answer.accredited),
            },
          });
        },
        () => undefined,
      );
    return () => controller.abort();
  }, [companyId]);
  return companyId && state?.companyId === companyId ? state.choices : NONE;
}
