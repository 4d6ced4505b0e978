import type { SleepLogFieldKey } from '@sleepweave/contracts';
import { controlOf, fieldsOf, type FieldControl } from './sleep-log-display';
import { SleepLogField, SleepLogSection, type SleepLogControl } from './sleep-log-field';

/** Subjective Experience: how the night felt to her, grouped by kind of control. */
export function SubjectiveSection({ control }: { control: SleepLogControl }) {
  const fields = fieldsOf('subjective');
  const of = (...controls: FieldControl[]) =>
    fields
      .filter((key) => controls.includes(controlOf(key)))
      .map((key: SleepLogFieldKey) => <SleepLogField key={key} control={control} name={key} />);
  return (
    <SleepLogSection title="Subjective Experience" description="How the night felt to you.">
      {of('slider')}
      <div className="grid items-start gap-5 sm:grid-cols-2">{of('rating', 'select')}</div>
      <div className="grid gap-3 sm:grid-cols-2">{of('checkbox')}</div>
      <div className="grid items-start gap-5 sm:grid-cols-2">{of('number', 'duration')}</div>
      {of('textarea')}
    </SleepLogSection>
  );
}
