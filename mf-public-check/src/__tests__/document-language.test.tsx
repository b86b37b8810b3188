import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { screens } from '../routes';

const CompanyPage = screens['/check-certification-company'];
const TrainingPage = screens['/check-certification-training'];

beforeEach(() => {
  window.localStorage.clear();
  document.documentElement.lang = 'id';
  // Nothing is checked on these pages without a number: no answer is needed.
  globalThis.fetch = jest.fn() as typeof fetch;
});

describe("the document's language follows the page's", () => {
  it("is English on the company page, Indonesian once chosen, and the portal's again when the page goes", async () => {
    const { unmount } = render(<CompanyPage />);
    expect(screen.getByRole('heading', { level: 1, name: 'Company Certificate Check' })).toBeInTheDocument();
    expect(document.documentElement).toHaveAttribute('lang', 'en');

    await userEvent.click(screen.getByRole('button', { name: 'Bahasa Indonesia' }));
    expect(screen.getByRole('heading', { level: 1, name: 'Cek Sertifikat Perusahaan' })).toBeInTheDocument();
    expect(document.documentElement).toHaveAttribute('lang', 'id');

    await userEvent.click(screen.getByRole('button', { name: 'English' }));
    expect(document.documentElement).toHaveAttribute('lang', 'en');
    unmount();
    expect(document.documentElement).toHaveAttribute('lang', 'id');
  });

  it('is Indonesian on the training page, English once chosen', async () => {
    render(<TrainingPage />);
    expect(document.documentElement).toHaveAttribute('lang', 'id');
    await userEvent.click(screen.getByRole('button', { name: 'English' }));
    expect(document.documentElement).toHaveAttribute('lang', 'en');
  });
});
