import { type FormEvent, useId, useState } from 'react';
import {
  type CompanyCheck,
  PUBLIC_STATUS_LABELS,
  type PointInTime,
} from '@sertifikasi/shared-contracts/public';
import type { Strings } from '../../i18n/id';
import { checkCompany, downloadUrl } from '../check/api';
import { CheckLayout, FailedBox, NotFoundBox, Row } from '../check/CheckLayout';
import { formatDate, parseTypedDate } from '../check/format';
import { type Lang, useLanguage } from '../check/language';
import { CredentialDownload, SignatureVerdict } from '../check/SignatureCheck';
import { schemeSignedFields } from '@sertifikasi/shared-contracts/credential';
import { useCheck } from '../check/useCheck';

const run = (number: string) => checkCompany(number);

/** `/check-certification-company`: a company certificate by its number (docs/rules.md#screens, 'Verify'). */
export function CompanyCheckPage() {
  const [lang, t, setLang] = useLanguage('en');
  const check = useCheck(run);
  const { outcome } = check;
  return (
    <CheckLayout
      lang={lang}
      t={t}
      onLanguage={setLang}
      title={t.company.title}
      intro={t.company.intro}
      number={check.number}
      onNumber={check.setNumber}
      onSubmit={check.onSubmit}
      loading={check.loading}
    >
      {outcome?.kind === 'not-found' && <NotFoundBox t={t} />}
      {outcome?.kind === 'error' && <FailedBox t={t} tooMany={outcome.tooMany} />}
      {outcome?.kind === 'found' && <CompanyResult data={outcome.data} lang={lang} t={t} />}
    </CheckLayout>
  );
}

function CompanyResult({ data, lang, t }: { data: CompanyCheck; lang: Lang; t: Strings }) {
  const date = (d: string | null) => formatDate(d, t.locale);
  const labels = PUBLIC_STATUS_LABELS[lang];
  const active = data.status === 'ACTIVE';
  const verdict = active
    ? t.validNow
    : data.status === 'EXPIRED'
      ? t.expired(date(data.expired_date))
      : t.notValid(labels[data.status]);
  return (
    <section className="pc-result" aria-labelledby="pc-result-title">
      <h2 id="pc-result-title">{t.resultHeading}</h2>
      <p className={`pc-box ${active ? 'pc-ok' : 'pc-bad'}`}>
        <strong>{verdict}</strong>
      </p>
      <SignatureVerdict fields={schemeSignedFields(data)} lang={lang} />
      <table className="pc-table">
        <tbody>
          {active && <Row label={t.rows.certNo}>{data.cert_number}</Row>}
          <Row label={t.rows.company}>{data.name}</Row>
          <Row label={t.rows.address}>{data.address || '-'}</Row>
          {active && (
            <>
              <Row label={t.rows.scope}>{data.scope || '-'}</Row>
              <Row label={t.rows.eaCode}>{data.ea_code || '-'}</Row>
              <Row label={t.rows.standard}>{data.standard}</Row>
              <Row label={t.rows.accreditation}>{data.accreditation || '-'}</Row>
              {data.simple_dates ? (
                <>
                  <Row label={t.rows.issueDate}>{date(data.issue_date)}</Row>
                  <Row label={t.rows.expireDate}>{date(data.expired_date)}</Row>
                </>
              ) : (
                <>
                  <Row label={t.rows.originalIssue}>{date(data.original_issue_date ?? data.issue_date)}</Row>
                  <Row label={t.rows.latestIssue}>{date(data.issue_date)}</Row>
                  <Row label={t.rows.surveillance}>{date(data.surveillance_date)}</Row>
                  <Row label={t.rows.recertification}>{date(data.expired_date)}</Row>
                </>
              )}
            </>
          )}
          <Row label={t.rows.status}>
            <span className={`pc-flag${active ? ' pc-active' : ''}`}>{labels[data.status]}</span>
          </Row>
          {!active && <Row label={t.rows.description}>{data.desc || '-'}</Row>}
        </tbody>
      </table>
      {data.download_id && (
        <div className="pc-actions">
          <a className="pc-download" href={downloadUrl(data.download_id)} download>
            {t.download}
          </a>
        </div>
      )}
      <CredentialDownload kind="company" number={data.cert_number} lang={lang} />
      {data.history.length > 0 && (
        <>
          <h2>{t.historyHeading}</h2>
          <ol className="pc-history">
            {data.history.map((h) => (
              <li key={`${h.status}-${h.from}`}>{t.historyEntry(labels[h.status], date(h.from))}</li>
            ))}
          </ol>
        </>
      )}
      <ValidOn number={data.cert_number} lang={lang} t={t} />
    </section>
  );
}

/**
 * "Was it valid on this date?" (docs/rules.md#status): a text field read day first (`21/11/2025`) in both
 * languages, like every date the page writes, rather than the browser's date input, whose format
 * follows the browser's locale (mm/dd/yyyy on an English browser) and not the page's language.
 */
function ValidOn({ number, lang, t }: { number: string; lang: Lang; t: Strings }) {
  const inputId = useId();
  const [value, setValue] = useState('');
  const [badDate, setBadDate] = useState(false);
  const [answer, setAnswer] = useState<PointInTime | 'failed' | null>(null);
  const [loading, setLoading] = useState(false);
  const labels = PUBLIC_STATUS_LABELS[lang];
  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const on = parseTypedDate(value);
    setBadDate(on === null);
    if (on === null) {
      setAnswer(null);
      return;
    }
    setLoading(true);
    const result = await checkCompany(number, on);
    setLoading(false);
    setAnswer(result.kind === 'found' && result.data.on ? result.data.on : 'failed');
  };
  const shown = answer && answer !== 'failed' ? formatDate(answer.date, t.locale) : '';
  return (
    <form
      className="pc-validon"
      onSubmit={(e) => void onSubmit(e)}
      aria-labelledby={`${inputId}-h`}
      noValidate
    >
      <h2 id={`${inputId}-h`}>{t.validOnHeading}</h2>
      <div className="pc-form">
        <div className="pc-field">
          <label htmlFor={inputId}>{t.validOnLabel}</label>
          <span id={`${inputId}-hint`} className="pc-muted">
            {t.validOnHint}
          </span>
          <input
            id={inputId}
            className="pc-input"
            name="on"
            required
            value={value}
            onChange={(e) => setValue(e.target.value)}
            placeholder={t.validOnFormat}
            autoComplete="off"
            spellCheck={false}
            aria-invalid={badDate}
            aria-describedby={badDate ? `${inputId}-hint ${inputId}-error` : `${inputId}-hint`}
          />
        </div>
        <button className="pc-button pc-secondary" type="submit" disabled={loading}>
          {loading ? t.checking : t.validOnSubmit}
        </button>
      </div>
      <div aria-live="polite">
        {badDate && (
          <p id={`${inputId}-error`} className="pc-box pc-error">
            {t.validOnBadDate}
          </p>
        )}
        {answer === 'failed' && <p className="pc-box pc-error">{t.validOnInvalid}</p>}
        {answer && answer !== 'failed' && (
          <p className={`pc-box ${answer.valid ? 'pc-ok' : 'pc-bad'}`}>
            {answer.valid
              ? t.validOnYes(shown)
              : answer.status === null
                ? t.validOnNotIssued(shown)
                : t.validOnNo(shown, labels[answer.status])}
          </p>
        )}
      </div>
    </form>
  );
}
