import { fieldsOf } from './sleep-log-display';
import { SleepLogField, SleepLogSection, type SleepLogControl } from './sleep-log-field';

/** Objective Sleep Data: what her ring recorded. */
export function ObjectiveSection({ control }: { control: SleepLogControl }) {
  return (
    <SleepLogSection
      title="Objective Sleep Data"
      description="From your sleep ring. Type durations as hours and minutes, like 7h32m, 15m or 1h25m. Leave out anything it did not record."
    >
      <div className="grid items-start gap-5 sm:grid-cols-2">
        {fieldsOf('objective').map((key) => (
          <SleepLogField key={key} control={control} name={key} />
        ))}
      </div>
    </SleepLogSection>
  );
}
