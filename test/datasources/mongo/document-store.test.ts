/**
 * Runs the DocumentStore contract against MongoDB when MONGODB_URL points at one (a replica set:
 * transactions and change streams need it). Without it nothing is registered.
 */
import { MongoClient } from 'mongodb';
import { describeDocumentStoreContract } from '../document-store.contract';
import { createMongoDocumentStore } from '../../../datasources/mongo/document-store';

const url = process.env.MONGODB_URL;

if (url) {
  let opened = 0;
  let database = '';
  describeDocumentStoreContract(
    'mongo',
    async () => {
      database = `marque_contract_${process.pid}_${++opened}`;
      return createMongoDocumentStore({ url, database });
    },
    async () => {
      const client = new MongoClient(url);
      try {
        await client.db(database).dropDatabase();
      } finally {
        await client.close();
      }
    },
  );
}
