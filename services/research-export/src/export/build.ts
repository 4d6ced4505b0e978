import { phaseRanges, type ResearchRunSummary } from '@sleepweave/contracts';
import type { Sql } from '@sleepweave/service-kit';
import {
  CODEBOOK_FILE,
  codebookRows,
  METRICS,
  NIGHT_FIELDS,
  NIGHTS_FILE,
  PARTICIPANTS_FILE,
  PHASE_SUMMARY_FILE,
  QA_FILE,
  RESEARCH_FILES,
  type FileSpec,
} from './columns.ts';
import { ByteChunks, CopyNights, NIGHT_COPY_COLUMNS } from './copy-nights.ts';
import { ageBand, copyNights, LastEndedNightIn, nightsDue, readParticipants, type ParticipantRow } from './dataset.ts';
import { ANALYSED_PHASES, PhaseMeans, type AnalysedPhase, type PhaseMean } from './phase-means.ts';
import { checkNight, QA_RULES, type NightValues, type QaHit } from './qa.ts';
import { yieldToDeflate, type ZipWriter } from './zip.ts';

export interface BuildOptions {
  /** When the run started: the files' date, and "now" for the nights that are due. */
  now: Date;
  minNights: number;
  lateRecordDays: number;
  /** One participant only (her own export). */
  userId?: string;
  /** The zip's CSV files, which the codebook describes (default: the research zip's). */
  codebookFiles?: readonly FileSpec[];
  /** Leave demo accounts out (RESEARCH_EXCLUDE_DEMO). */
  excludeDemo?: boolean;
  /** Each night that enters the phase means, with its analysed values (reused for the next night: copy what is kept). */
  onAnalysedNight?: (phase: AnalysedPhase, values: NightValues) => void;
}

/** What the data files found, for the files written after them (comparisons, reports). */
export interface DataFindings {
  participants: ParticipantRow[];
  phaseMeans: PhaseMean[];
  hits: QaHit[];
  nights: number;
  nightsFlagged: number;
  nightsLeftOut: number;
  /** Per participant: in the primary analysis, or why not. */
  inclusion: Map<string, Inclusion>;
}

export interface Inclusion {
  included: boolean;
  reason: string;
  /**
   * Not in it yet, but she may still be: each primary phase she is short in still has nights
   * to come for her, enough to reach the minimum.
   */
  stillInStudy: boolean;
  /** Her 42 nights had all ended at the run (her time): not an interim row. */
  studyComplete: boolean;
}

/** Nights in each analysed phase (14). */
const PHASE_NIGHTS = Object.fromEntries(phaseRanges().map(({ phase, first, last }) => [phase.id, last - first + 1])) as Record<
  AnalysedPhase,
  number
>;

/** The columns of nights.csv: the cells of a night in the order COPY sends them (research id to the last field), then these. */
const NIGHT_LINE_COLUMNS = [
  ...NIGHT_COPY_COLUMNS.slice(0, 5 + NIGHT_FIELDS.length).map((column) => column.replace(/^[pn]\./, '')),
  'material_matches',
  'revisions',
  'recorded_at',
  'analysed',
  'qa_flags',
];
if (NIGHTS_FILE.columns.map((column) => column.name).join() !== NIGHT_LINE_COLUMNS.join())
  throw new Error('nights.csv: CopyNights writes its columns in another order than the file spec');

/**
 * Writes the data files of a research zip (nights, participants, phase summary, QA report
 * and codebook), streaming the nights once: each is checked, written and added to its
 * phase's sums as it is read. Returns what the later files need.
 */
export async function writeDataFiles(sql: Sql, zip: ZipWriter, options: BuildOptions): Promise<DataFindings> {
  // The participants and their nights from one snapshot: read apart, someone who joined (or
  // left) between the two would have nights without a participant row, or the reverse.
  return sql.begin('isolation level repeatable read read only', (tx) => writeFromSnapshot(tx as unknown as Sql, zip, options));
}

