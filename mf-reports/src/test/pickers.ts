import { act, within } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';

/**
 * Types a date into a date picker's field (found as the group named by its label) the way a user
 * does: into the day section, then digit after digit ('01/09/2026' types 01092026; the field moves
 * on by itself). One key at a time, as a person types: the field settles after each digit.
 */
export async function typeDate(user: UserEvent, field: HTMLElement, date: string): Promise<void> {
  await user.click(within(field).getAllByRole('spinbutton')[0]!);
  for (const key of date.replace(/\D/g, '')) {
    await user.keyboard(key);
    // Let the field and the form settle (a render, formik's validation) before the next digit.
    await act(() => new Promise((resolve) => setTimeout(resolve, 0)));
  }
}
