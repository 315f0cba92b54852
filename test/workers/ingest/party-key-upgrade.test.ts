/**
 * A data directory whose parties were keyed by the fold before the Latin letter table (ø, ł, æ
 * kept as such) is upgraded when it is opened, and an office record naming the same parties then
 * matches them instead of creating duplicates. The old keys are written by hand, as that fold
 * computed them ("ØRSTED A/S" → "ørsted": accents and case folded, ø kept, "a s" stripped).
 */
import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { closeAdapters, openAdapters, storeFile } from '../../../bin/adapters';
import { readConfig } from '../../../bin/config';
import { createEmbeddedDocumentStore } from '../../../datasources/embedded/document-store';
import type { DocumentStore } from '../../../datasources/ports';
import { catalogId } from '../../../domain/ids';
import { COLLECTIONS, type AttorneyDoc, type EntityDoc, type FirmDoc, type OwnerDoc, type TrademarkDoc } from '../../../domain/records';
import { STORE_INDEXES } from '../../../resolvers/store-indexes';
import { CASE_FILE, mapCaseFile } from '../../../workers/ingest/uspto/applications';
import { readUsptoCodeTables } from '../../../workers/ingest/uspto/code-tables';
import { UsptoEventTypes } from '../../../workers/ingest/uspto/events';
import { MarkWriter } from '../../../workers/ingest/mark-writer';
import { PARTY_KEYS_META_ID, upgradePartyKeys } from '../../../workers/ingest/party-key-upgrade';
import type { MarkInput } from '../../../workers/ingest/mark-input';
import { applicationsDocument, readRecords, sampleCaseFile, withSerial } from '../../support/uspto-samples';

const tables = readUsptoCodeTables(join(__dirname, '..', '..', '..', 'data', 'uspto'));
const context = { tables, events: new UsptoEventTypes(tables) };
const AT = '2025-01-01T00:00:00.000Z';

const partyFields = { merged_into: null, created_at: AT, updated_at: AT };

const ORSTED: OwnerDoc = {
  _id: 'own_old_orsted',
  name: 'ØRSTED A/S',
  canonical_name: 'ørsted',
  aliases: [],
  country_code: 'DK',
  entity_type: 'corporation',
  entity_id: 'ent_old_orsted',
  entity_id_type: 'derived',
  companies: [],
  relationships: [],
  dedupe_key: 'org|ørsted|DK',
  ...partyFields,
};

const LUKASZ: OwnerDoc = {
  ...ORSTED,
  _id: 'own_old_lukasz',
  name: 'Łukasz Błaszczykowski',
  canonical_name: 'łukasz błaszczykowski',
  country_code: 'PL',
  entity_type: 'individual',
  entity_id: 'ent_old_lukasz',
  // An individual in Łódź, named without a postcode: the area is the folded city.
  dedupe_key: 'person|łukasz błaszczykowski|PL|łodz',
};

const ORSTED_ENTITY: EntityDoc = {
  _id: 'ent_old_orsted',
  name: 'ØRSTED A/S',
  canonical_name: 'ørsted',
  country_code: 'DK',
  lei: null,
  ticker: null,
  member_owner_ids: ['own_old_orsted'],
  ...partyFields,
};

const FIRM: FirmDoc = {
  _id: 'firm_old_aero',
  name: 'Kromann Reumert Ærø',
  canonical_name: 'kromann reumert ærø',
  country_code: 'DK',
  aliases: [],
  dedupe_key: 'firm|kromann reumert ærø|DK',
  ...partyFields,
};

const SOREN: AttorneyDoc = {
  _id: 'att_old_soren',
  name: 'Søren Ødegård',
  canonical_name: 'søren ødegard',
  email: null,
  country_code: 'DK',
  firm_id: 'firm_old_aero',
  bar_admissions: [],
  dedupe_key: 'attorney|søren ødegard|firm|kromann reumert ærø|DK',
  ...partyFields,
};

/** Writes the parties as the older fold keyed them. */
async function writeOldKeys(store: DocumentStore): Promise<void> {
  await store.collection<OwnerDoc>(COLLECTIONS.owners).insertMany([ORSTED, LUKASZ]);
  await store.collection<EntityDoc>(COLLECTIONS.entities).insertOne(ORSTED_ENTITY);
  await store.collection<FirmDoc>(COLLECTIONS.firms).insertOne(FIRM);
  await store.collection<AttorneyDoc>(COLLECTIONS.attorneys).insertOne(SOREN);
}