async function writeFromSnapshot(sql: Sql, zip: ZipWriter, options: BuildOptions): Promise<DataFindings> {
  const participants = await readParticipants(sql, options.userId);
  // Demo accounts left out (RESEARCH_EXCLUDE_DEMO): listed, never analysed.
  const demo = new Set(options.excludeDemo ? participants.filter((p) => p.demo).map((p) => p.researchId) : []);
  const means = new PhaseMeans(METRICS);
  const hits: QaHit[] = [];
  const logged = new Map<string, Record<string, number>>();
  // Her time zone (the recorded_late rule counts days in it), and the last night that had
  // ended for her at the run: the nights due are up to it, and so are the nights that count
  // against them (a night logged ahead, for tonight, fills no gap).
  const timezoneOf = new Map(participants.map((p) => [p.researchId, p.timezone]));
  const lastEnded = new LastEndedNightIn(options.now);
  const loggedByThen = new Map<string, Record<string, number>>();
  let nights = 0;
  let nightsFlagged = 0;
  let nightsLeftOut = 0;

  const nightsCsv = zip.csv(NIGHTS_FILE);
  const lines = new ByteChunks((chunk) => nightsCsv.appendBytes(chunk));
  // Nights come in research-id order: her counts are found once per participant, not per night.
  let counts: Record<string, number> = {};
  let countsByThen: Record<string, number> = {};
  let countsOf = '';
  let timezone = '';
  let lastNight = '';
  const reader = new CopyNights(lines, (night) => {
    if (night.researchId !== countsOf) {
      countsOf = night.researchId;
      counts = logged.get(countsOf) ?? { polyester: 0, washout: 0, linen: 0, completed: 0 };
      logged.set(countsOf, counts);
      countsByThen = loggedByThen.get(countsOf) ?? { polyester: 0, washout: 0, linen: 0, completed: 0 };
      loggedByThen.set(countsOf, countsByThen);
      timezone = timezoneOf.get(countsOf)!;
      lastNight = lastEnded.get(timezone);
    }
    const checkedNight = checkNight(night, { lateRecordDays: options.lateRecordDays, timezone });
    const checked = demo.size > 0 && demo.has(night.researchId) ? { ...checkedNight, analysed: false } : checkedNight;
    nights += 1;
    if (checked.flags.length > 0) nightsFlagged += 1;
    if (!checked.analysed) nightsLeftOut += 1;
    for (const hit of checked.hits) hits.push(hit);
    counts[night.phase] = (counts[night.phase] ?? 0) + 1;
    if (night.date <= lastNight) countsByThen[night.phase] = (countsByThen[night.phase] ?? 0) + 1;
    if (checked.analysed && night.phase !== 'completed') {
      means.add(night.researchId, night.phase, checked.analysedValues);
      options.onAnalysedNight?.(night.phase, checked.analysedValues);
    }
    return checked;
  });
  for await (const chunk of await copyNights(sql, options.userId)) {
    reader.push(chunk);
    await nightsCsv.drained();
  }
  reader.end();
  lines.flush();
  await nightsCsv.end();

  // Rules about phases and participants: nights missing, and too few analysed nights.
  const inclusion = new Map<string, Inclusion>();
  for (const participant of participants) {
    const due = nightsDue(participant.studyStartDate, lastEnded.get(participant.timezone));
    // her 42 nights have all ended: not an interim row
    const studyComplete = due.linen >= PHASE_NIGHTS.linen;
    if (demo.has(participant.researchId)) {
      hits.push(phaseHit('demo_account', participant.researchId, null, 'RESEARCH_EXCLUDE_DEMO is true'));
      inclusion.set(participant.researchId, {
        included: false,
        reason: 'demo account (RESEARCH_EXCLUDE_DEMO is true)',
        stillInStudy: false,
        studyComplete,
      });
      continue;
    }
    const byThen = loggedByThen.get(participant.researchId) ?? {};
    for (const phase of ANALYSED_PHASES) {
      const missing = due[phase] - (byThen[phase] ?? 0);
      if (missing > 0) {
        hits.push(phaseHit('missing_nights', participant.researchId, phase, `${missing} of ${due[phase]} nights so far not logged`));
      }
    }
    // While her study runs, too few so far is not too few for good: a phase she is in (or has
    // yet to reach) has nights to come, and a night she missed may still be logged late (study
    // takes any night from her start; research flags it recorded_late and keeps it). She is
    // "still in the study" when, in each primary phase she is short in, the nights of it not
    // logged yet could bring her to the minimum; once her 42 nights have all ended, short is
    // short (a night logged weeks after the study is no longer expected).
    const loggedOf = logged.get(participant.researchId) ?? {};
    const short: AnalysedPhase[] = [];
    let canStillReach = !studyComplete;
    for (const phase of ANALYSED_PHASES) {
      const analysed = means.nights(participant.researchId, phase);
      if (analysed < options.minNights) {
        short.push(phase);
        const toCome = PHASE_NIGHTS[phase] - due[phase];
        const detail = `${analysed} analysed nights, ${options.minNights} needed${toCome > 0 ? `; ${toCome} of the phase's ${PHASE_NIGHTS[phase]} nights still to come` : ''}`;
        hits.push(phaseHit('too_few_nights', participant.researchId, phase, detail));
        const notLogged = Math.max(0, PHASE_NIGHTS[phase] - (loggedOf[phase] ?? 0));
        if ((phase === 'polyester' || phase === 'linen') && analysed + notLogged < options.minNights) canStillReach = false;
      }
    }
    const primaryShort = short.filter((phase) => phase === 'polyester' || phase === 'linen');
    const stillInStudy = primaryShort.length > 0 && canStillReach;
    const counts = primaryShort.map((phase) => `${phase} ${means.nights(participant.researchId, phase)}`).join(', ');
    inclusion.set(participant.researchId, {
      included: primaryShort.length === 0,
      reason:
        primaryShort.length === 0
          ? ''
          : stillInStudy
            ? `still in the study, too few analysed nights so far: ${counts} (${options.minNights} needed in each)`
            : `too few analysed nights: ${counts} (${options.minNights} needed in each)`,
      stillInStudy,
      studyComplete,
    });
  }

  await yieldToDeflate();
  const phaseMeans = participants.flatMap((participant) => means.of(participant.researchId));

  const participantsCsv = zip.csv(PARTICIPANTS_FILE);
  await participantsCsv.writeAll(
    participants.map((participant) => {
      const counts = logged.get(participant.researchId) ?? {};
      const { included, reason, studyComplete } = inclusion.get(participant.researchId)!;
      return {
        research_id: participant.researchId,
        age_band: ageBand(participant.dateOfBirth, participant.studyStartDate),
        hormonal_stage: participant.hormonalStage,
        consent_date: participant.studyStartDate,
        nights_polyester: counts.polyester ?? 0,
        nights_washout: counts.washout ?? 0,
        nights_linen: counts.linen ?? 0,
        nights_after_study: counts.completed ?? 0,
        journal_entries: participant.journalEntries,
        study_complete: studyComplete,
        included_primary: included,
        exclusion_reason: reason,
      };
    }),
  );
  await participantsCsv.end();

  const summaryCsv = zip.csv(PHASE_SUMMARY_FILE);
  await summaryCsv.writeCells(
    phaseMeans.map((mean) => [mean.researchId, mean.phase, mean.nights, ...METRICS.map((metric) => mean.values[metric.column])]),
  );
  await summaryCsv.end();

  const qaCsv = zip.csv(QA_FILE);
  await qaCsv.writeCells(
    hits.map((hit) => [hit.rule, QA_RULES[hit.rule].action, hit.researchId, hit.date, hit.phase, hit.field, hit.value, hit.detail]),
  );
  await qaCsv.end();

  const codebook = zip.csv(CODEBOOK_FILE);
  for (const [file, column, label, type, unit, allowed, notes] of codebookRows(options.codebookFiles ?? RESEARCH_FILES)) {
    await codebook.write({ file, column, label, type, unit, allowed, notes });
  }
  await codebook.end();

  return { participants, phaseMeans, hits, nights, nightsFlagged, nightsLeftOut, inclusion };
}

