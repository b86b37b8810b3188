/**
 * `@sertifikasi/shared-ui/test`: what every front-end package's screen tests share: the one faked
 * network edge, a held-back answer, a list answer, a screen or box of a given width, a screen
 * rendered as the shell hosts it, and the files it saves. Test code
 * only (it uses jest's globals): ESLint refuses an import of it outside test files, and no webpack
 * build shares or reaches it.
 */
import { toListResponse } from '@sertifikasi/shared-contracts';

export { fakeApi, deferred, type Answer, type Call, type Route } from './fakeApi';
export { emulateScreenWidth, emulateBoxWidths } from './viewport';
export { renderInApp } from './render';
export { catchDownloads } from './downloads';

/** The answer of a paginated list endpoint holding `rows` (page `page` of `perPage`, `total` in all). */
export const listOf = <T>(rows: T[], page = 1, perPage = 20, total = rows.length) =>
  toListResponse(rows, total, page, perPage);
export { typeDate } from './pickers';
