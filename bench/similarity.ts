/**
 * `npm run bench:similarity`: how well `scoreSimilarity` agrees with decided cases.
 *
 * Scores every pair of data/similarity-pairs.json (word marks from published opposition, appeal
 * and infringement decisions, each labelled with the outcome: confusingly similar or not; see
 * data/SOURCES-similarity.md) and prints a plain-text report: precision, recall, F1 and accuracy
 * at DEFAULT_SCORE_THRESHOLD, a sweep of thresholds 0.50 to 0.95, the threshold with the best
 * F1, and the pairs the default threshold gets wrong.
 *
 * A pair counts as predicted similar when its score reaches the threshold (score >= threshold),
 * the rule the watch evaluator alerts on. The earlier mark plays the protected mark, the later
 * one the candidate. Classes are passed where the source states them; the same sweep is also
 * run on the texts alone, because the class adjustment (+0.05 shared, x0.85 none shared) only
 * applies to the pairs that have them and would otherwise blur what the text scoring does.
 *
 * The labels are legal outcomes, which turn on the goods, the earlier mark's distinctiveness and
 * reputation and the market as well as on the texts, so no text score can reach 100%: read the
 * figures as agreement with decision makers, not as error rates of the text comparison.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_SCORE_THRESHOLD, scoreSimilarity } from '../domain/similarity';
import { PROJECT_ROOT } from './processes';

export interface SimilarityPair {
  earlier: string;
  later: string;
  /** true: held confusingly similar (likelihood of confusion); false: held not. */
  similar: boolean;
  /** Nice classes of the earlier mark, where the source states them. */
  classes?: number[];
  /** Nice classes of the later mark when they differ from `classes`. */
  laterClasses?: number[];
  decision: string;
  source: string;
  canonicalSource?: string;
  note?: string;
}

interface Scored {
  pair: SimilarityPair;
  score: number;
  /** The strongest signal, for the misclassified list ("none" when only the soft floor scored). */
  signal: string;
}

interface Metrics {
  threshold: number;
  tp: number;
  fp: number;
  fn: number;
  tn: number;
  precision: number;
  recall: number;
  f1: number;
  accuracy: number;
}

const PAIRS_FILE = join(PROJECT_ROOT, 'data', 'similarity-pairs.json');
/** The sweep in hundredths, so the thresholds are exact (0.5 + 0.05 * i drifts in binary). */
const SWEEP = Array.from({ length: 10 }, (_, i) => (50 + 5 * i) / 100);

const isClassList = (value: unknown): value is number[] =>
  Array.isArray(value) && value.every((n: unknown) => typeof n === 'number' && Number.isInteger(n) && n >= 1 && n <= 45);

/** The pairs file, checked field by field: a malformed entry fails loudly rather than skewing the figures. */
export function loadPairs(file = PAIRS_FILE): SimilarityPair[] {
  const raw: unknown = JSON.parse(readFileSync(file, 'utf8'));
  const list = (raw as { pairs?: unknown }).pairs;
  if (!Array.isArray(list)) throw new Error(`${file}: no "pairs" array`);
  return list.map((entry: unknown, i): SimilarityPair => {
    const p = entry as Record<string, unknown>;
    const where = `${file}: pairs[${i}]`;
    for (const field of ['earlier', 'later', 'decision', 'source'] as const) {
      if (typeof p[field] !== 'string' || (p[field] as string).trim() === '') throw new Error(`${where}.${field} must be a non-empty string`);
    }
    if (typeof p.similar !== 'boolean') throw new Error(`${where}.similar must be a boolean`);
    for (const field of ['classes', 'laterClasses'] as const) {
      if (p[field] !== undefined && !isClassList(p[field])) throw new Error(`${where}.${field} must be a list of Nice classes`);
    }
    return p as unknown as SimilarityPair;
  });
}

function score(pairs: readonly SimilarityPair[], withClasses: boolean): Scored[] {
  return pairs.map((pair) => {
    const result = withClasses
      ? scoreSimilarity({ text: pair.earlier, niceClasses: pair.classes }, { text: pair.later, niceClasses: pair.laterClasses ?? pair.classes })
      : scoreSimilarity({ text: pair.earlier }, { text: pair.later });
    const top = result.signals.find((signal) => signal.type !== 'class_overlap');
    return { pair, score: result.score, signal: top ? `${top.type} ${top.strength.toFixed(2)}` : 'none' };
  });
}

const ratio = (numerator: number, denominator: number): number => (denominator === 0 ? 0 : numerator / denominator);

function metricsAt(scored: readonly Scored[], threshold: number): Metrics {
  let tp = 0;
  let fp = 0;
  let fn = 0;
  let tn = 0;
  for (const { pair, score: value } of scored) {
    const predicted = value >= threshold;
    if (predicted && pair.similar) tp++;
    else if (predicted) fp++;
    else if (pair.similar) fn++;
    else tn++;
  }
  const precision = ratio(tp, tp + fp);
  const recall = ratio(tp, tp + fn);
  return { threshold, tp, fp, fn, tn, precision, recall, f1: ratio(2 * precision * recall, precision + recall), accuracy: ratio(tp + tn, scored.length) };
}

/** The sweep point with the highest F1; ties go to the higher threshold (same F1, fewer alerts). */
function bestF1(sweep: readonly Metrics[]): Metrics {
  return sweep.reduce((best, m) => (m.f1 > best.f1 || (m.f1 === best.f1 && m.threshold > best.threshold) ? m : best));
}

const pct = (value: number): string => `${(value * 100).toFixed(1)}%`.padStart(6);
const fixed = (value: number): string => value.toFixed(2);

