import { act, within } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';

/** Types a date (dd/mm/yyyy) into a date picker's field, digit by digit as a user does. */
export async function typeDate(user: UserEvent, field: HTMLElement, date: string): Promise<void> {
  await user.click(within(field).getAllByRole('spinbutton')[0]!);
  for (const key of date.replace(/\D/g, '')) {
    await user.keyboard(key);
    // Let the field and the form settle (a render, formik's validation) before the next digit.
    await act(() => new Promise((resolve) => setTimeout(resolve, 0)));
  }
}
