import { whenToStart } from './boot-form';

// Async boundary: shared singletons are negotiated before any of them is used. On login.html, once
// its drawn form is used (boot-form.ts).
void whenToStart().then(() => import('./bootstrap'));
