import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeDocumentStoreContract } from '../document-store.contract';
import { createEmbeddedDocumentStore } from '../../../datasources/embedded/document-store';

let directory: string | undefined;

describeDocumentStoreContract(
  'embedded (temporary file)',
  async () => {
    directory = mkdtempSync(join(tmpdir(), 'marque-docstore-'));
    return createEmbeddedDocumentStore({ path: join(directory, 'documents.sqlite') });
  },
  async () => {
    if (directory) rmSync(directory, { recursive: true, force: true });
  },
);

describeDocumentStoreContract('embedded (:memory:)', async () => createEmbeddedDocumentStore({ path: ':memory:' }));
