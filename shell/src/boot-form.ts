/**
 * login.html's sign-in form, drawn before any script (src/index.html): the portal starts (React, MUI,
 * the login page) when someone uses that form (a focus, a tap, a key, typing, a submit), not while
 * the page is drawn, so a phone shows a usable form at once and spends no main-thread time until it
 * is needed. A signed-in visitor (a token kept) and every other page start at once. A submit before
 * the login page has taken over is remembered: the login page then signs in with what was typed.
 */
export const STARTERS = ['focusin', 'pointerdown', 'keydown', 'input', 'submit'] as const;
/**
 * The attribute login.html's boot script (webpack/login-boot.js) sets on the form when it is submitted
 * before this script ran: that submit is remembered too.
 */
export const SUBMITTED_MARK = 'data-boot-submitted';
/** shared-auth's STORAGE_KEYS.token (read here without loading shared-auth; a shell test holds them equal). */
export const TOKEN_KEY = 'sertifikasi.token';

let submitted = false;

/** Whether the drawn form was submitted before the login page took it over (answered once). */
export function takeBootSubmit(): boolean {
  const was = submitted;
  submitted = false;
  return was;
}

function signedIn(): boolean {
  try {
    return Boolean(localStorage.getItem(TOKEN_KEY));
  } catch {
    return false;
  }
}

/**
 * Whether the form was used before this script ran: login.html's boot script (webpack/login-boot.js)
 * adds the portal's scripts on the first use too, whose event has then passed.
 */
function used(doc: Document, form: Element): boolean {
  if (doc.activeElement && doc.activeElement !== doc.body && form.contains(doc.activeElement)) return true;
  return [...form.querySelectorAll('input')].some((input) => input.value !== '');
}

/** Settles when the portal should start: at once, unless this is login.html's form, still untouched. */
export function whenToStart(doc: Document = document): Promise<void> {
  const form = doc.querySelector('.boot form');
  if (!form || signedIn()) return Promise.resolve();
  // Until the login page takes the form over, a submit is remembered (takeBootSubmit), also when
  // the portal starts at once because the form was used before this ran.
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    submitted = true;
  });
  if (form.hasAttribute(SUBMITTED_MARK)) {
    form.removeAttribute(SUBMITTED_MARK);
    submitted = true;
    return Promise.resolve();
  }
  if (used(doc, form)) return Promise.resolve();
  return new Promise((resolve) => {
    const start = () => {
      for (const type of STARTERS) form.removeEventListener(type, start, true);
      resolve();
    };
    for (const type of STARTERS) form.addEventListener(type, start, true);
  });
}