function phaseHit(rule: QaHit['rule'], researchId: string, phase: AnalysedPhase | null, detail: string): QaHit {
  return { rule, researchId, date: null, phase, field: null, value: null, detail };
}

/** A count as the README, the PDF and the QA headline write it: 36,529. */
export const count = (x: number) => x.toLocaleString('en-GB');

/** The design's limit, said wherever its results are: the README and the PDF. */
export const ORDER_CAVEAT =
  'The order of the phases is fixed (polyester, then washout, then linen), not counterbalanced: a difference between linen and polyester is the fabric together with the time that passed between them (season, getting used to the ring and the log), which this design cannot tell apart.';

/** ", 31 of them still in their study (interim)", when there are any. */
export const interimOf = (summary: ResearchRunSummary) =>
  summary.participantsIncludedInStudy ? `, ${count(summary.participantsIncludedInStudy)} of them still in their study (interim)` : '';

/** The one-line QA headline of a run (the admin screen and the PDF show it). */
export function qaHeadline(findings: DataFindings): string {
  const inclusions = [...findings.inclusion.values()];
  const excluded = inclusions.filter((i) => !i.included).length;
  const demo = findings.hits.filter((hit) => hit.rule === 'demo_account').length;
  const inStudy = inclusions.filter((i) => i.stillInStudy).length;
  const tooFew = excluded - demo - inStudy;
  // each reason that applies, counted when there is more than one; none when nobody is out
  const reasons = [
    ...(demo > 0 ? [`${count(demo)} demo account${demo === 1 ? '' : 's'} (RESEARCH_EXCLUDE_DEMO)`] : []),
    ...(inStudy > 0 ? [`${count(inStudy)} still in the study`] : []),
  ];
  if (tooFew > 0)
    reasons.push(reasons.length > 0 ? `${count(tooFew)} too few nights in polyester or linen` : 'too few nights in polyester or linen');
  return (
    `${count(findings.nightsFlagged)} of ${count(findings.nights)} nights flagged by a QA rule (${count(findings.nightsLeftOut)} left out of the means); ` +
    `${count(excluded)} of ${count(findings.participants.length)} participants not in the primary analysis${reasons.length > 0 ? ` (${reasons.join(', ')})` : ''}.`
  );
}
