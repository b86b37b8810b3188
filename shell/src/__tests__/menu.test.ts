import { visibleMenu } from '../menu';

describe('side menu', () => {
  it('shows a link only with its key and a group only with an allowed link', () => {
    const groups = visibleMenu(['statistik', 'user', 'company']);
    expect(groups.map((g) => g.label)).toEqual(['Master Data']);
    expect(groups[0]!.links.map((l) => l.label)).toEqual(['User', 'Perusahaan']);
  });

  it('uses the corrected labels and shows Laporan when any report is allowed', () => {
    const groups = visibleMenu([
      'company-certificate',
      'training-certificate',
      'report-training-certificate',
    ]);
    expect(groups.map((g) => g.label)).toEqual(['Sertifikasi', 'Laporan']);
    expect(groups[0]!.links.map((l) => l.label)).toEqual(['Sertifikasi Perusahaan', 'Sertifikasi Pelatihan']);
    expect(groups[1]!.links.map((l) => l.label)).toEqual(['Laporan Sertifikasi Pelatihan']);
  });

  it('shows nothing to a user with no module keys', () => {
    expect(visibleMenu(['statistik'])).toEqual([]);
  });
});
