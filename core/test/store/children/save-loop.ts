/**
 * Child of database-file.test.ts: saves a database over and over until it is
 * killed. Each state n holds log rows 1..n and a 4 MiB blob of bytes n % 256,
 * so a torn or mixed file is easy to tell. Prints `saving n` once the save
 * has started writing and `saved n` once it is on disk.
 */
import { DatabaseFile } from '../../../src/store/database-file.js';
import { SAVE_LOOP_MIGRATIONS } from './save-loop-schema.js';

const file = await DatabaseFile.open(process.argv[2], { label: 'save loop', migrations: SAVE_LOOP_MIGRATIONS });
let n = Number(file.db.exec('SELECT coalesce(max(n), 0) FROM log')[0].values[0][0]);
for (;;) {
  n += 1;
  file.db.run('INSERT INTO log (n) VALUES (?)', [n]);
  file.db.run('UPDATE counter SET n = ?, filler = ?', [n, new Uint8Array(4 * 1024 * 1024).fill(n % 256)]);
  const saving = file.save();
  process.stdout.write(`saving ${n}\n`);
  await saving;
  process.stdout.write(`saved ${n}\n`);
}
