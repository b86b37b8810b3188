/** The portal's routes come from the one registry in shared-contracts (shared-contracts/src/routes.ts). */
export {
  LANDING,
  ROUTES,
  type AppRoute,
  type RemoteName,
  type RouteDef,
} from '@sertifikasi/shared-contracts/portal';
