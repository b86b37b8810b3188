import {
  bucketCount,
  bucketKeys,
  chartGranularity,
  chartRange,
  companyChartQuerySchema,
  dateRangeParam,
  parseDateRange,
  schemeReportQuerySchema,
  trainingChartQuerySchema,
  trainingReportQuerySchema,
  companyCertificationReportQuerySchema,
  reportColumns,
  SCHEME_REPORT_COLUMNS,
} from './index';

const A = '3f2a1c4e-0000-4000-8000-000000000001';
const B = '9b1c2d3e-0000-4000-8000-000000000002';

describe('chart presets and buckets', () => {
  it('1w is the 7 days up to today, 2w 14, 1m/3m/6m start the day after the same date earlier', () => {
    expect(chartRange('1w', '2024-03-05')).toEqual({ start: '2024-02-28', end: '2024-03-05' });
    expect(chartRange('2w', '2024-03-05')).toEqual({ start: '2024-02-21', end: '2024-03-05' });
    expect(chartRange('1m', '2024-03-31')).toEqual({ start: '2024-03-01', end: '2024-03-31' });
    expect(chartRange('3m', '2024-05-31')).toEqual({ start: '2024-03-01', end: '2024-05-31' });
    expect(chartRange('6m', '2024-08-15')).toEqual({ start: '2024-02-16', end: '2024-08-15' });
    expect(chartRange('custom', '2024-08-15', { start_date: '2023-01-01', end_date: '2023-02-01' })).toEqual({
      start: '2023-01-01',
      end: '2023-02-01',
    });
  });

  it('lists every bucket of the range, oldest first, across month and year edges', () => {
    expect(bucketKeys('2023-12-30', '2024-01-02', 'DAY')).toEqual([
      '2023-12-30',
      '2023-12-31',
      '2024-01-01',
      '2024-01-02',
    ]);
    expect(bucketKeys('2023-11-30', '2024-02-01', 'MONTH')).toEqual([
      '2023-11',
      '2023-12',
      '2024-01',
      '2024-02',
    ]);
    expect(bucketKeys('2023-12-31', '2024-01-01', 'YEAR')).toEqual(['2023', '2024']);
    expect(bucketCount('2023-12-30', '2024-01-02', 'DAY')).toBe(4);
    expect(bucketCount('2023-11-30', '2024-02-01', 'MONTH')).toBe(4);
    expect(bucketCount('2023-12-31', '2024-01-01', 'YEAR')).toBe(2);
    expect(bucketCount('2024-01-01', '2024-12-31', 'DAY')).toBe(366);
  });

  it('reads the chart query: defaults, chart_type synonym, statuses comma-separated or repeated', () => {
    const q = companyChartQuerySchema.validateSync({});
    expect(q).toMatchObject({ date_type: '1w', status: [] });
    expect(chartGranularity(q)).toBe('DAY');
    expect(chartGranularity(trainingChartQuerySchema.validateSync({ chart_type: 'MONTH' }))).toBe('MONTH');
    expect(companyChartQuerySchema.validateSync({ status: 'ACTIVE,NOTACTIVE' }).status).toEqual([
      'ACTIVE',
      'NOACTIVE',
    ]);
    expect(companyChartQuerySchema.validateSync({ status: ['ACTIVE', 'SUSPENDED'] }).status).toEqual([
      'ACTIVE',
      'SUSPENDED',
    ]);
    expect(() => companyChartQuerySchema.validateSync({ status: 'EXPIRED' })).toThrow();
    expect(() => companyChartQuerySchema.validateSync({ date_type: 'custom' })).toThrow(
      /Tanggal (Mulai|Akhir) wajib diisi/,
    );
    expect(() =>
      companyChartQuerySchema.validateSync({
        date_type: 'custom',
        start_date: '2024-02-02',
        end_date: '2024-02-01',
      }),
    ).toThrow('Tanggal Akhir');
  });
});

describe('report queries', () => {
  it('reads id lists and statuses as comma-separated values', () => {
    const q = schemeReportQuerySchema.validateSync({
      client: `${A},${B}`,
      status: 'EXPIRED,NOTACTIVE',
      type: 'export',
    });
    expect(q).toMatchObject({
      client: [A, B],
      status: ['EXPIRED', 'NOACTIVE'],
      type: 'export',
      page: 1,
      paginate: 20,
    });
    expect(companyCertificationReportQuerySchema.validateSync({ certification: '' }).certification).toEqual(
      [],
    );
    expect(() => companyCertificationReportQuerySchema.validateSync({ accredited: 'nope' })).toThrow();
  });

  it('reads a date range: two timestamps meaning calendar dates in the time zone, or bare dates', () => {
    expect(parseDateRange('2024-03-16T17:00:00.000Z,2024-03-20T16:59:59.999Z', 'Asia/Jakarta')).toEqual({
      from: '2024-03-17',
      to: '2024-03-20',
    });
    expect(parseDateRange('2024-03-01,2024-03-31', 'Asia/Jakarta')).toEqual({
      from: '2024-03-01',
      to: '2024-03-31',
    });
    expect(parseDateRange('', 'Asia/Jakarta')).toBeNull();
    expect(parseDateRange('2024-03-01,', 'Asia/Jakarta')).toEqual({ from: '2024-03-01', to: null });
    expect(trainingReportQuerySchema.validateSync({ issue_date: '2024-03-01,2024-03-31' }).issue_date).toBe(
      '2024-03-01,2024-03-31',
    );
    expect(() => trainingReportQuerySchema.validateSync({ issue_date: '01/03/2024,02/03/2024' })).toThrow();
    expect(() => trainingReportQuerySchema.validateSync({ issue_date: '2024-02-30,2024-03-01' })).toThrow();
    expect(dateRangeParam(new Date('2024-03-16T17:00:00.000Z'), '2024-03-20')).toBe(
      '2024-03-16T17:00:00.000Z,2024-03-20',
    );
  });

  it('shows the Perusahaan column only for ALL and the client number only in the workbook', () => {
    expect(reportColumns(SCHEME_REPORT_COLUMNS, { all: false, screen: true }).map((c) => c.header)).toEqual([
      'Nama Client',
      'Nama Sertifikasi',
      'Nomor Sertifikasi',
      'Status',
      'Tanggal Terbit',
      'Tanggal Kadaluarsa',
      'Akreditasi',
    ]);
    expect(reportColumns(SCHEME_REPORT_COLUMNS, { all: true }).map((c) => c.key)).toContain('company_name');
  });
});