function sweepTable(sweep: readonly Metrics[]): string[] {
  const widths = [9, 9, 7, 7, 9];
  const row = (cells: readonly string[], counts: readonly string[]): string =>
    `  ${cells.map((cell, i) => cell.padStart(widths[i] ?? 0)).join('  ')}  ${counts.map((n) => n.padStart(3)).join(' ')}`;
  return [
    row(['threshold', 'precision', 'recall', 'F1', 'accuracy'], ['TP', 'FP', 'FN', 'TN']),
    ...sweep.map((m) => row([fixed(m.threshold), pct(m.precision), pct(m.recall), pct(m.f1), pct(m.accuracy)], [m.tp, m.fp, m.fn, m.tn].map(String))),
  ];
}

function headline(label: string, m: Metrics): string {
  return `  ${label}: precision ${pct(m.precision).trim()}, recall ${pct(m.recall).trim()}, F1 ${pct(m.f1).trim()}, accuracy ${pct(m.accuracy).trim()} (TP ${m.tp}, FP ${m.fp}, FN ${m.fn}, TN ${m.tn})`;
}

const mean = (values: readonly number[]): number =>
  ratio(
    values.reduce((sum, v) => sum + v, 0),
    values.length,
  );

/**
 * ROC AUC: the chance that a pair held similar outscores a pair held not (ties count half).
 * Threshold-free, so it says whether the scores separate the two outcomes at all; 0.5 is chance.
 */
function rocAuc(scored: readonly Scored[]): number {
  const positives = scored.filter((s) => s.pair.similar).map((s) => s.score);
  const negatives = scored.filter((s) => !s.pair.similar).map((s) => s.score);
  let wins = 0;
  for (const p of positives) for (const n of negatives) wins += p > n ? 1 : p === n ? 0.5 : 0;
  return ratio(wins, positives.length * negatives.length);
}

function misclassifiedLines(scored: readonly Scored[], threshold: number): string[] {
  const describe = ({ pair, score: value, signal }: Scored): string => {
    const classes = pair.classes ? ` [${pair.classes.join(',')}${pair.laterClasses ? ` / ${pair.laterClasses.join(',')}` : ''}]` : '';
    return `  ${value.toFixed(3)}  ${pair.earlier} / ${pair.later}${classes}  (${signal}; ${pair.decision})`;
  };
  const missed = scored.filter((s) => s.pair.similar && s.score < threshold).sort((a, b) => a.score - b.score);
  const falseAlarms = scored.filter((s) => !s.pair.similar && s.score >= threshold).sort((a, b) => b.score - a.score);
  return [
    `Held similar but scored below ${fixed(threshold)} (false negatives, ${missed.length}):`,
    ...missed.map(describe),
    '',
    `Held not similar but scored ${fixed(threshold)} or more (false positives, ${falseAlarms.length}):`,
    ...falseAlarms.map(describe),
  ];
}

function main(): void {
  const pairs = loadPairs();
  const positives = pairs.filter((p) => p.similar).length;
  const withClassInfo = pairs.filter((p) => p.classes).length;
  const scored = score(pairs, true);
  const textOnly = score(pairs, false);
  const sweep = SWEEP.map((t) => metricsAt(scored, t));
  const textSweep = SWEEP.map((t) => metricsAt(textOnly, t));
  const atDefault = metricsAt(scored, DEFAULT_SCORE_THRESHOLD);
  const textAtDefault = metricsAt(textOnly, DEFAULT_SCORE_THRESHOLD);
  const best = bestF1(sweep);
  const textBest = bestF1(textSweep);
  const meanOf = (list: readonly Scored[], similar: boolean): string => mean(list.filter((s) => s.pair.similar === similar).map((s) => s.score)).toFixed(3);
  // The baseline any threshold has to beat: call every pair similar (precision = the share held similar).
  const base = ratio(positives, pairs.length);

  const report = [
    'Similarity scoring against decided cases (bench/similarity.ts)',
    '',
    `Pairs: ${pairs.length} (${positives} held confusingly similar, ${pairs.length - positives} held not), ${withClassInfo} with Nice classes from the source.`,
    `Prediction: similar when score >= threshold. Default threshold (DEFAULT_SCORE_THRESHOLD): ${fixed(DEFAULT_SCORE_THRESHOLD)}.`,
    `Baseline (every pair called similar): precision ${pct(base).trim()}, recall 100.0%, F1 ${pct(ratio(2 * base, 1 + base)).trim()}, accuracy ${pct(base).trim()}.`,
    '',
    'With classes where known (as the watch evaluator scores):',
    headline(`at ${fixed(DEFAULT_SCORE_THRESHOLD)}`, atDefault),
    headline(`best F1 of the sweep, at ${fixed(best.threshold)}`, best),
    `  mean score: ${meanOf(scored, true)} for pairs held similar, ${meanOf(scored, false)} for pairs held not; ROC AUC ${rocAuc(scored).toFixed(3)}`,
    '',
    ...sweepTable(sweep),
    '',
    'Texts only (classes ignored):',
    headline(`at ${fixed(DEFAULT_SCORE_THRESHOLD)}`, textAtDefault),
    headline(`best F1 of the sweep, at ${fixed(textBest.threshold)}`, textBest),
    `  mean score: ${meanOf(textOnly, true)} for pairs held similar, ${meanOf(textOnly, false)} for pairs held not; ROC AUC ${rocAuc(textOnly).toFixed(3)}`,
    '',
    ...sweepTable(textSweep),
    '',
    `Misclassified at ${fixed(DEFAULT_SCORE_THRESHOLD)} (with classes; score, earlier / later [classes], strongest text signal; decision):`,
    '',
    ...misclassifiedLines(scored, DEFAULT_SCORE_THRESHOLD),
  ];
  process.stdout.write(`${report.join('\n')}\n`);
}

if (require.main === module) main();
