import { companyReport } from './company.report';
import { ReportScreen } from './ReportScreen';
import { schemeReport } from './scheme.report';
import { trainingReport } from './training.report';

/** The three report screens (loaded together: they share the screen, the filters and the pickers). */
export const CompanyReportScreen = () => <ReportScreen config={companyReport} />;
export const SchemeReportScreen = () => <ReportScreen config={schemeReport} />;
export const TrainingReportScreen = () => <ReportScreen config={trainingReport} />;
