import { type FormEvent, type ReactNode, useEffect, useId } from 'react';
import type { Strings } from '../../i18n/id';
import type { Lang } from './language';
import { CSS } from './styles';

export interface CheckLayoutProps {
  lang: Lang;
  t: Strings;
  onLanguage: (lang: Lang) => void;
  title: string;
  intro: string;
  number: string;
  onNumber: (value: string) => void;
  onSubmit: (event: FormEvent) => void;
  loading: boolean;
  children?: ReactNode;
}

/**
 * The whole document speaks the chosen language (`<html lang>`, which screen readers and the
 * browser's translation read), and goes back to the portal's own when the page is left.
 */
function useDocumentLanguage(lang: Lang) {
  useEffect(() => {
    const root = document.documentElement;
    const before = root.lang;
    root.lang = lang;
    return () => {
      root.lang = before;
    };
  }, [lang]);
}

const LANGUAGES: { lang: Lang; label: string }[] = [
  { lang: 'id', label: 'Bahasa Indonesia' },
  { lang: 'en', label: 'English' },
];

/**
 * The frame both check pages share: full width, no header or menu (docs/rules.md#screens), the title,
 * the language switch, the number field and its button, then the result.
 */
export function CheckLayout(p: CheckLayoutProps) {
  const inputId = useId();
  useEffect(() => {
    document.title = `${p.title} - ${p.t.siteName}`;
  }, [p.title, p.t.siteName]);
  useDocumentLanguage(p.lang);
  return (
    <main className="pc-page" lang={p.lang}>
      <style>{CSS}</style>
      <div className="pc-card">
        <div className="pc-top">
          <div>
            <p className="pc-site">{p.t.siteName}</p>
            <h1 className="pc-title">{p.title}</h1>
          </div>
          <div className="pc-lang" role="group" aria-label={p.t.languageGroup}>
            {LANGUAGES.map(({ lang, label }) => (
              <button
                key={lang}
                type="button"
                lang={lang}
                aria-pressed={p.lang === lang}
                onClick={() => p.onLanguage(lang)}
              >
                {label}
              </button>
            ))}
          </div>
        </div>
        <p className="pc-intro">{p.intro}</p>
        <form className="pc-form" onSubmit={p.onSubmit} role="search" aria-label={p.title}>
          <div className="pc-field">
            <label htmlFor={inputId}>{p.t.numberLabel}</label>
            <input
              id={inputId}
              className="pc-input"
              name="cert"
              value={p.number}
              onChange={(e) => p.onNumber(e.target.value)}
              autoComplete="off"
              autoCapitalize="characters"
              spellCheck={false}
            />
          </div>
          <button className="pc-button" type="submit" disabled={p.loading}>
            {p.loading ? p.t.checking : p.t.submit}
          </button>
        </form>
        <div aria-live="polite" aria-busy={p.loading}>
          {p.children}
        </div>
      </div>
    </main>
  );
}

/** The not-found box ('Sertifikat Tidak Ditemukan'), and the box for a check that failed. */
export function NotFoundBox({ t }: { t: Strings }) {
  return (
    <section className="pc-box pc-notfound" aria-labelledby="pc-notfound-title">
      <h2 id="pc-notfound-title">{t.notFoundTitle}</h2>
      <p>{t.notFoundText}</p>
    </section>
  );
}

export function FailedBox({ t, tooMany }: { t: Strings; tooMany: boolean }) {
  return (
    <section className="pc-box pc-error" role="alert">
      <p>{tooMany ? t.tooMany : t.failed}</p>
    </section>
  );
}

/** One label / value row of a result table. */
export function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <tr>
      <th scope="row">{label}</th>
      <td>{children}</td>
    </tr>
  );
}
