// The child of `prepare-embedded.ts`: creates the embedded database in the given directory, migrates it, closes it.
import { databaseRoutines } from '../database-routines.ts';
import { createDb } from './client.ts';
import { migrate } from './migrate.ts';

const db = await createDb({ pgliteDir: process.argv[2] });
try {
  await migrate(db, databaseRoutines);
} finally {
  await db.close();
}
process.exit(0);
