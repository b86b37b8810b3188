import { useCallback, useState } from 'react';
import { en } from '../../i18n/en';
import { id, type Strings } from '../../i18n/id';

export type Lang = 'id' | 'en';
export const STRINGS: Record<Lang, Strings> = { id, en };

/** Where the reader's choice of language is kept (one choice for both pages). */
export const LANG_STORAGE_KEY = 'sertifikasi.public-check.lang';

function stored(): Lang | null {
  try {
    const value = window.localStorage.getItem(LANG_STORAGE_KEY);
    return value === 'id' || value === 'en' ? value : null;
  } catch {
    return null; // storage blocked (private mode): the page's own language
  }
}

/**
 * The page's language: the reader's remembered choice, else the page's own (the company page
 * English, the training page Indonesian, docs/rules.md#public-check).
 */
export function useLanguage(pageDefault: Lang): [Lang, Strings, (lang: Lang) => void] {
  const [lang, setLang] = useState<Lang>(() => stored() ?? pageDefault);
  const choose = useCallback((next: Lang) => {
    setLang(next);
    try {
      window.localStorage.setItem(LANG_STORAGE_KEY, next);
    } catch {
      // not remembered, still switched
    }
  }, []);
  return [lang, STRINGS[lang], choose];
}
