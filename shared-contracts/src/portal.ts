/**
 * The portal's first screen's contracts, yup-free: what the shell's sign-in page, router and guard
 * and shared-auth need (routes, permission keys, error codes and messages, the sign-in form's rules).
 * `@sertifikasi/shared-contracts/portal` keeps yup and the staff schemas out of the login page's
 * code (bench/README.md, 'What a browser downloads'). Import nothing here that imports yup.
 */
export * from './routes';
export * from './permissions';
export * from './errors';
export * from './scope';
export * from './login';
export { V, hasControlChars } from './text-rules';
export type { LoginResponse, SessionUser, UserInfo } from './auth';
export type { CompanyOption } from './company';
export type { User } from './user';
