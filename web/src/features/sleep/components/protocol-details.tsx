import { CURRENT_PROTOCOL, phaseRanges } from '@sleepweave/contracts';
import { BedDouble, Clock, Moon, Thermometer } from 'lucide-react';
import type { ReactNode } from 'react';

const protocol = CURRENT_PROTOCOL;

const phaseTint: Record<string, string> = {
  polyester: 'bg-lavender-100 text-night-800',
  washout: 'bg-sand-100 text-sand-700',
  linen: 'bg-night-100 text-night-800',
};

function Section({ title, icon, children }: { title: string; icon: ReactNode; children: ReactNode }) {
  return (
    <section className="grid gap-3">
      <h2 className="flex items-center gap-2.5 text-xl font-semibold text-night-950">
        <span className="grid size-9 shrink-0 place-items-center rounded-xl bg-night-100 text-night-700">{icon}</span>
        {title}
      </h2>
      {children}
    </section>
  );
}

function List({ items }: { items: readonly string[] }) {
  return (
    <ul className="grid gap-1.5 pl-1 text-base text-night-800">
      {items.map((item) => (
        <li key={item} className="flex gap-2.5">
          <span aria-hidden="true" className="mt-2.5 size-1.5 shrink-0 rounded-full bg-night-400" />
          {item}
        </li>
      ))}
    </ul>
  );
}

/** The study protocol: the three phases, from the protocol definition the engine uses. */
export function ProtocolPhases() {
  return (
    <Section title="Study protocol" icon={<Moon aria-hidden="true" className="size-5" />}>
      <p className="text-base text-night-700">{protocol.intro}</p>
      <ol className="grid gap-3 sm:grid-cols-3">
        {phaseRanges(protocol).map(({ phase, first, last }) => (
          <li key={phase.id} className="grid content-start gap-1.5 rounded-2xl border border-night-100 bg-night-50/60 p-4">
            <span className={`w-fit rounded-full px-2.5 py-0.5 text-sm font-semibold ${phaseTint[phase.id] ?? ''}`}>
              Nights {first}–{last}
            </span>
            <h3 className="text-lg font-semibold text-night-950">{phase.name}</h3>
            <p className="text-base font-medium text-night-800">{phase.material}</p>
            <p className="text-base text-night-700">{phase.description}</p>
          </li>
        ))}
      </ol>
      <List items={protocol.general} />
    </Section>
  );
}

export function DailyRoutine() {
  return (
    <Section title="Daily routine" icon={<Clock aria-hidden="true" className="size-5" />}>
      <List items={protocol.routine} />
    </Section>
  );
}

export function RoomAndBed() {
  return (
    <Section title="Room and bed set-up" icon={<BedDouble aria-hidden="true" className="size-5" />}>
      <div className="grid gap-4 sm:grid-cols-2">
        <div className="grid gap-1.5">
          <h3 className="flex items-center gap-1.5 text-base font-semibold text-night-900">
            <Thermometer aria-hidden="true" className="size-4" /> Room
          </h3>
          <List items={protocol.room} />
        </div>
        <div className="grid gap-1.5">
          <h3 className="flex items-center gap-1.5 text-base font-semibold text-night-900">
            <BedDouble aria-hidden="true" className="size-4" /> Bed
          </h3>
          <List items={protocol.bed} />
        </div>
      </div>
    </Section>
  );
}

/** What the Learn More dialog adds: each phase's day-by-day guidance and what is recorded. */
export function ProtocolMoreDetails() {
  return (
    <div className="grid gap-5 text-base text-night-800">
      <section className="grid gap-2">
        <h3 className="text-lg font-semibold text-night-950">How the 42 days run</h3>
        <p>
          Day 1 is the day you accept. The home page shows each day your phase, the day within it and what to wear tonight; the sleep log
          shows the same for the night you log. On the last day of a phase they tell you what comes next.
        </p>
        <ol className="grid gap-2">
          {phaseRanges(protocol).map(({ phase, first, last }) => (
            <li key={phase.id} className="rounded-2xl bg-night-50 p-3">
              <p className="font-semibold text-night-950">
                Days {first}–{last}: {phase.name} ({phase.material})
              </p>
              <p className="text-night-700">
                On day {last}: “{phase.transitionMessage}”
              </p>
            </li>
          ))}
        </ol>
        <p>After day 42 the study is complete; you can keep logging your nights.</p>
      </section>
      <section className="grid gap-2">
        <h3 className="text-lg font-semibold text-night-950">What you record each night</h3>
        <div className="grid gap-4 sm:grid-cols-2">
          <div className="grid gap-1.5">
            <h4 className="font-semibold text-night-900">From your sleep ring</h4>
            <List items={protocol.recorded.automatic} />
          </div>
          <div className="grid gap-1.5">
            <h4 className="font-semibold text-night-900">From you</h4>
            <List items={protocol.recorded.manual} />
          </div>
        </div>
      </section>
    </div>
  );
}
