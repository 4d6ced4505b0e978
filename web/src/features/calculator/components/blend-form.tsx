import { Plus, Trash2 } from 'lucide-react';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { Select } from '../../../components/ui/select';
import { cn } from '../../../lib/utils';
import { FABRICS } from '../fabrics';
import { blendTotal, canRemoveRow, formatHz, isCompleteTotal, sanitizePercentageInput, type BlendRow } from '../scoring';

export interface KeyedBlendRow extends BlendRow {
  key: number;
}

/** Fabric rows with percentages, Add Fabric, remove (above two rows) and the running Total. */
export function BlendForm({
  rows,
  onChange,
  onAdd,
}: {
  rows: KeyedBlendRow[];
  onChange: (rows: KeyedBlendRow[]) => void;
  onAdd: () => void;
}) {
  const total = blendTotal(rows);
  const complete = isCompleteTotal(total);
  const update = (key: number, patch: Partial<BlendRow>) => onChange(rows.map((row) => (row.key === key ? { ...row, ...patch } : row)));
  /** Removes a row; the focus goes to the fabric of the row now in its place (the one above for the last), not to the page. */
  const remove = (index: number) => {
    const next = rows[index + 1] ?? rows[index - 1];
    onChange(rows.filter((_, i) => i !== index));
    if (next) requestAnimationFrame(() => document.getElementById(`blend-fabric-${next.key}`)?.focus());
  };

  return (
    <div className="grid gap-5">
      <p className="text-base text-night-700">Add the fabrics on the label and their percentages. They must add up to exactly 100%.</p>
      <ol className="grid gap-4">
        {rows.map((row, index) => {
          const n = index + 1;
          // A fabric appears once in a blend: other rows' fabrics are not offered again.
          const taken = new Set(rows.filter((r) => r.key !== row.key).map((r) => r.fabricId));
          const options = FABRICS.filter((f) => !taken.has(f.id)).map((f) => ({
            value: f.id,
            label: `${f.name} (${formatHz(f.frequency)})`,
          }));
          return (
            <li
              key={row.key}
              className="flex flex-wrap items-end gap-3 rounded-2xl bg-night-50/70 p-3 sm:flex-nowrap sm:bg-transparent sm:p-0"
            >
              <div className="grid min-w-0 basis-full gap-2 sm:flex-1 sm:basis-auto">
                <Label htmlFor={`blend-fabric-${row.key}`}>Fabric {n}</Label>
                <Select
                  id={`blend-fabric-${row.key}`}
                  value={row.fabricId}
                  onValueChange={(fabricId) => update(row.key, { fabricId })}
                  options={options}
                  placeholder="Choose a fabric"
                />
              </div>
              <div className="grid w-28 gap-2">
                <Label htmlFor={`blend-percent-${row.key}`}>
                  <span className="sr-only">Fabric {n} </span>Percent
                </Label>
                <div className="relative">
                  <Input
                    id={`blend-percent-${row.key}`}
                    inputMode="numeric"
                    autoComplete="off"
                    placeholder="0"
                    value={row.percentage}
                    onChange={(event) => update(row.key, { percentage: sanitizePercentageInput(event.target.value) })}
                    className="pr-8 text-right"
                  />
                  <span aria-hidden="true" className="pointer-events-none absolute top-1/2 right-3 -translate-y-1/2 text-night-500">
                    %
                  </span>
                </div>
              </div>
              {canRemoveRow(rows) ? (
                <Button
                  variant="ghost"
                  size="icon"
                  aria-label={`Remove fabric ${n}`}
                  onClick={() => remove(index)}
                  className="ml-auto text-night-600 hover:text-rose-700 sm:ml-0"
                >
                  <Trash2 aria-hidden="true" className="size-5" />
                </Button>
              ) : (
                <span aria-hidden="true" className="hidden size-11 shrink-0 sm:block" />
              )}
            </li>
          );
        })}
      </ol>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <Button variant="outline" onClick={onAdd} disabled={rows.length >= FABRICS.length}>
          <Plus aria-hidden="true" className="size-5" />
          Add Fabric
        </Button>
        <p aria-live="polite" className="text-lg font-semibold text-night-950">
          Total:{' '}
          <span data-complete={complete} className={cn(complete ? 'text-emerald-700' : 'text-rose-700')}>
            {total}%
          </span>
          {complete ? null : <span className="sr-only"> (must be exactly 100%)</span>}
        </p>
      </div>
    </div>
  );
}
