import type { TrainingCheck } from '@sertifikasi/shared-contracts/public';
import type { Strings } from '../../i18n/id';
import { checkTraining } from '../check/api';
import { CheckLayout, FailedBox, NotFoundBox, Row } from '../check/CheckLayout';
import { formatDate } from '../check/format';
import { type Lang, useLanguage } from '../check/language';
import { CredentialDownload, SignatureVerdict } from '../check/SignatureCheck';
import { trainingSignedFields } from '@sertifikasi/shared-contracts/credential';
import { useCheck } from '../check/useCheck';

const run = (number: string) => checkTraining(number);

/** `/check-certification-training`: a training certificate by its number (docs/rules.md#screens, 'Verifikasi'). */
export function TrainingCheckPage() {
  const [lang, t, setLang] = useLanguage('id');
  const check = useCheck(run);
  const { outcome } = check;
  return (
    <CheckLayout
      lang={lang}
      t={t}
      onLanguage={setLang}
      title={t.training.title}
      intro={t.training.intro}
      number={check.number}
      onNumber={check.setNumber}
      onSubmit={check.onSubmit}
      loading={check.loading}
    >
      {outcome?.kind === 'not-found' && <NotFoundBox t={t} />}
      {outcome?.kind === 'error' && <FailedBox t={t} tooMany={outcome.tooMany} />}
      {outcome?.kind === 'found' && <TrainingResult data={outcome.data} t={t} lang={lang} />}
    </CheckLayout>
  );
}

function TrainingResult({ data, t, lang }: { data: TrainingCheck; t: Strings; lang: Lang }) {
  return (
    <section className="pc-result" aria-labelledby="pc-result-title">
      <h2 id="pc-result-title">{t.resultHeading}</h2>
      <SignatureVerdict fields={trainingSignedFields(data)} lang={lang} />
      <table className="pc-table">
        <tbody>
          <Row label={t.rows.name}>{data.name}</Row>
          <Row label={t.rows.certificateNumber}>{data.certificate_number}</Row>
          <Row label={t.rows.trainingName}>{data.training}</Row>
          <Row label={t.rows.location}>{data.location}</Row>
          <Row label={t.rows.trainingDate}>{formatDate(data.date, t.locale)}</Row>
        </tbody>
      </table>
      <CredentialDownload kind="training" number={data.certificate_number} lang={lang} />
    </section>
  );
}
