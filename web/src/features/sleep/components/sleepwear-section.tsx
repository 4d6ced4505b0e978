import { materialMismatchMessage, type NightWhen, type SleepwearMaterial } from '@sleepweave/contracts';
import { CircleAlert } from 'lucide-react';
import { useController, useWatch } from 'react-hook-form';
import { FormField } from '../../../components/ui/form-field';
import { Input } from '../../../components/ui/input';
import { fieldsOf } from './sleep-log-display';
import { ChoiceField, SleepLogField, SleepLogSection, type SleepLogControl } from './sleep-log-field';

const MATERIAL_WARNING_ID = 'sleep-material-warning';

/** Sleepwear Information: the night she logs and what she wore. */
export function SleepwearSection({
  control,
  studyStartDate,
  latest,
  recommended,
  when,
}: {
  control: SleepLogControl;
  studyStartDate: string | null;
  /** The last night she may log (tomorrow in her timezone). */
  latest: string;
  /** What her phase asks her to wear that night; null after the study, when no phase asks anything. */
  recommended: SleepwearMaterial | null;
  /** When that night is, as she reads the form: the warning is worded for it. */
  when: NightWhen;
}) {
  return (
    <SleepLogSection title="Sleepwear Information">
      <div className="grid items-start gap-5 sm:grid-cols-2">
        <DateField control={control} studyStartDate={studyStartDate} latest={latest} />
        {fieldsOf('sleepwear').map((key) =>
          key === 'sleepwearMaterial' ? (
            <MaterialField key={key} control={control} recommended={recommended} when={when} />
          ) : (
            <SleepLogField key={key} control={control} name={key} />
          ),
        )}
      </div>
    </SleepLogSection>
  );
}

function DateField({ control, studyStartDate, latest }: { control: SleepLogControl; studyStartDate: string | null; latest: string }) {
  const { field } = useController({ control, name: 'date' });
  return (
    <FormField control={control} name="date" id="sleep-date" label="Date" hint="The evening the night began.">
      {(props) => (
        <Input
          {...props}
          ref={field.ref}
          type="date"
          name={field.name}
          required
          min={studyStartDate ?? undefined}
          max={latest}
          value={field.value}
          onChange={field.onChange}
          onBlur={field.onBlur}
        />
      )}
    </FormField>
  );
}

/**
 * docs/product.md §5: a material other than the phase's gives a non-blocking warning and a red
 * border on the field. No selection is valid. After the study there is no phase to match
 * (it said "This doesn't match the phase of last night, which was for 100% Cotton").
 */
function MaterialField({
  control,
  recommended,
  when,
}: {
  control: SleepLogControl;
  recommended: SleepwearMaterial | null;
  when: NightWhen;
}) {
  const material = useWatch({ control, name: 'sleepwearMaterial' });
  const mismatch = recommended !== null && material !== '' && material !== recommended;
  return (
    <div className="grid content-start gap-2">
      <ChoiceField
        control={control}
        name="sleepwearMaterial"
        className={mismatch ? 'border-2 border-rose-600 bg-rose-50/40' : ''}
        describedBy={mismatch ? MATERIAL_WARNING_ID : undefined}
      />
      {mismatch ? (
        <p id={MATERIAL_WARNING_ID} role="status" className="flex items-start gap-2 text-base font-medium text-rose-700">
          <CircleAlert aria-hidden="true" className="mt-0.5 size-5 shrink-0" />
          {materialMismatchMessage(recommended, when)}
        </p>
      ) : null}
    </div>
  );
}
