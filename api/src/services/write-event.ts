/**
 * What an after-write step receives (services/after-write.ts): one write of a record as stored.
 * Apart from the list of steps, so that a step imports these types without importing the list that
 * names it.
 */
import type {
  accreditationBodies,
  auditors,
  certificationTypes,
  clientCertificates,
  clientSites,
  companies,
  plannedAudits,
  roles,
  schemeAudits,
  schemes,
  trainingCertificates,
  users,
} from '../db/schema';
import type { ServiceContext } from './context';

/** The stored row of each writable record, by its entity name. */
export interface EntityRows {
  company: typeof companies.$inferSelect;
  user: typeof users.$inferSelect;
  role: typeof roles.$inferSelect;
  'accreditation-body': typeof accreditationBodies.$inferSelect;
  'certification-type': typeof certificationTypes.$inferSelect;
  'client-certificate': typeof clientCertificates.$inferSelect;
  /** A site ('Lokasi') of a client. */
  'client-site': typeof clientSites.$inferSelect;
  scheme: typeof schemes.$inferSelect;
  /** An audit done on a scheme (its 'Riwayat Audit'). */
  'scheme-audit': typeof schemeAudits.$inferSelect;
  'training-certificate': typeof trainingCertificates.$inferSelect;
  /** An auditor ('Auditor'; its qualifications and conflicts are not in the row). */
  auditor: typeof auditors.$inferSelect;
  /** A planned audit ('Rencana Audit'; its team is not in the row). */
  'planned-audit': typeof plannedAudits.$inferSelect;
}
export type EntityName = keyof EntityRows;

/**
 * One write, as stored: the row before (null on create) and after (null on delete). A scheme's
 * status change and QR refresh are updates.
 */
export type WriteEvent = {
  [E in EntityName]: {
    entity: E;
    action: 'create' | 'update' | 'delete';
    id: string;
    before: EntityRows[E] | null;
    after: EntityRows[E] | null;
  };
}[EntityName];

/**
 * A step: a function of one write. It may also have a batch form, given many writes of one batch
 * (an import's chunk) at once, that does for all of them what the step does for each (one statement
 * instead of one per record). A step without one is called once per write, in order: a step added
 * later works in batches unchanged.
 */
export type AfterWriteStep = ((ctx: ServiceContext, event: WriteEvent) => Promise<void>) & {
  batch?: (ctx: ServiceContext, events: readonly WriteEvent[]) => Promise<void>;
  /**
   * Whether the step writes the row of the event's own record (the signed QR made again). A step
   * that may must say so: the write sequence then reads that record's answer after the steps
   * instead of making it from the row written.
   */
  rewrites?: (event: WriteEvent) => boolean;
  /**
   * Whether the step locks rows that every writer of a company shares (a derived count, the list
   * version): a writer that holds such steps back (ServiceContext `heldSteps`, the import's chunks
   * side by side) runs them just before it commits instead of at the write.
   */
  locksShared?: boolean;
};
