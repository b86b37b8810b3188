// The public page's own entry (a QR scan lands here): only this module and React, no shell.
import { createRoot } from 'react-dom/client';
import { screens } from './routes';

/** Renders the check screen of the address the server answered with this page. */
const path = window.location.pathname.replace(/\/+$/, '') as keyof typeof screens;
const Screen = screens[path] ?? screens['/check-certification-company'];
createRoot(document.getElementById('root')!).render(<Screen />);
