/**
 * Runs the SearchIndex contract against Elasticsearch when ELASTICSEARCH_URL is set. Every test
 * gets its own index prefix; the indexes are deleted afterwards.
 */
import { Client } from '@elastic/elasticsearch';
import { randomUUID } from 'node:crypto';
import { createElasticSearchIndex } from '../../../datasources/elastic/search-index';
import { describeSearchIndexContract } from '../search-index.contract';

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
    for (const prefix of prefixes) await client.indices.delete({ index: `${prefix}*` }, { ignore: [404] });
    await client.close();
  });
}
