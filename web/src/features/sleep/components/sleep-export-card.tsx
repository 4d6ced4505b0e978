import { FileDown } from 'lucide-react';
import { useId } from 'react';
import { Link } from 'react-router';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { paths } from '../../../config/paths';

/** The dashboard's way to /sleep/export: her own nights as a file to keep or to show her doctor. */
export function SleepExportCard() {
  const titleId = useId();
  return (
    <Card role="region" aria-labelledby={titleId} className="flex flex-col gap-4 p-6 sm:flex-row sm:items-center sm:justify-between">
      <div className="flex items-start gap-4">
        <span className="grid size-12 shrink-0 place-items-center rounded-2xl bg-night-100 text-night-700">
          <FileDown aria-hidden="true" className="size-6" />
        </span>
        <div className="grid gap-1">
          <h2 id={titleId} className="text-xl font-semibold text-night-950">
            Export Sleep Data
          </h2>
          <p className="text-base text-night-700">
            Your nights as an Excel workbook with charts, or a PDF report to keep or to show your doctor.
          </p>
        </div>
      </div>
      <Button asChild variant="outline" className="shrink-0">
        <Link to={paths.sleep.export}>Export Sleep Data</Link>
      </Button>
    </Card>
  );
}
