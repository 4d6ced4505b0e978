import type { DataFindings } from './build.ts';
import { QA_RULES, type QaHit, type QaRuleId } from './qa.ts';

/** How many hits of a rule qa_report.md lists by name (all of them are in qa_report.csv). */
const LISTED = 50;

function where(hit: QaHit): string {
  return [
    hit.researchId,
    hit.date,
    hit.date ? null : hit.phase,
    hit.field && `${hit.field}${hit.value === null ? '' : ` = ${hit.value}`}`,
    hit.detail,
  ]
    .filter(Boolean)
    .join(', ');
}

/** qa_report.md: each rule, what it does, how many rows it hit and which. */
export function qaReportMarkdown(findings: DataFindings, options: { minNights: number; lateRecordDays: number; headline: string }): string {
  const byRule = new Map<QaRuleId, QaHit[]>();
  for (const hit of findings.hits) {
    const hits = byRule.get(hit.rule);
    if (hits) hits.push(hit);
    else byRule.set(hit.rule, [hit]);
  }
  const lines = [
    '# Quality report',
    '',
    options.headline,
    '',
    `Settings: at least ${options.minNights} analysed nights per phase (RESEARCH_MIN_NIGHTS_PER_PHASE); a night recorded more than ${options.lateRecordDays} days after its morning is late (RESEARCH_LATE_RECORD_DAYS).`,
    '',
    '| rule | what it checks | what it does | hits |',
    '| --- | --- | --- | ---: |',
    ...Object.values(QA_RULES).map(
      (rule) => `| ${rule.id} | ${rule.description} | ${rule.action}: ${rule.consequence} | ${byRule.get(rule.id)?.length ?? 0} |`,
    ),
    '',
  ];
  for (const rule of Object.values(QA_RULES)) {
    const hits = byRule.get(rule.id) ?? [];
    lines.push(`## ${rule.id} (${hits.length})`, '', rule.description, '');
    if (hits.length === 0) {
      lines.push('No rows.', '');
      continue;
    }
    for (const hit of hits.slice(0, LISTED)) lines.push(`- ${where(hit)}`);
    if (hits.length > LISTED) lines.push(`- and ${hits.length - LISTED} more: every hit is in qa_report.csv`);
    lines.push('');
  }
  return lines.join('\n');
}
