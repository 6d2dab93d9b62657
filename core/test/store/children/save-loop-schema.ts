/** The schema of the save-loop child's database, shared with the test that reads it. */
import type { Migration } from '../../../src/store/schema-migrations.js';

export const SAVE_LOOP_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'save loop',
    up(db) {
      db.run('CREATE TABLE log (n INTEGER PRIMARY KEY); CREATE TABLE counter (n INTEGER NOT NULL, filler BLOB NOT NULL); INSERT INTO counter VALUES (0, x\'\')');
    },
  },
];
