/**
 * `marque marks add|update`: create or change one trademark by hand, through the write path
 * (workers/ingest/mark-writer.ts), printing the record's id, outcome and version as JSON.
 */
import { parseArgs } from 'node:util';
import { isIsoDate } from '../domain/validation';
import { isWellFormedId } from '../domain/ids';
import { addMark, ManualMarkError, updateMark } from '../workers/ingest/manual-marks';
import { MarkWriter, type MarkWriteResult } from '../workers/ingest/mark-writer';
import { print, required, UsageError, withAdapters } from './cli-support';
import type { Config } from './config';

const today = () => new Date().toISOString().slice(0, 10);

function output(result: MarkWriteResult): void {
  print({ id: result.trademark_id, object: 'trademark', outcome: result.outcome, version: result.version });
}

function parseClasses(raw: string): number[] {
  const classes = raw.split(',').map((part) => part.trim());
  if (classes.some((part) => !/^\d{1,2}$/.test(part))) throw new UsageError(`--classes must be a comma list of Nice classes 1 to 45 (got '${raw}')`);
  return classes.map(Number);
}

async function add(config: Config, args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      'mark-text': { type: 'string' },
      office: { type: 'string' },
      classes: { type: 'string' },
      'owner-name': { type: 'string' },
      status: { type: 'string' },
    },
  });
  const options = {
    markText: required('mark-text', values['mark-text']),
    officeCode: required('office', values.office).toUpperCase(),
    classes: parseClasses(required('classes', values.classes)),
    ownerName: values['owner-name'] ?? null,
    status: values.status ?? 'pending',
    today: today(),
  };
  output(await withAdapters(config, ({ store }) => addMark(store, new MarkWriter(store), options)));
}

async function update(config: Config, args: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { status: { type: 'string' }, event: { type: 'string' }, 'publication-date': { type: 'string' } },
  });
  const [id, ...extra] = positionals;
  if (id === undefined || extra.length > 0) throw new UsageError('marks update takes one trademark ID (tm_…)');
  if (!isWellFormedId(id, 'tm_')) throw new UsageError(`'${id}' is not a trademark ID (tm_…)`);
  const publicationDate = values['publication-date'] ?? null;
  if (publicationDate !== null && !isIsoDate(publicationDate)) throw new UsageError(`--publication-date must be YYYY-MM-DD (got '${publicationDate}')`);
  if (values.status === undefined && values.event === undefined && publicationDate === null) {
    throw new UsageError('marks update needs at least one of --status, --event, --publication-date');
  }
  const options = { status: values.status ?? null, eventType: values.event ?? null, publicationDate, today: today() };
  output(await withAdapters(config, ({ store }) => updateMark(store, new MarkWriter(store), id, options)));
}

export async function marks(config: Config, args: string[]): Promise<void> {
  const [action, ...rest] = args;
  try {
    if (action === 'add') return await add(config, rest);
    if (action === 'update') return await update(config, rest);
  } catch (error) {
    if (error instanceof ManualMarkError) throw new UsageError(error.message);
    throw error;
  }
  throw new UsageError('marks supports: add, update');
}
