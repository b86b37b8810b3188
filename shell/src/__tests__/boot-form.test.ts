import { STORAGE_KEYS } from '@sertifikasi/shared-auth';
import { SUBMITTED_MARK, takeBootSubmit, TOKEN_KEY, whenToStart } from '../boot-form';

/** login.html's drawn form (src/index.html), in a document of its own. */
function drawnForm(): Document {
  const doc = document.implementation.createHTMLDocument('login');
  doc.body.innerHTML =
    '<div id="root"><div class="boot"><form method="dialog"><input id="username" />' +
    '<button type="submit">Login</button></form></div></div>';
  return doc;
}

const settled = async (p: Promise<void>) => {
  let done = false;
  void p.then(() => (done = true));
  await new Promise((resolve) => setTimeout(resolve, 0));
  return done;
};

afterEach(() => localStorage.clear());

describe("login.html's drawn form", () => {
  it('starts the portal at once on any other page, and when a session is kept', async () => {
    expect(await settled(whenToStart(document.implementation.createHTMLDocument('x')))).toBe(true);
    localStorage.setItem(TOKEN_KEY, 'T'.repeat(43));
    expect(await settled(whenToStart(drawnForm()))).toBe(true);
    expect(TOKEN_KEY).toBe(STORAGE_KEYS.token);
  });

  it('waits until the form is used', async () => {
    const doc = drawnForm();
    const start = whenToStart(doc);
    expect(await settled(start)).toBe(false);
    doc.getElementById('username')!.dispatchEvent(new FocusEvent('focusin', { bubbles: true }));
    expect(await settled(start)).toBe(true);
  });

  it('starts at once when the form was used before the script ran (a field focused or typed in)', async () => {
    const typed = drawnForm();
    (typed.getElementById('username') as HTMLInputElement).value = 'adm';
    expect(await settled(whenToStart(typed))).toBe(true);
    // A submit after that, before the login page has taken the form over, is still remembered.
    const submit = new Event('submit', { bubbles: true, cancelable: true });
    typed.querySelector('form')!.dispatchEvent(submit);
    expect(submit.defaultPrevented).toBe(true);
    expect(takeBootSubmit()).toBe(true);
    document.body.innerHTML =
      '<div class="boot"><form method="dialog"><input id="username" /><button type="submit">Login</button></form></div>';
    const start = whenToStart(document);
    expect(await settled(start)).toBe(false);
    document.getElementById('username')!.focus();
    expect(await settled(whenToStart(document))).toBe(true);
    document.body.innerHTML = '';
  });

  it('remembers a submit made before the login page took over, once', async () => {
    const doc = drawnForm();
    const start = whenToStart(doc);
    const submit = new Event('submit', { bubbles: true, cancelable: true });
    doc.querySelector('form')!.dispatchEvent(submit);
    expect(submit.defaultPrevented).toBe(true);
    expect(await settled(start)).toBe(true);
    expect(takeBootSubmit()).toBe(true);
    expect(takeBootSubmit()).toBe(false);
  });

  it('remembers a submit made before this script ran, marked on the form by the boot script', async () => {
    const doc = drawnForm();
    doc.querySelector('form')!.setAttribute(SUBMITTED_MARK, '');
    expect(await settled(whenToStart(doc))).toBe(true);
    expect(takeBootSubmit()).toBe(true);
    expect(doc.querySelector('form')!.hasAttribute(SUBMITTED_MARK)).toBe(false);
  });
});
