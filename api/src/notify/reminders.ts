/**
 * Which reminders are due today (docs/rules.md#notifications): a pure function of the items
 * due and today, so the reminder job only feeds it what the certification cycle and the expiry
 * dates say and queues what it answers (docs/architecture.md "Notifications").
 *
 * - An audit or a suspension limit (SURVEILLANCE, RECERTIFICATION, SUSPENSION_LIMIT): 90, 30 and
 *   7 days before it is due, and the day after it is late.
 * - A certificate's expiry (EXPIRY): 90, 60 and 30 days before it.
 *
 * A step is due from its day until the next step's day (the day after due for the last step before
 * it; a week for the late one), so a day the job did not run is caught up, while a stale step (the
 * 90-day reminder of an item due in 20 days) is never sent. Each step has its dedupe key: with the
 * outbox's unique key, a step is sent once however often the job asks.
 */
import { addDays, daysBetween, type MailKind } from '@sertifikasi/shared-contracts';
import type { DedupeParts } from './mail';
import type { ReminderSubject } from './messages';

/** One item due: an audit, a suspension limit or an expiry of a scheme. */
export interface DueItem {
  kind: ReminderSubject;
  /** `YYYY-MM-DD`. */
  due: string;
  schemeId: string;
  clientId: string;
  companyId: string;
}

export type ReminderStepName = '90' | '60' | '30' | '7' | 'late';

export interface ReminderStep {
  item: DueItem;
  step: ReminderStepName;
  /** The day the step is for (its reminder may go out later, while still due). */
  sendOn: string;
  /** Days from today to the item's due date (negative when late). */
  daysLeft: number;
  mailKind: MailKind;
  /** The outbox key: one message per record, kind, due date and step. */
  dedupe: DedupeParts;
}

/** Days before the due date of each step, by what is due; `late` is the day after. */
const BEFORE: Record<ReminderSubject, readonly number[]> = {
  SURVEILLANCE: [90, 30, 7],
  RECERTIFICATION: [90, 30, 7],
  SUSPENSION_LIMIT: [90, 30, 7],
  EXPIRY: [90, 60, 30],
};
/** Whether the item is reminded of the day after it is late (audits and suspension limits). */
const LATE: Record<ReminderSubject, boolean> = {
  SURVEILLANCE: true,
  RECERTIFICATION: true,
  SUSPENSION_LIMIT: true,
  EXPIRY: false,
};
/** How long after its day a late reminder may still go out (a job that did not run for days). */
export const LATE_WINDOW_DAYS = 7;
/** Furthest ahead of its due date an item has a step: the earliest step's day (90 days before). */
export const AHEAD_DAYS = Math.max(...Object.values(BEFORE).flat());

/** The one step of an item due today, or null. */
export function reminderStepOf(item: DueItem, today: string): ReminderStep | null {
  const daysLeft = daysBetween(today, item.due);
  const windows: { step: ReminderStepName; from: string; until: string }[] = [];
  const before = BEFORE[item.kind];
  before.forEach((days, i) => {
    const next = before[i + 1];
    windows.push({
      step: String(days) as ReminderStepName,
      from: addDays(item.due, -days),
      // Until the next step's day, the last one until the due date itself (both excluded).
      until: next !== undefined ? addDays(item.due, -next) : item.due,
    });
  });
  if (LATE[item.kind]) {
    const from = addDays(item.due, 1);
    windows.push({ step: 'late', from, until: addDays(from, LATE_WINDOW_DAYS) });
  }
  const hit = windows.find((w) => w.from <= today && today < w.until);
  if (!hit) return null;
  const mailKind: MailKind = item.kind === 'EXPIRY' ? 'expiry-reminder' : 'audit-reminder';
  return {
    item,
    step: hit.step,
    sendOn: hit.from,
    daysLeft,
    mailKind,
    dedupe: { record: `${item.schemeId}:${item.kind}`, kind: mailKind, due: item.due, step: hit.step },
  };
}

/** The reminder steps due today among `items` (at most one per item). */
export function reminderSteps(items: readonly DueItem[], today: string): ReminderStep[] {
  return items.flatMap((item) => reminderStepOf(item, today) ?? []);
}