/** An office record naming the same three parties, spelled as the office spells them. */
function markNamingThem(): MarkInput {
  const [input] = readRecords(applicationsDocument([withSerial(sampleCaseFile('98763166'), '98000001')]), CASE_FILE, 'sample.xml').map((record) =>
    mapCaseFile(record, 'sample.xml', context),
  );
  return {
    ...input!,
    owners: [
      { name: 'Ørsted A/S', entity_type: 'corporation', country_code: 'DK', city: 'Fredericia', postcode: null },
      { name: 'ŁUKASZ BŁASZCZYKOWSKI', entity_type: 'individual', country_code: 'PL', city: 'Łódź', postcode: null },
    ],
    attorneys: [{ name: 'Søren Ødegård', country_code: 'DK', email: null, firm: { name: 'Kromann Reumert Ærø', country_code: 'DK' } }],
    // The case file's own owner rows name its real owner: left out, so every party written is one of these.
    owner_history: [],
  };
}

async function keysOf(store: DocumentStore, collection: string): Promise<Array<[string, string, string | undefined]>> {
  const records = await store.collection<{ _id: string; canonical_name: string; dedupe_key?: string }>(collection).find({}, { sort: { _id: 1 } });
  return records.map((record) => [record._id, record.canonical_name, record.dedupe_key]);
}

describe('workers/ingest/party-key-upgrade: party keys of an older fold', function () {
  this.timeout(60_000);
  let dir: string;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'marque-party-keys-'));
    const store = createEmbeddedDocumentStore({ path: storeFile(dir) });
    await store.ensureIndexes(STORE_INDEXES);
    await writeOldKeys(store);
    await store.close();
  });

  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('are refolded when the data directory is opened, and the same parties ingested again match them', async () => {
    const adapters = await openAdapters(readConfig({ MARQUE_DATA_DIR: dir, MARQUE_DEMO_MARKS: '0' }));
    try {
      const { store } = adapters;
      expect(await keysOf(store, COLLECTIONS.owners)).to.deep.equal([
        ['own_old_lukasz', 'lukasz blaszczykowski', 'person|lukasz blaszczykowski|PL|lodz'],
        ['own_old_orsted', 'orsted', 'org|orsted|DK'],
      ]);
      expect(await keysOf(store, COLLECTIONS.entities)).to.deep.equal([['ent_old_orsted', 'orsted', undefined]]);
      expect(await keysOf(store, COLLECTIONS.firms)).to.deep.equal([['firm_old_aero', 'kromann reumert aero', 'firm|kromann reumert aero|DK']]);
      expect(await keysOf(store, COLLECTIONS.attorneys)).to.deep.equal([
        ['att_old_soren', 'soren odegard', 'attorney|soren odegard|firm|kromann reumert aero|DK'],
      ]);

      await new MarkWriter(store).write([markNamingThem()]);
      const mark = await store.collection<TrademarkDoc>(COLLECTIONS.trademarks).findOne({ _id: catalogId('tm_', 'US', '98000001') });
      expect(mark?.owner_ids).to.deep.equal(['own_old_orsted', 'own_old_lukasz']);
      expect(mark?.attorney_ids).to.deep.equal(['att_old_soren']);
      expect(await store.collection(COLLECTIONS.owners).countDocuments({})).to.equal(2);
      expect(await store.collection(COLLECTIONS.firms).countDocuments({})).to.equal(1);
      expect(await store.collection(COLLECTIONS.attorneys).countDocuments({})).to.equal(1);
    } finally {
      await closeAdapters(adapters);
    }
  });

  it('runs once: the version reached is recorded and the next open rewrites nothing', async () => {
    const store = createEmbeddedDocumentStore({ path: storeFile(dir) });
    try {
      // Owners 2, entity 1, firm 1, attorney 1.
      expect(await upgradePartyKeys(store)).to.equal(5);
      expect(await store.collection(COLLECTIONS.meta).findOne({ _id: PARTY_KEYS_META_ID })).to.deep.equal({ _id: PARTY_KEYS_META_ID, version: 2 });
      const position = await store.latestPosition();
      expect(await upgradePartyKeys(store)).to.equal(0);
      expect(await store.latestPosition(), 'nothing written the second time').to.equal(position);
    } finally {
      await store.close();
    }
  });

  it('is safe in two processes opening the store together: each record is rewritten once, to the same keys', async () => {
    const first = createEmbeddedDocumentStore({ path: storeFile(dir) });
    const second = createEmbeddedDocumentStore({ path: storeFile(dir) });
    try {
      const [a, b] = await Promise.all([upgradePartyKeys(first), upgradePartyKeys(second)]);
      expect(a + b).to.equal(5);
      expect(await keysOf(first, COLLECTIONS.owners)).to.deep.equal([
        ['own_old_lukasz', 'lukasz blaszczykowski', 'person|lukasz blaszczykowski|PL|lodz'],
        ['own_old_orsted', 'orsted', 'org|orsted|DK'],
      ]);
    } finally {
      await Promise.all([first.close(), second.close()]);
    }
  });
});
