/**
 * Runs the SearchIndex contract against Elasticsearch when ELASTICSEARCH_URL is set. Every test
 * gets its own index prefix; the indexes are deleted afterwards.
 */
import { Client } from '@elastic/elasticsearch';
import { randomUUID } from 'node:crypto';
import { createElasticSearchIndex } from '../../../datasources/elastic/search-index';
import { CONTRACT_DEFINITION, describeSearchIndexContract } from '../search-index.contract';

const node = process.env.ELASTICSEARCH_URL;

if (node) {
  const prefixes: string[] = [];

  describeSearchIndexContract('Elasticsearch', async () => {
    const indexPrefix = `marque_test_${randomUUID().slice(0, 8)}_`;
    prefixes.push(indexPrefix);
    return createElasticSearchIndex({ node, indexPrefix, refreshOnWrite: true });
  });

  after(async () => {
    const client = new Client({ node });
    // Named indexes, not a wildcard: Elasticsearch refuses wildcard deletes by default.
    const indexes = prefixes.flatMap((prefix) => [`${prefix}${CONTRACT_DEFINITION.name}`, `${prefix}search_sequences`]);
    if (indexes.length > 0) await client.indices.delete({ index: indexes, ignore_unavailable: true });
    await client.close();
  });
}
